package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The stdio transport. Messages are newline-delimited JSON-RPC 2.0, one a
// line, as the MCP stdio transport specifies; the SDK's own transport ends
// the session at the first line it cannot decode and drops the answers still
// due when its input ends. This one:
//
//   - answers a line that is not a JSON-RPC message and goes on: -32700
//     Parse error (id null) for what is not JSON (or not UTF-8, or longer
//     than the line limit), -32600 Invalid Request (with the request's id
//     when it has one) for JSON that is not a request, response or
//     notification;
//   - answers a batch (a JSON array) element by element with -32600:
//     MCP 2025-06-18 and later have no batches, and no client sends them;
//   - at the end of its input, reports it to the SDK only once every call
//     read so far has been answered, so that `printf '…' | hone mcp`
//     gets all its answers; calls still running after drainGrace are
//     cancelled (through stop) and their error answers written.

// Limits of the stdio transport.
const (
	// maxLineBytes bounds one message: far above any tool call (a task is at
	// most 1 MiB), low enough that a runaway line cannot exhaust memory.
	maxLineBytes = mcp.DefaultMaxLineLength
	// drainGrace is how long, once the input has ended, the calls read so
	// far have to finish and be answered. Warm calls take milliseconds; a
	// call still running then (a cold index of a large repository) is
	// cancelled, so that the server exits promptly.
	drainGrace = time.Second
	// answerGrace is how long cancelled calls have to write their answers.
	answerGrace = 500 * time.Millisecond
)

// stdioConn is an mcp.Connection over a reader and a writer. It is also its
// own mcp.Transport (for one Connect). Read is called by one goroutine;
// Write and Close may be called from any.
type stdioConn struct {
	log   *slog.Logger
	drain time.Duration
	stop  func() // cancels the server's work when the drain times out

	frames chan frame // from the read loop; closed at the end of input
	readEr error      // why the input ended; set before frames is closed
	queue  []jsonrpc.Message

	wmu sync.Mutex // serialises writes, one message a line
	w   io.Writer

	mu      sync.Mutex
	pending map[jsonrpc.ID]bool // calls read and not answered
	changed chan struct{}       // closed and replaced when pending shrinks

	closeOnce sync.Once
	closed    chan struct{}
	eofOnce   sync.Once
	eof       chan struct{} // closed once Read has reported the end of input
}

// frame is one line of input.
type frame struct {
	line    []byte
	tooLong bool // the line passed maxLine bytes; line holds its start
}

// newStdioConn reads messages from r (until EOF) and writes them to w.
// maxLine <= 0 means maxLineBytes.
func newStdioConn(r io.Reader, w io.Writer, maxLine int, drain time.Duration, stop func(), log *slog.Logger) *stdioConn {
	if maxLine <= 0 {
		maxLine = maxLineBytes
	}
	c := &stdioConn{log: log, drain: drain, stop: stop, frames: make(chan frame), w: w,
		pending: map[jsonrpc.ID]bool{}, changed: make(chan struct{}),
		closed: make(chan struct{}), eof: make(chan struct{})}
	go c.readLoop(r, maxLine)
	return c
}

// Connect implements mcp.Transport.
func (c *stdioConn) Connect(context.Context) (mcp.Connection, error) { return c, nil }

// SessionID implements mcp.Connection: stdio has no session id.
func (c *stdioConn) SessionID() string { return "" }

// readLoop splits the input into lines. A read of os.Stdin cannot be
// interrupted, so Close does not wait for this goroutine; it ends at the end
// of input, or at the next line after Close.
func (c *stdioConn) readLoop(r io.Reader, maxLine int) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		f, err := readFrame(br, maxLine)
		if len(f.line) > 0 || f.tooLong {
			select {
			case c.frames <- f:
			case <-c.closed:
				return
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				c.readEr = err
			}
			close(c.frames)
			return
		}
	}
}

// readFrame reads one line, without its line ending. A line longer than max
// bytes is read to its end, but only its first max bytes are kept, with
// tooLong set: memory stays bounded whatever the input.
func readFrame(br *bufio.Reader, max int) (frame, error) {
	var f frame
	for {
		chunk, err := br.ReadSlice('\n')
		if !f.tooLong {
			f.line = append(f.line, chunk...)
			if len(f.line) > max+2 { // even "\r\n" cannot bring it back under max
				f.line, f.tooLong = f.line[:max:max], true
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if !f.tooLong {
			f.line = bytes.TrimSuffix(f.line, []byte("\n"))
			f.line = bytes.TrimSuffix(f.line, []byte("\r"))
			if len(f.line) > max {
				f.line, f.tooLong = f.line[:max:max], true
			}
		}
		return f, err
	}
}

// Read implements mcp.Connection: the next message, past the lines that are
// not messages (each answered with an error). At the end of input it waits
// for the calls in flight to be answered (see drainGrace), then returns
// io.EOF.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		if len(c.queue) > 0 {
			m := c.queue[0]
			c.queue = c.queue[1:]
			return c.track(m), nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case f, ok := <-c.frames:
			if !ok {
				c.drainCalls()
				c.eofOnce.Do(func() { close(c.eof) })
				if c.readEr != nil {
					return nil, c.readEr
				}
				return nil, io.EOF
			}
			msgs, reply := parseFrame(f)
			if reply != nil {
				c.log.Warn("hone mcp: answered a line that is not a JSON-RPC message", "answer", truncate(string(reply), 200))
				if err := c.writeLine(reply); err != nil {
					return nil, err
				}
			}
			c.queue = msgs
		}
	}
}

// track records a call as pending until Write sends its response.
func (c *stdioConn) track(m jsonrpc.Message) jsonrpc.Message {
	if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		c.pending[req.ID] = true
		c.mu.Unlock()
	}
	return m
}

// drainCalls waits until every call read has been answered. After c.drain it
// cancels the server's work and waits answerGrace more for the answers.
func (c *stdioConn) drainCalls() {
	if c.waitAnswered(c.drain) {
		return
	}
	c.log.Warn("hone mcp: input closed with calls still running; cancelling them", "calls", c.inFlight(), "after", c.drain)
	if c.stop != nil {
		c.stop()
	}
	c.waitAnswered(answerGrace)
}

// inFlight returns the number of calls not answered yet.
func (c *stdioConn) inFlight() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}

// waitAnswered waits up to d for every pending call to be answered, and
// reports whether they were.
func (c *stdioConn) waitAnswered(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		c.mu.Lock()
		n, ch := len(c.pending), c.changed
		c.mu.Unlock()
		if n == 0 {
			return true
		}
		select {
		case <-ch:
		case <-t.C:
			return false
		case <-c.closed:
			return false
		}
	}
}

// inputDone is closed once Read has reported the end of input.
func (c *stdioConn) inputDone() <-chan struct{} { return c.eof }

// Write implements mcp.Connection: one message, one line.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var data []byte
	var err error
	resp, isResp := msg.(*jsonrpc.Response)
	if isResp && !resp.ID.IsValid() {
		// The SDK omits a null id; JSON-RPC wants "id": null.
		data, err = errorLine(nil, toWire(resp.Error))
	} else {
		data, err = jsonrpc.EncodeMessage(msg)
	}
	if err != nil {
		return fmt.Errorf("mcpserver: encode message: %w", err)
	}
	werr := c.writeLine(data)
	if isResp && resp.ID.IsValid() {
		c.mu.Lock()
		if c.pending[resp.ID] {
			delete(c.pending, resp.ID)
			close(c.changed)
			c.changed = make(chan struct{})
		}
		c.mu.Unlock()
	}
	return werr
}

func (c *stdioConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	buf := make([]byte, 0, len(data)+1)
	buf = append(append(buf, data...), '\n')
	_, err := c.w.Write(buf)
	return err
}

// Close implements mcp.Connection. It does not close the writer (stdout
// stays open for the process's last words on stderr anyway).
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// parseFrame turns a line into the messages to pass on and, for a line that
// is not (entirely) made of messages, the error answer to write.
func parseFrame(f frame) (msgs []jsonrpc.Message, reply []byte) {
	if f.tooLong {
		return nil, mustErrorLine(nil, jsonrpc.CodeParseError,
			fmt.Sprintf("Parse error: message longer than %d bytes (the line limit)", len(f.line)))
	}
	line := bytes.TrimSpace(f.line)
	if len(line) == 0 {
		return nil, nil // a blank line: nothing to answer
	}
	if !utf8.Valid(line) {
		return nil, mustErrorLine(nil, jsonrpc.CodeParseError, "Parse error: the line is not valid UTF-8")
	}
	var raw json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		return nil, mustErrorLine(nil, jsonrpc.CodeParseError, "Parse error: "+err.Error())
	}
	switch line[0] {
	case '{':
		msg, err := decodeMessage(line)
		if err != nil {
			return nil, mustErrorLine(requestID(line), jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
		}
		return []jsonrpc.Message{msg}, nil
	case '[':
		return parseBatch(line)
	}
	return nil, mustErrorLine(nil, jsonrpc.CodeInvalidRequest,
		fmt.Sprintf("Invalid Request: a JSON-RPC message is an object, got %s", kindOf(line[0])))
}

// parseBatch answers a batch: an empty one with a single error, each call in
// it with an error of its own. Responses and notifications in it are passed
// on (a notification never gets an answer).
func parseBatch(line []byte) (msgs []jsonrpc.Message, reply []byte) {
	var elems []json.RawMessage
	if err := json.Unmarshal(line, &elems); err != nil || len(elems) == 0 {
		return nil, mustErrorLine(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: empty batch")
	}
	var answers []json.RawMessage
	for _, e := range elems {
		e = bytes.TrimSpace(e)
		var id json.RawMessage
		msg := "Invalid Request: batches are not supported (MCP has none since 2025-06-18); send one message a line"
		if len(e) > 0 && e[0] == '{' {
			m, err := decodeMessage(e)
			switch {
			case err != nil:
				id, msg = requestID(e), "Invalid Request: "+err.Error()
			case isCall(m):
				id = requestID(e)
			default:
				msgs = append(msgs, m) // a notification or a response
				continue
			}
		}
		answers = append(answers, mustErrorLine(id, jsonrpc.CodeInvalidRequest, msg))
	}
	if len(answers) == 0 {
		return msgs, nil
	}
	out, err := json.Marshal(answers)
	if err != nil {
		return msgs, mustErrorLine(nil, jsonrpc.CodeInternalError, "Internal error: "+err.Error())
	}
	return msgs, out
}

func isCall(m jsonrpc.Message) bool {
	req, ok := m.(*jsonrpc.Request)
	return ok && req.IsCall()
}

// decodeMessage decodes one JSON-RPC object, with the checks the SDK leaves
// out: a request's method is a non-empty string, a response has a result or
// an error, an id is a string or an integer (not a fraction, which the SDK
// would truncate), and a request's id is not null (which the SDK would take
// for a notification's, leaving the request unanswered).
func decodeMessage(data []byte) (jsonrpc.Message, error) {
	var probe struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, err
	}
	if id := bytes.TrimSpace(probe.ID); len(id) > 0 && id[0] != '"' && string(id) != "null" {
		var n int64
		if err := json.Unmarshal(id, &n); err != nil {
			return nil, fmt.Errorf("id must be a string or an integer, got %s", truncate(string(id), 40))
		}
	}
	if len(probe.Method) > 0 {
		if string(bytes.TrimSpace(probe.ID)) == "null" {
			// The SDK would take it for a notification and never answer; MCP
			// forbids a null request id.
			return nil, errors.New(`id must be a string or an integer, not null (a notification has no "id")`)
		}
		var m string
		if err := json.Unmarshal(probe.Method, &m); err != nil || m == "" {
			return nil, errors.New(`"method" must be a non-empty string`)
		}
	} else if len(probe.Result) == 0 && len(probe.Error) == 0 {
		return nil, errors.New(`neither a request ("method") nor a response ("result" or "error")`)
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return nil, err
	}
	return msg, nil
}

// requestID returns the id of a malformed message when it is a usable one (a
// string or a number), else nil (the answer's id is then null).
func requestID(data []byte) json.RawMessage {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(data, &probe) != nil {
		return nil
	}
	id := bytes.TrimSpace(probe.ID)
	if len(id) == 0 {
		return nil
	}
	switch c := id[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return id
	}
	return nil
}

// errorLine encodes an error response; a nil id is written as null.
func errorLine(id json.RawMessage, e *jsonrpc.Error) ([]byte, error) {
	if id == nil {
		id = json.RawMessage("null")
	}
	return json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}{"2.0", id, e})
}

func mustErrorLine(id json.RawMessage, code int64, msg string) []byte {
	b, err := errorLine(id, &jsonrpc.Error{Code: code, Message: msg})
	if err != nil { // id comes from a parsed message, so this cannot happen
		b, _ = errorLine(nil, &jsonrpc.Error{Code: code, Message: msg})
	}
	return b
}

// toWire turns a response's error into its wire form.
func toWire(err error) *jsonrpc.Error {
	var w *jsonrpc.Error
	switch {
	case err == nil:
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: no result"}
	case errors.As(err, &w):
		return &jsonrpc.Error{Code: w.Code, Message: err.Error(), Data: w.Data}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
}

func kindOf(c byte) string {
	switch c {
	case '"':
		return "a string"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
