package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hone-dev/hone/internal/testrepo"
)

// carrier is a way a credential sits in a repository: the file, and its text
// around the value v.
type carrier struct {
	path string
	text func(v string) string
}

// carriers hold credentials in the forms the issue met (a secret file, a
// property, a YAML or TOML value, a URL password, a quoted literal in code,
// a certificate) and some more.
var carriers = []carrier{
	{"config/credentials.json", func(v string) string {
		return `{"installed": {"client_id": "app", "client_secret": "` + v + `", "redirect": "urn:ietf"}}` + "\n"
	}},
	{"src/main/resources/application.properties", func(v string) string {
		return "spring.datasource.url=jdbc:postgresql://db/app\nspring.datasource.password=" + v + "\n"
	}},
	{"config/database.yml", func(v string) string {
		return "production:\n  adapter: postgresql\n  username: app\n  password: " + v + "\n"
	}},
	{"config.toml", func(v string) string { return "[database]\nuser = \"app\"\npassword = \"" + v + "\"\n" }},
	{"docker-compose.yml", func(v string) string {
		return "services:\n  web:\n    environment:\n      DATABASE_URL: postgres://app:" + v + "@db:5432/app\n"
	}},
	{"app/settings.py", func(v string) string {
		return "import os\n\nDEBUG = False\nSECRET_KEY = '" + v + "'\nDATABASE_PASSWORD = os.environ.get('DB_PASSWORD')\n"
	}},
	{"src/config/keys.ts", func(v string) string {
		return "export const config = {\n  apiKey: \"" + v + "\",\n  region: \"eu\",\n};\n"
	}},
	{"deploy/.env.production", func(v string) string { return "STRIPE_SECRET=" + v + "\nPORT=8080\n" }},
	{"certs/server.pem", func(v string) string {
		return "-----BEGIN CERTIFICATE-----\nMIIB" + v + "\n-----END CERTIFICATE-----\n"
	}},
}

// secretValue is a random credential: letters, two digits, letters, so that
// the tokenizer keeps it a term (and its first letters one).
func secretValue(r *rand.Rand) string {
	const letters = "bcdfghjkmnpqrstvwxz"
	var b strings.Builder
	for i := 0; i < 12; i++ {
		if i == 6 || i == 7 {
			b.WriteByte(byte('2' + r.IntN(8)))
			continue
		}
		b.WriteByte(letters[r.IntN(len(letters))])
	}
	return b.String()
}

// recordingEndpoint is an OpenAI-compatible endpoint that keeps every request
// body and judges every file it is shown 0.9, naming planted terms as
// keywords, so that the loop learns from every file and runs its cycles.
func recordingEndpoint(t *testing.T) (*httptest.Server, func() string) {
	t.Helper()
	var mu sync.Mutex
	var bodies strings.Builder
	pathRE := regexp.MustCompile(`[A-Za-z0-9_./-]+\.(?:json|properties|yml|toml|py|ts|pem|production|go|md)`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies.Write(b)
		bodies.WriteByte('\n')
		mu.Unlock()
		var evs []map[string]any
		seen := map[string]bool{}
		for _, p := range pathRE.FindAllString(string(b), -1) {
			if !seen[p] {
				seen[p] = true
				evs = append(evs, map[string]any{"path": p, "relevance": 0.9, "reason": "reads the settings",
					"missing_context": []string{"caller of load_settings"}, "critical": false})
			}
		}
		chatReply(w, evs, []string{"settings"})
	}))
	t.Cleanup(srv.Close)
	return srv, func() string { mu.Lock(); defer mu.Unlock(); return bodies.String() }
}

// chatReply answers an OpenAI chat completion whose content is the
// evaluator's JSON: evs and keywords.
func chatReply(w http.ResponseWriter, evs []map[string]any, keywords []string) {
	content, _ := json.Marshal(map[string]any{"evaluations": evs, "keywords": keywords})
	json.NewEncoder(w).Encode(map[string]any{
		"choices": []any{map[string]any{"message": map[string]any{"content": string(content)}}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 10},
	})
}

// TestSecretsNeverLeave plants random credentials in random carriers and runs
// every output path (text with -v logs, --json, --pack, --paths, and the LLM
// evaluator's requests) on tasks that name the carrier: no value, whole or its
// first letters, may leave the process. Before the index scrubbed credentials,
// REFINE learned them as terms (issue: "hunter2" in one answer four times).
func TestSecretsNeverLeave(t *testing.T) {
	llmEnv(t)
	srv, bodies := recordingEndpoint(t)
	r := rand.New(rand.NewPCG(32, 1))
	for trial := 0; trial < 4; trial++ {
		files := map[string]string{
			"app/loader.py": "def load_settings(path):\n    \"\"\"Read the settings, the database password and the secret key.\"\"\"\n    return parse(path)\n",
			"README.md":     "Settings live in the config directory.\n",
		}
		var values, names []string
		for _, i := range r.Perm(len(carriers))[:3] {
			c := carriers[i]
			v := secretValue(r)
			files[c.path] = c.text(v)
			values = append(values, v)
			names = append(names, c.path)
		}
		repo := testrepo.Write(t, files)
		task := fmt.Sprintf("Fix how the password and secret are loaded from %s", strings.Join(names, ", "))
		runs := [][]string{
			{"-v", "--threshold", "0.99", task}, // nothing suffices: REFINE learns from the best files
			{"--json", "--threshold", "0.99", task},
			{"--json", "--threshold", "0.05", task},
			{"--pack", "--threshold", "0.05", "--budget", "4000", task},
			{"--paths", task},
			{"--json", "-v", "--evaluator", "llm", "--llm-provider", "openai", "--llm-base-url", srv.URL + "/v1",
				"--llm-model", "m", "--threshold", "0.95", task},
		}
		for _, args := range runs {
			code, out, stderr := run(t, "", append([]string{"--repo", repo}, args...)...)
			if code != ExitOK {
				t.Fatalf("hone %v: exit %d: %s", args, code, stderr)
			}
			all := strings.ToLower(out + "\n" + stderr + "\n" + bodies())
			for _, v := range values {
				for _, leak := range []string{v, v[:6]} {
					if strings.Contains(all, leak) {
						i := strings.Index(all, leak)
						t.Errorf("trial %d, hone %v: %q of a planted credential left the process: …%s…", trial, args[:len(args)-1], leak, all[max(0, i-120):min(len(all), i+60)])
					}
				}
			}
		}
	}
	if !strings.Contains(bodies(), "loader.py") {
		t.Fatalf("the LLM endpoint saw no request naming the files: the test checks nothing there")
	}
}
