package mcpserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/testrepo"
)

// secretFiles hold a private key, a certificate, a .env file and
// credentials.json next to the code that uses them, as in the issue.
var (
	keyBody     = "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn"
	secretFiles = map[string]string{
		"deploy/id_rsa":     "-----BEGIN RSA " + "PRIVATE KEY-----\n" + keyBody + "\n-----END RSA PRIVATE KEY-----\n",
		"deploy/server.pem": "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUYz\n-----END CERTIFICATE-----\n",
		".env":              "DATABASE_URL=postgres://app:hunter2@db:5432/app\nAPI_KEY=q8Zr2Lx9Vb4Nt7Pw\n",
		"credentials.json":  `{"api_key": "q8Zr2Lx9Vb4Nt7Pw", "database_url": "postgres://app:hunter2@db/app"}` + "\n",
		"app/settings.py": "import os\n\nDATABASE_URL = os.environ['DATABASE_URL']\napi_key = os.environ.get('API_KEY')\n" +
			"FALLBACK_DATABASE_URL = 'postgres://app:hunter2@localhost/app'\n",
		"app/keys.py": "def load_private_key(path):\n    \"\"\"Load deploy/id_rsa and deploy/server.pem.\"\"\"\n    return open(path).read()\n",
	}
	secretLeaks = []string{keyBody, "MIIBszCCAVmg", "hunter2", "q8Zr2Lx9Vb4Nt7Pw"}
)

func newSecretServer(t *testing.T) *Server {
	t.Helper()
	s, err := New(Options{Repo: testrepo.Write(t, secretFiles), Open: hone.Options{CacheDir: t.TempDir()}, Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() }) // its watchers
	return s
}

func TestRetrieveContextHidesSecrets(t *testing.T) {
	cs := connect(t, newSecretServer(t))
	for _, show := range []bool{false, true} {
		var out Result
		res := call(t, cs, "retrieve_context", map[string]any{"task": "fix the private key loading in id_rsa and server.pem",
			"budget_tokens": 4000, "threshold": 0.05, "show_secrets": show}, &out)
		if res.IsError {
			t.Fatal(text(res))
		}
		if !strings.Contains(out.Pack, "## deploy/id_rsa (relevance") {
			t.Fatalf("show_secrets %v: pack does not list deploy/id_rsa:\n%s", show, out.Pack)
		}
		for _, leak := range secretLeaks[:2] {
			if got := strings.Contains(out.Pack, leak); got != show {
				t.Errorf("show_secrets %v: pack shows %q: %v:\n%s", show, leak, got, out.Pack)
			}
		}
		if hidden := strings.Contains(out.Pack, "_not shown: looks like a private key_"); hidden == show {
			t.Errorf("show_secrets %v: pack says the key is not shown: %v", show, hidden)
		}
	}
}

func TestStartExcerptsHideSecrets(t *testing.T) {
	cs := connect(t, newSecretServer(t))
	for _, show := range []bool{false, true} {
		var step Step
		res := call(t, cs, "start", map[string]any{"task": "the api_key and DATABASE_URL settings of .env and credentials.json are read from the wrong place",
			"max_candidates": 40, "show_secrets": show}, &step)
		if res.IsError {
			t.Fatal(text(res))
		}
		excerpts := map[string]string{}
		var all strings.Builder
		for _, c := range step.Candidates {
			excerpts[c.Path] = c.Excerpt
			all.WriteString(c.Excerpt + "\n")
		}
		for _, p := range []string{".env", "credentials.json"} {
			ex, ok := excerpts[p]
			if !ok {
				t.Fatalf("show_secrets %v: %s is not a candidate: %v", show, p, excerpts)
			}
			if hidden := strings.Contains(ex, "not shown: looks like"); hidden == show {
				t.Errorf("show_secrets %v: %s excerpt = %q", show, p, ex)
			}
		}
		for _, leak := range secretLeaks[2:] {
			if got := strings.Contains(all.String(), leak); got != show {
				t.Errorf("show_secrets %v: excerpts show %q: %v:\n%s", show, leak, got, all.String())
			}
		}
	}
}

// TestLearnedTermsHideSecrets: with a threshold no file reaches, REFINE
// learns from the best files, secret ones among them; neither the terms it
// learns (refinement, trace) nor anything else in retrieve_context's or
// judge's answer may carry a credential.
func TestLearnedTermsHideSecrets(t *testing.T) {
	files := map[string]string{
		"config/credentials.json":                   `{"installed": {"client_secret": "zvkqwm73hrtp", "client_id": "app"}}` + "\n",
		"src/main/resources/application.properties": "spring.datasource.url=jdbc:postgresql://db/app\nspring.datasource.password=pxfrnd48kwlb\n",
		"config/database.yml":                       "production:\n  adapter: postgresql\n  password: mtbcgh29dswq\n",
	}
	for i := 0; i < 12; i++ { // enough files that a planted value is a rare, distinctive term
		files[fmt.Sprintf("app/module%d.py", i)] = fmt.Sprintf("def handler_%d(request):\n    return render(request, 'page%d.html')\n", i, i)
	}
	leaks := []string{"zvkqwm73hrtp", "pxfrnd48kwlb", "mtbcgh29dswq"}
	s, err := New(Options{Repo: testrepo.Write(t, files), Open: hone.Options{CacheDir: t.TempDir()}, Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	cs := connect(t, s)
	task := "fix the database password in application.properties, database.yml and credentials.json"
	res := call(t, cs, "retrieve_context", map[string]any{"task": task, "budget_tokens": 2000, "threshold": 0.99, "max_cycles": 3}, nil)
	if res.IsError {
		t.Fatal(text(res))
	}
	all := strings.ToLower(text(res))
	if !strings.Contains(all, "added_keywords") {
		t.Fatalf("no cycle refined: the test checks nothing:\n%s", all)
	}
	var step Step
	res = call(t, cs, "start", map[string]any{"task": task, "max_candidates": 40}, &step)
	if res.IsError {
		t.Fatal(text(res))
	}
	var js []map[string]any
	for _, c := range step.Candidates {
		js = append(js, map[string]any{"path": c.Path, "relevance": 0.6, "reason": "reads settings"})
	}
	res = call(t, cs, "judge", map[string]any{"session": step.Session, "evaluations": js}, nil)
	if res.IsError {
		t.Fatal(text(res))
	}
	all += strings.ToLower(text(res))
	for _, leak := range leaks {
		if i := strings.Index(all, leak); i >= 0 {
			t.Errorf("%q left the server: …%s…", leak, all[max(0, i-160):min(len(all), i+40)])
		}
	}
}
