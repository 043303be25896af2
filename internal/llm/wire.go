package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Wire formats.
//
// openai: POST {base}/chat/completions with "Authorization: Bearer KEY",
// {"model","messages":[{"role":"system",…},{"role":"user",…}],
// "response_format":{"type":"json_schema","json_schema":{"name","strict":true,"schema"}}};
// the reply is choices[0].message.content, a JSON string, with
// usage.prompt_tokens and usage.completion_tokens. A server that rejects
// json_schema with HTTP 400 is asked again with {"type":"json_object"}, then
// with no response_format (the prompt asks for JSON either way).
//
// anthropic: POST {base}/v1/messages with "x-api-key: KEY" and
// "anthropic-version: 2023-06-01", {"model","max_tokens","system","messages",
// "tools":[{"name","description","input_schema"}],"tool_choice":{"type":"tool","name"}};
// the reply is the tool_use block's input (or, failing that, the text
// blocks), with usage.input_tokens and usage.output_tokens.

// Retry policy.
const (
	backoffBase   = 500 * time.Millisecond // first retry waits about this long
	maxBackoff    = 20 * time.Second       // exponential backoff stops growing here
	maxRetryAfter = 60 * time.Second       // a server's Retry-After is honoured up to this
	maxReplyBytes = 8 << 20                // a judgment reply is a few KB; more is garbage
	toolName      = "report_relevance"
	enoughTool    = "report_enough"
)

// openai response_format levels, tried in order.
const (
	formatSchema = iota
	formatObject
	formatNone
)

// apiError is an HTTP error from the provider.
type apiError struct {
	Provider string
	Status   int
	Message  string
}

func (e *apiError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	return fmt.Sprintf("%s: HTTP %d: %s", e.Provider, e.Status, msg)
}

// fatal reports errors that no retry or other batch can fix: a bad key, a
// forbidden model, a wrong URL or model name.
func (e *apiError) fatal() bool {
	return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden || e.Status == http.StatusNotFound
}

// retryable reports statuses worth another try.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusRequestTimeout ||
		status == http.StatusConflict || status >= 500
}

// tokens are one reply's usage.
type tokens struct{ in, out int64 }

// schema is the JSON schema of a reply, with paths limited to the batch's.
// call is one request to the model: the prompts, and the tool (Anthropic)
// or JSON schema (OpenAI) its reply must fill.
type call struct {
	system, user   string
	tool, describe string
	schema         map[string]any
}

// judgeCall is the request judging a batch of the files at paths.
func judgeCall(system, user string, paths []string) call {
	return call{system: system, user: user, tool: toolName, describe: "Report the relevance of each file to the task.", schema: schema(paths)}
}

// enoughCall is Enough's request.
func enoughCall(user string) call {
	return call{system: enoughSystem, user: user, tool: enoughTool,
		describe: "Say whether the files judged relevant are enough to carry out the task.",
		schema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"enough":  map[string]any{"type": "boolean"},
				"missing": map[string]any{"type": "string"},
			},
			"required":             []string{"enough", "missing"},
			"additionalProperties": false,
		}}
}

func schema(paths []string) map[string]any {
	str := map[string]any{"type": "string"}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"evaluations": map[string]any{
				"type": "array",
				"items": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"path":            map[string]any{"type": "string", "enum": paths},
						"relevance":       map[string]any{"type": "number"},
						"reason":          str,
						"missing_context": map[string]any{"type": "array", "items": str},
						"critical":        map[string]any{"type": "boolean"},
					},
					"required":             []string{"path", "relevance", "reason", "missing_context", "critical"},
					"additionalProperties": false,
				},
			},
			"keywords": map[string]any{"type": "array", "items": str},
		},
		"required":             []string{"evaluations", "keywords"},
		"additionalProperties": false,
	}
}

// body builds the request body for the provider.
func (e *Evaluator) body(c call, format int) ([]byte, error) {
	system, user := c.system, c.user
	if e.cfg.Provider == ProviderAnthropic {
		max := e.cfg.MaxTokens
		if max <= 0 {
			max = DefaultMaxTokens
		}
		return json.Marshal(map[string]any{
			"model":      e.cfg.Model,
			"max_tokens": max,
			"system":     system,
			"messages":   []map[string]any{{"role": "user", "content": user}},
			"tools": []map[string]any{{
				"name":         c.tool,
				"description":  c.describe,
				"input_schema": c.schema,
			}},
			"tool_choice": map[string]any{"type": "tool", "name": c.tool},
		})
	}
	req := map[string]any{
		"model": e.cfg.Model,
		"messages": []map[string]any{
			{"role": "system", "content": system},
			{"role": "user", "content": user},
		},
		"stream": false,
	}
	if e.cfg.MaxTokens > 0 {
		req["max_tokens"] = e.cfg.MaxTokens
	}
	switch format {
	case formatSchema:
		req["response_format"] = map[string]any{"type": "json_schema", "json_schema": map[string]any{
			"name": c.tool, "strict": true, "schema": c.schema}}
	case formatObject:
		req["response_format"] = map[string]any{"type": "json_object"}
	}
	return json.Marshal(req)
}

func (e *Evaluator) endpoint() string {
	if e.cfg.Provider == ProviderAnthropic {
		return e.cfg.BaseURL + "/v1/messages"
	}
	return e.cfg.BaseURL + "/chat/completions"
}

// ask sends one prompt, retrying as the policy allows, and returns the
// reply's text. Errors are *apiError (HTTP), *outOfTimeError when the time
// budget (ctx's deadline, caused by errOutOfTime) ran out or leaves no time
// for the next retry, the context's error, or a transport error after the
// last retry.
func (e *Evaluator) ask(ctx context.Context, c call) (string, error) {
	var last error
	done := func() error { // ctx is done: why
		if errors.Is(context.Cause(ctx), errOutOfTime) {
			return &outOfTimeError{last: last}
		}
		return ctx.Err()
	}
	for attempt := 0; ; attempt++ {
		if ctx.Err() != nil {
			return "", done()
		}
		format := int(e.format.Load())
		body, err := e.body(c, format)
		if err != nil {
			return "", fmt.Errorf("llm: encode request: %w", err)
		}
		text, tok, retryAfter, err := e.post(ctx, body)
		if err == nil {
			e.addTokens(tok)
			return text, nil
		}
		if ctx.Err() != nil {
			return "", done()
		}
		last = err
		var ae *apiError
		if errors.As(err, &ae) {
			if ae.Status == http.StatusBadRequest && e.cfg.Provider == ProviderOpenAI && format < formatNone {
				// The server may not know this response_format: step down and
				// ask again at once (not counted as a retry).
				e.format.CompareAndSwap(int32(format), int32(format+1))
				attempt--
				continue
			}
			if !retryable(ae.Status) {
				return "", err
			}
		}
		if attempt >= e.cfg.MaxRetries {
			if attempt > 0 {
				return "", fmt.Errorf("%w (gave up after %d retries)", last, attempt)
			}
			return "", last
		}
		wait := e.backoff(attempt, retryAfter)
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			// Waiting would spend the rest of the time budget for nothing.
			return "", &outOfTimeError{last: last, wait: wait}
		}
		e.count(func(u *Usage) { u.Retries++ })
		if err := e.sleep(ctx, wait); err != nil {
			return "", done()
		}
	}
}

// outOfTimeError says that the time budget ran out, or leaves no time for the
// wait before the next retry, and what the last attempt got.
type outOfTimeError struct {
	last error         // the latest attempt's error, nil when none failed
	wait time.Duration // the wait that would have passed the deadline, 0 if none
}

func (e *outOfTimeError) Error() string {
	var b strings.Builder
	b.WriteString("time budget ran out")
	if e.wait > 0 {
		fmt.Fprintf(&b, " (no retry: waiting %s would pass it)", e.wait.Round(time.Millisecond))
	}
	if e.last != nil {
		fmt.Fprintf(&b, "; last error: %v", e.last)
	}
	return b.String()
}

func (e *outOfTimeError) Is(target error) bool { return target == errOutOfTime }

// backoff is the wait before retry attempt+1: the server's Retry-After when it
// gave one (capped), else exponential from backoffBase with jitter.
func (e *Evaluator) backoff(attempt int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return min(retryAfter, maxRetryAfter)
	}
	d := e.backoffBase << min(attempt, 16)
	d = min(d, maxBackoff)
	return d/2 + rand.N(d/2+1) // "equal jitter": spreads clients, keeps growth
}

// post makes one HTTP request within the per-request timeout.
func (e *Evaluator) post(ctx context.Context, body []byte) (string, tokens, time.Duration, error) {
	rctx, cancel := context.WithTimeout(ctx, e.cfg.RequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, e.endpoint(), bytes.NewReader(body))
	if err != nil {
		return "", tokens{}, 0, fmt.Errorf("llm: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.cfg.Provider == ProviderAnthropic {
		req.Header.Set("x-api-key", e.cfg.APIKey)
		req.Header.Set("anthropic-version", AnthropicVersion)
	} else if e.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.cfg.APIKey)
	}
	e.count(func(u *Usage) { u.Requests++ })
	resp, err := e.client.Do(req)
	if err != nil {
		if rctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
			return "", tokens{}, 0, fmt.Errorf("%s: timed out after %s", e.cfg.Provider, e.cfg.RequestTimeout)
		}
		return "", tokens{}, 0, fmt.Errorf("%s: %w", e.cfg.Provider, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes))
	if err != nil {
		if rctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
			return "", tokens{}, 0, fmt.Errorf("%s: timed out after %s", e.cfg.Provider, e.cfg.RequestTimeout)
		}
		return "", tokens{}, 0, fmt.Errorf("%s: read reply: %w", e.cfg.Provider, err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", tokens{}, parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()),
			&apiError{Provider: e.cfg.Provider, Status: resp.StatusCode, Message: errorMessage(data)}
	}
	text, tok, err := e.decode(data)
	return text, tok, 0, err
}

// decode extracts the reply text and usage from a 200 response. A body that
// does not have the provider's shape yields an empty text (an unusable
// reply), not an error, so that the batch is re-asked once.
func (e *Evaluator) decode(data []byte) (string, tokens, error) {
	if e.cfg.Provider == ProviderAnthropic {
		var r struct {
			Content []struct {
				Type  string          `json:"type"`
				Text  string          `json:"text"`
				Input json.RawMessage `json:"input"`
			} `json:"content"`
			Usage struct {
				InputTokens  int64 `json:"input_tokens"`
				OutputTokens int64 `json:"output_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal(data, &r); err != nil {
			return "", tokens{}, nil
		}
		tok := tokens{r.Usage.InputTokens, r.Usage.OutputTokens}
		var text strings.Builder
		for _, c := range r.Content {
			if c.Type == "tool_use" && len(c.Input) > 0 {
				return string(c.Input), tok, nil
			}
			if c.Type == "text" {
				text.WriteString(c.Text)
			}
		}
		return text.String(), tok, nil
	}
	var r struct {
		Choices []struct {
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		} `json:"choices"`
		Usage struct {
			PromptTokens     int64 `json:"prompt_tokens"`
			CompletionTokens int64 `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return "", tokens{}, nil
	}
	tok := tokens{r.Usage.PromptTokens, r.Usage.CompletionTokens}
	if len(r.Choices) == 0 {
		return "", tok, nil
	}
	c := r.Choices[0].Message.Content
	var s string
	if json.Unmarshal(c, &s) == nil {
		return s, tok, nil
	}
	// Some servers send content as parts: [{"type":"text","text":"…"}].
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(c, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String(), tok, nil
	}
	return "", tok, nil
}

// errorMessage pulls the message out of an error body in either provider's
// shape ({"error":{"message":…}}), else returns the body's start.
func errorMessage(data []byte) string {
	var r struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(data, &r) == nil && len(r.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(r.Error, &obj) == nil && obj.Message != "" {
			return obj.Message
		}
		var s string
		if json.Unmarshal(r.Error, &s) == nil && s != "" {
			return s
		}
	}
	s := strings.TrimSpace(string(data))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// parseRetryAfter reads Retry-After as seconds or an HTTP date; 0 when absent
// or unreadable.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseFloat(v, 64); err == nil {
		if n <= 0 {
			return 0
		}
		return time.Duration(n * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// sleepCtx waits d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
