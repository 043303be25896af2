package llm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadConfigPrecedence(t *testing.T) {
	file := writeConfig(t, `{"index": {"whatever": 1},
 "llm": {"provider": "openai", "model": "file-model", "base_url": "http://file:1/v1", "timeout": "45s",
         "top_n": 10, "api_key": "file-key", "prices": {"input": 1, "output": 2}}}`)
	tests := []struct {
		name    string
		env     map[string]string
		overlay Config
		want    Config
	}{
		{"file only", nil, Config{},
			Config{Provider: "openai", Model: "file-model", BaseURL: "http://file:1/v1", APIKey: "file-key", Timeout: 45 * time.Second, TopN: 10}},
		{"env over file", map[string]string{"HONE_LLM_MODEL": "env-model", "HONE_LLM_BASE_URL": "http://env:2/v1", "OPENAI_API_KEY": "oa-key"}, Config{},
			Config{Provider: "openai", Model: "env-model", BaseURL: "http://env:2/v1", APIKey: "oa-key", Timeout: 45 * time.Second, TopN: 10}},
		{"HONE key over provider key", map[string]string{"HONE_LLM_API_KEY": "hone-key", "OPENAI_API_KEY": "oa-key"}, Config{},
			Config{Provider: "openai", Model: "file-model", BaseURL: "http://file:1/v1", APIKey: "hone-key", Timeout: 45 * time.Second, TopN: 10}},
		{"flags over env", map[string]string{"HONE_LLM_MODEL": "env-model", "HONE_LLM_PROVIDER": "openai", "ANTHROPIC_API_KEY": "an-key", "OPENAI_API_KEY": "oa-key"},
			Config{Provider: "anthropic", Model: "flag-model", BaseURL: "https://proxy.example/", TopN: 3},
			Config{Provider: "anthropic", Model: "flag-model", BaseURL: "https://proxy.example", APIKey: "an-key", Timeout: 45 * time.Second, TopN: 3}},
		{"timeout: env over file", map[string]string{"HONE_LLM_TIMEOUT": "90"}, Config{},
			Config{Provider: "openai", Model: "file-model", BaseURL: "http://file:1/v1", APIKey: "file-key", Timeout: 90 * time.Second, TopN: 10}},
		{"timeout: flag over env", map[string]string{"HONE_LLM_TIMEOUT": "1m30s"}, Config{Timeout: 2 * time.Second},
			Config{Provider: "openai", Model: "file-model", BaseURL: "http://file:1/v1", APIKey: "file-key", Timeout: 2 * time.Second, TopN: 10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := loadConfig(file, envOf(tt.env), tt.overlay)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			want.CacheDir = got.CacheDir
			want.Prices = &Price{Input: 1, Output: 2}
			want.SetDefaults()
			if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Config{})); diff != "" {
				t.Errorf("loadConfig (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadConfigDefaults(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantURL string
		wantKey string
	}{
		{"local by default", map[string]string{"HONE_LLM_MODEL": "qwen2.5-coder"}, DefaultLocalURL, ""},
		{"a key means OpenAI", map[string]string{"HONE_LLM_MODEL": "gpt-4o-mini", "OPENAI_API_KEY": "k"}, DefaultOpenAIURL, "k"},
		{"anthropic", map[string]string{"HONE_LLM_PROVIDER": "Anthropic", "HONE_LLM_MODEL": "claude", "ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"}, DefaultAnthropicURL, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.env["HONE_CACHE_DIR"] = "/tmp/hc"
			c, err := loadConfig(filepath.Join(t.TempDir(), "absent.json"), envOf(tt.env), Config{})
			if err != nil {
				t.Fatal(err)
			}
			if c.BaseURL != tt.wantURL || c.APIKey != tt.wantKey {
				t.Errorf("base URL %q key %q, want %q %q", c.BaseURL, c.APIKey, tt.wantURL, tt.wantKey)
			}
			if c.CacheDir != "/tmp/hc/llm" {
				t.Errorf("cache dir %q, want /tmp/hc/llm", c.CacheDir)
			}
			if err := c.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
			if c.TopN != DefaultTopN || c.BatchSize != DefaultBatchSize || c.PerFileTokens != DefaultPerFileTokens {
				t.Errorf("defaults not filled: %+v", c)
			}
		})
	}
}

func TestConfigFileErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"syntax", "{\n  \"llm\": {\n    \"model\": \"x\",\n  }\n}", ":4:3: "},
		{"type", "{\"llm\": {\n\"top_n\": \"ten\"}}", ":2:"},
		{"unknown key", `{"llm": {"modle": "x"}}`, `unknown key "modle"`},
		{"bad timeout", `{"llm": {"timeout": "forever"}}`, `timeout "forever"`},
		{"zero timeout", `{"llm": {"timeout": 0}}`, `want a positive duration`},
		{"bad request timeout", `{"llm": {"request_timeout": "-5s"}}`, `want a positive duration`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeConfig(t, tt.text)
			_, err := loadConfig(p, envOf(nil), Config{})
			if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to name %s and contain %q", err, p, tt.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"ok", Config{Model: "m"}, ""},
		{"no model", Config{}, "no model"},
		{"unknown provider", Config{Provider: "gemini", Model: "m"}, `unknown provider "gemini"`},
		{"bad URL", Config{Model: "m", BaseURL: "localhost:11434"}, "bad base URL"},
		{"bad scheme", Config{Model: "m", BaseURL: "ftp://x/v1"}, "bad base URL"},
		{"anthropic without key", Config{Provider: "anthropic", Model: "m"}, "no API key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.cfg
			c.SetDefaults()
			err := c.Validate()
			if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("Validate() = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestNewRejects(t *testing.T) {
	if _, err := New(Config{}, fakeBase{}, viewOf); err == nil || !strings.Contains(err.Error(), "no model") {
		t.Errorf("New without model: %v", err)
	}
	if _, err := New(Config{Model: "m"}, nil, viewOf); err == nil {
		t.Error("New without base evaluator: no error")
	}
}

func TestLoadConfigBadEnvTimeout(t *testing.T) {
	_, err := loadConfig("", envOf(map[string]string{"HONE_LLM_TIMEOUT": "soon"}), Config{})
	if err == nil || !strings.Contains(err.Error(), "HONE_LLM_TIMEOUT") || !strings.Contains(err.Error(), `"soon"`) {
		t.Errorf("loadConfig with HONE_LLM_TIMEOUT=soon: %v, want an error naming the variable and the value", err)
	}
}

func TestRequestTimeoutDefaults(t *testing.T) {
	tests := []struct {
		name      string
		cfg       Config
		wantTotal time.Duration
		wantReq   time.Duration
	}{
		{"defaults", Config{}, DefaultTimeout, DefaultTimeout},
		{"request within the budget", Config{Timeout: time.Minute, RequestTimeout: 20 * time.Second}, time.Minute, 20 * time.Second},
		{"request capped by the budget", Config{Timeout: 10 * time.Second, RequestTimeout: time.Minute}, 10 * time.Second, 10 * time.Second},
		{"budget only", Config{Timeout: 5 * time.Second}, 5 * time.Second, 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.cfg
			c.SetDefaults()
			if c.Timeout != tt.wantTotal || c.RequestTimeout != tt.wantReq {
				t.Errorf("SetDefaults(%v, %v) = %v, %v; want %v, %v", tt.cfg.Timeout, tt.cfg.RequestTimeout,
					c.Timeout, c.RequestTimeout, tt.wantTotal, tt.wantReq)
			}
		})
	}
}

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration // 0: an error
	}{
		{"45s", 45 * time.Second},
		{"1m30s", 90 * time.Second},
		{"45", 45 * time.Second},
		{" 2.5 ", 2500 * time.Millisecond},
		{"300ms", 300 * time.Millisecond},
		{"0", 0},
		{"-5s", 0},
		{"soon", 0},
		{"NaN", 0},
		{"Inf", 0},
		{"-Inf", 0},
		{"1e12", 0},
		{"", 0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseDuration(tt.in)
			if tt.want == 0 {
				if err == nil {
					t.Errorf("ParseDuration(%q) = %v, want an error", tt.in, got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseDuration(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}
