package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Providers.
const (
	// ProviderOpenAI is any OpenAI-compatible chat completions endpoint:
	// OpenAI, Ollama, vLLM, llama.cpp's server, LM Studio. The request goes to
	// BaseURL + "/chat/completions".
	ProviderOpenAI = "openai"
	// ProviderAnthropic is Anthropic's Messages API. The request goes to
	// BaseURL + "/v1/messages".
	ProviderAnthropic = "anthropic"
)

// Default endpoints and budgets.
const (
	// DefaultLocalURL is Ollama's OpenAI-compatible endpoint: with no key and
	// no base URL, hone talks to a model on this machine.
	DefaultLocalURL = "http://localhost:11434/v1"
	// DefaultOpenAIURL is used for provider openai when a key is set but no
	// base URL: a key means a hosted service.
	DefaultOpenAIURL = "https://api.openai.com/v1"
	// DefaultAnthropicURL is Anthropic's API root.
	DefaultAnthropicURL = "https://api.anthropic.com"
	// AnthropicVersion is sent as the anthropic-version header.
	AnthropicVersion = "2023-06-01"

	// DefaultTimeout is the model's time for one whole retrieval, every
	// cycle, batch and retry included: a batch of 5 views is ~3k tokens in,
	// ~600 out, so a responsive endpoint needs seconds, and a stalled one is
	// given up on within a minute.
	DefaultTimeout       = 60 * time.Second
	DefaultMaxRetries    = 3
	DefaultConcurrency   = 4
	DefaultTopN          = 15
	DefaultBatchSize     = 5
	DefaultPerFileTokens = 400
	DefaultMaxTokens     = 2048 // reply budget; a batch's JSON is far smaller
)

// Price is a model's price in US dollars per million tokens.
type Price struct {
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
}

// Config configures the LLM evaluator. The zero value of a field means its
// default (see SetDefaults); LoadConfig merges the config file, the
// environment and an overlay (the CLI's flags), in that order of precedence.
type Config struct {
	// Provider is ProviderOpenAI (the default) or ProviderAnthropic.
	Provider string `json:"provider,omitempty"`
	// BaseURL is the API root. Defaults: openai without a key
	// DefaultLocalURL (Ollama), openai with a key DefaultOpenAIURL, anthropic
	// DefaultAnthropicURL.
	BaseURL string `json:"base_url,omitempty"`
	// Model names the model; required.
	Model string `json:"model,omitempty"`
	// APIKey is sent as "Authorization: Bearer" (openai) or "x-api-key"
	// (anthropic). It may be empty for a local server.
	APIKey string `json:"-"`
	// Timeout bounds the model's time in one retrieval, across all its
	// cycles, batches and retries (default 60s; --llm-timeout,
	// HONE_LLM_TIMEOUT, "timeout" in the config file). It starts at the
	// Evaluator's first Evaluate; once it has run out, the files not judged
	// keep the local evaluation and their reasons say so.
	Timeout time.Duration `json:"timeout,omitempty"`
	// RequestTimeout bounds one HTTP request (default: Timeout), so that a
	// stalled request can be retried within Timeout.
	RequestTimeout time.Duration `json:"request_timeout,omitempty"`
	// MaxRetries bounds the retries of one request on 429, 5xx and transport
	// errors (default 3; negative means none).
	MaxRetries int `json:"max_retries,omitempty"`
	// Concurrency bounds the requests in flight (default 4).
	Concurrency int `json:"concurrency,omitempty"`
	// TopN is the number of candidates judged by the model per cycle, the
	// best by the local evaluator's relevance (default 15).
	TopN int `json:"top_n,omitempty"`
	// BatchSize is the number of files per request (default 5).
	BatchSize int `json:"batch_size,omitempty"`
	// PerFileTokens is the budget of each file's view (default 400).
	PerFileTokens int `json:"per_file_tokens,omitempty"`
	// MaxTokens bounds the reply. Zero sends DefaultMaxTokens to anthropic
	// (which requires it) and nothing to openai (servers differ on the name).
	MaxTokens int `json:"max_tokens,omitempty"`
	// CacheDir holds cached judgments; "" means $HONE_CACHE_DIR/llm, else
	// the user cache directory's hone/llm. NoCache turns the cache off.
	CacheDir string `json:"cache_dir,omitempty"`
	NoCache  bool   `json:"no_cache,omitempty"`
	// NoEnough: the model is never asked whether the files it judged
	// relevant are enough (Evaluator.Enough); the loop's own rules alone
	// end the retrieval, at the cost of more pages judged.
	NoEnough bool `json:"no_enough,omitempty"`
	// Prices, when set, turn token counts into Usage.CostUSD.
	Prices *Price `json:"prices,omitempty"`
}

// SetDefaults fills zero fields with the defaults.
func (c *Config) SetDefaults() {
	if c.Provider == "" {
		c.Provider = ProviderOpenAI
	}
	c.Provider = strings.ToLower(strings.TrimSpace(c.Provider))
	if c.BaseURL == "" {
		switch {
		case c.Provider == ProviderAnthropic:
			c.BaseURL = DefaultAnthropicURL
		case c.APIKey != "":
			c.BaseURL = DefaultOpenAIURL
		default:
			c.BaseURL = DefaultLocalURL
		}
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.RequestTimeout <= 0 || c.RequestTimeout > c.Timeout {
		c.RequestTimeout = c.Timeout
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = DefaultMaxRetries
	}
	if c.MaxRetries < 0 {
		c.MaxRetries = 0
	}
	if c.Concurrency <= 0 {
		c.Concurrency = DefaultConcurrency
	}
	if c.TopN <= 0 {
		c.TopN = DefaultTopN
	}
	if c.BatchSize <= 0 {
		c.BatchSize = DefaultBatchSize
	}
	if c.PerFileTokens <= 0 {
		c.PerFileTokens = DefaultPerFileTokens
	}
}

// Validate reports the first problem of a config that SetDefaults has filled.
func (c Config) Validate() error {
	switch c.Provider {
	case ProviderOpenAI, ProviderAnthropic:
	default:
		return fmt.Errorf("llm: unknown provider %q (want %q or %q)", c.Provider, ProviderOpenAI, ProviderAnthropic)
	}
	if strings.TrimSpace(c.Model) == "" {
		return errors.New("llm: no model: set --llm-model, HONE_LLM_MODEL or \"model\" in the config file")
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("llm: bad base URL %q: want http(s)://host[:port][/path]", c.BaseURL)
	}
	if c.Provider == ProviderAnthropic && c.APIKey == "" {
		return errors.New("llm: no API key for anthropic: set HONE_LLM_API_KEY or ANTHROPIC_API_KEY")
	}
	if c.Prices != nil && (c.Prices.Input < 0 || c.Prices.Output < 0) {
		return errors.New("llm: negative price")
	}
	return nil
}

// ConfigPath returns the config file's path: $HONE_CONFIG, else
// <user config dir>/hone/config.json. It returns "" when neither is known.
func ConfigPath() string {
	if p := os.Getenv("HONE_CONFIG"); p != "" {
		return p
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "hone", "config.json")
}

// LoadConfig merges, from lowest to highest precedence, the config file (see
// ConfigPath; a missing file is fine, a malformed one is an error naming the
// file, line and column), the environment (HONE_LLM_PROVIDER,
// HONE_LLM_BASE_URL, HONE_LLM_MODEL, HONE_LLM_TIMEOUT; the key from
// HONE_LLM_API_KEY, else OPENAI_API_KEY or ANTHROPIC_API_KEY by provider)
// and overlay's non-zero fields; then it fills the defaults. It does not
// Validate. A malformed HONE_LLM_TIMEOUT is an error.
//
// The file holds an "llm" object whose keys are Config's JSON names, with
// "api_key" allowed too and timeout and request_timeout as durations ("45s")
// or seconds (see ParseDuration):
//
//	{"llm": {"provider": "anthropic", "model": "claude-haiku-4-5", "top_n": 10,
//	         "prices": {"input": 1, "output": 5}}}
func LoadConfig(overlay Config) (Config, error) {
	return loadConfig(ConfigPath(), os.Getenv, overlay)
}

func loadConfig(path string, getenv func(string) string, overlay Config) (Config, error) {
	var c Config
	if path != "" {
		data, err := os.ReadFile(path)
		switch {
		case err == nil:
			if c, err = parseConfigFile(path, data); err != nil {
				return Config{}, err
			}
		case errors.Is(err, os.ErrNotExist):
		default:
			return Config{}, fmt.Errorf("llm: config %s: %w", path, err)
		}
	}
	fileKey := c.APIKey
	c.APIKey = ""
	if v := getenv("HONE_LLM_PROVIDER"); v != "" {
		c.Provider = v
	}
	if v := getenv("HONE_LLM_BASE_URL"); v != "" {
		c.BaseURL = v
	}
	if v := getenv("HONE_LLM_MODEL"); v != "" {
		c.Model = v
	}
	if v := getenv("HONE_LLM_TIMEOUT"); v != "" {
		d, err := ParseDuration(v)
		if err != nil {
			return Config{}, fmt.Errorf("llm: HONE_LLM_TIMEOUT: %w", err)
		}
		c.Timeout = d
	}
	merge(&c, overlay)
	provider := strings.ToLower(strings.TrimSpace(c.Provider))
	// The key: flag overlay, then HONE_LLM_API_KEY, then the provider's own
	// variable, then the file.
	switch {
	case overlay.APIKey != "":
		c.APIKey = overlay.APIKey
	case getenv("HONE_LLM_API_KEY") != "":
		c.APIKey = getenv("HONE_LLM_API_KEY")
	case provider == ProviderAnthropic && getenv("ANTHROPIC_API_KEY") != "":
		c.APIKey = getenv("ANTHROPIC_API_KEY")
	case (provider == "" || provider == ProviderOpenAI) && getenv("OPENAI_API_KEY") != "":
		c.APIKey = getenv("OPENAI_API_KEY")
	default:
		c.APIKey = fileKey
	}
	if c.CacheDir == "" && !c.NoCache {
		c.CacheDir = defaultCacheDir(getenv)
	}
	c.SetDefaults()
	return c, nil
}

func defaultCacheDir(getenv func(string) string) string {
	if d := getenv("HONE_CACHE_DIR"); d != "" {
		return filepath.Join(d, "llm")
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "hone", "llm")
}

// merge copies o's non-zero fields into c.
func merge(c *Config, o Config) {
	if o.Provider != "" {
		c.Provider = o.Provider
	}
	if o.BaseURL != "" {
		c.BaseURL = o.BaseURL
	}
	if o.Model != "" {
		c.Model = o.Model
	}
	if o.Timeout != 0 {
		c.Timeout = o.Timeout
	}
	if o.RequestTimeout != 0 {
		c.RequestTimeout = o.RequestTimeout
	}
	if o.MaxRetries != 0 {
		c.MaxRetries = o.MaxRetries
	}
	if o.Concurrency != 0 {
		c.Concurrency = o.Concurrency
	}
	if o.TopN != 0 {
		c.TopN = o.TopN
	}
	if o.BatchSize != 0 {
		c.BatchSize = o.BatchSize
	}
	if o.PerFileTokens != 0 {
		c.PerFileTokens = o.PerFileTokens
	}
	if o.MaxTokens != 0 {
		c.MaxTokens = o.MaxTokens
	}
	if o.CacheDir != "" {
		c.CacheDir = o.CacheDir
	}
	if o.NoCache {
		c.NoCache = true
	}
	if o.NoEnough {
		c.NoEnough = true
	}
	if o.Prices != nil {
		p := *o.Prices
		c.Prices = &p
	}
}

// fileConfig is the config file's llm section.
type fileConfig struct {
	Provider       string       `json:"provider"`
	BaseURL        string       `json:"base_url"`
	Model          string       `json:"model"`
	APIKey         string       `json:"api_key"`
	Timeout        fileDuration `json:"timeout"`
	RequestTimeout fileDuration `json:"request_timeout"`
	MaxRetries     int          `json:"max_retries"`
	Concurrency    int          `json:"concurrency"`
	TopN           int          `json:"top_n"`
	BatchSize      int          `json:"batch_size"`
	PerFileTokens  int          `json:"per_file_tokens"`
	MaxTokens      int          `json:"max_tokens"`
	CacheDir       string       `json:"cache_dir"`
	NoCache        bool         `json:"no_cache"`
	NoEnough       bool         `json:"no_enough"`
	Prices         *Price       `json:"prices"`
}

// ParseDuration reads a duration as Go writes it ("45s", "1m30s") or as a
// plain number of seconds ("45", "2.5"). It must be positive: a budget of
// nothing is a mistake, not a way to turn the model off (--evaluator local
// is).
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	d, err := time.ParseDuration(s)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != f || f > maxSeconds { // NaN, +Inf
			return 0, fmt.Errorf("%q: want a duration such as \"45s\" or a number of seconds", s)
		}
		d = time.Duration(max(f, -1) * float64(time.Second)) // -Inf has no Duration
	}
	if d <= 0 {
		return 0, fmt.Errorf("%q: want a positive duration such as \"45s\"", s)
	}
	return d, nil
}

// maxSeconds bounds a duration given in seconds (a year; more overflows nothing
// but means a typo).
const maxSeconds = 365 * 24 * 3600

// fileDuration reads "45s" or a number of seconds.
type fileDuration time.Duration

func (d *fileDuration) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	v, err := ParseDuration(s)
	if err != nil {
		return fmt.Errorf("timeout %w", err)
	}
	*d = fileDuration(v)
	return nil
}

// parseConfigFile reads the llm section of a config file. Other top-level
// keys are left to their owners; unknown keys inside "llm" are errors.
func parseConfigFile(path string, data []byte) (Config, error) {
	var f struct {
		LLM *fileConfig `json:"llm"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return Config{}, configError(path, data, err)
	}
	var keys struct {
		LLM map[string]json.RawMessage `json:"llm"`
	}
	_ = json.Unmarshal(data, &keys) // already known to be valid JSON
	known := map[string]bool{}
	for _, k := range []string{"provider", "base_url", "model", "api_key", "timeout", "request_timeout", "max_retries", "concurrency",
		"top_n", "batch_size", "per_file_tokens", "max_tokens", "cache_dir", "no_cache", "no_enough", "prices"} {
		known[k] = true
	}
	var unknown []string
	for k := range keys.LLM {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return Config{}, fmt.Errorf("llm: config %s: unknown key %q in \"llm\"", path, unknown[0])
	}
	if f.LLM == nil {
		return Config{}, nil
	}
	l := f.LLM
	return Config{Provider: l.Provider, BaseURL: l.BaseURL, Model: l.Model, APIKey: l.APIKey,
		Timeout: time.Duration(l.Timeout), RequestTimeout: time.Duration(l.RequestTimeout), MaxRetries: l.MaxRetries, Concurrency: l.Concurrency, TopN: l.TopN,
		BatchSize: l.BatchSize, PerFileTokens: l.PerFileTokens, MaxTokens: l.MaxTokens, CacheDir: l.CacheDir,
		NoCache: l.NoCache, NoEnough: l.NoEnough, Prices: l.Prices}, nil
}

// configError names the file, line and column of a JSON error.
func configError(path string, data []byte, err error) error {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return fmt.Errorf("llm: config %s: %w", path, err)
	}
	// Offsets count the bytes read, the offending one included.
	off = min(max(off-1, 0), int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return fmt.Errorf("llm: config %s:%d:%d: %w", path, line, col, err)
}
