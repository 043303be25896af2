package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hone-dev/hone/internal/testrepo"
)

func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	args = append([]string{"--cache-dir", t.TempDir()}, args...)
	code := Run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

const fixture = "../../testdata/auth-service"

func TestExitCodes(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"ok", []string{"--repo", fixture, "token expiry"}, ExitOK},
		{"no task", []string{"--repo", fixture}, ExitUsage},
		{"bad flag", []string{"--nope", "x"}, ExitUsage},
		{"two outputs", []string{"--repo", fixture, "--json", "--paths", "x"}, ExitUsage},
		{"bad threshold", []string{"--repo", fixture, "--threshold", "2", "x"}, ExitUsage},
		{"missing repo", []string{"--repo", filepath.Join(t.TempDir(), "nope"), "x"}, ExitNoRepo},
		{"repo is a file", []string{"--repo", file, "x"}, ExitNoRepo},
		{"empty repo", []string{"--repo", t.TempDir(), "x"}, ExitEmptyRepo},
		{"blank task", []string{"--repo", fixture, "   "}, ExitBadTask},
		{"bad evaluator", []string{"--repo", fixture, "--evaluator", "magic", "x"}, ExitUsage},
		{"no network", []string{"--repo", fixture, "--no-network", "--evaluator", "llm", "x"}, ExitUsage},
		{"missing task file", []string{"--repo", fixture, "--task-file", filepath.Join(t.TempDir(), "missing.md")}, ExitUnreadable},
		{"task file is a directory", []string{"--repo", fixture, "--task-file", t.TempDir()}, ExitUnreadable},
		{"index with arguments", []string{"--repo", fixture, "index", "the", "files"}, ExitUsage},
		{"bench with two arguments", []string{"bench", "the", "figures"}, ExitUsage},
		{"bad llm timeout", []string{"--repo", fixture, "--llm-timeout", "soon", "x"}, ExitUsage},
		{"zero llm timeout", []string{"--repo", fixture, "--llm-timeout", "0", "x"}, ExitUsage},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := run(t, "", c.args...)
			if code != c.want {
				t.Errorf("hone %s = exit %d, want %d; stderr: %s", strings.Join(c.args, " "), code, c.want, stderr)
			}
			if code != ExitOK && !strings.HasPrefix(stderr, "hone: ") {
				t.Errorf("hone %s: stderr %q does not start with a clear message", strings.Join(c.args, " "), stderr)
			}
			if strings.Contains(stderr, "goroutine ") {
				t.Errorf("hone %s printed a stack trace", strings.Join(c.args, " "))
			}
		})
	}
}

func TestOutputs(t *testing.T) {
	code, out, stderr := run(t, "", "--repo", fixture, "--json", "Fix the authentication token expiry bug")
	if code != ExitOK {
		t.Fatalf("--json: exit %d: %s", code, stderr)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("--json output is not one JSON object: %v", err)
	}
	if len(m) != 6 {
		t.Errorf("--json keys: got %d, want 6 (task, files, ranked, cycles, stopped, stats)", len(m))
	}
	code, out, _ = run(t, "Fix the authentication token expiry bug", "--repo", fixture, "--paths", "-")
	if code != ExitOK {
		t.Fatalf("--paths -: exit %d", code)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" || strings.Contains(line, " ") || !strings.Contains(line, "/") {
			t.Errorf("--paths printed %q, want one repository path a line", line)
		}
	}
	code, out, _ = run(t, "", "--repo", fixture, "--pack", "--budget", "600", "Fix the authentication token expiry bug")
	if code != ExitOK || !strings.Contains(out, "Fix the authentication token expiry bug") {
		t.Errorf("--pack: exit %d, output lacks the task:\n%s", code, out)
	}
	code, out, _ = run(t, "", "--repo", fixture, "index", "--explain")
	if code != ExitOK || !strings.Contains(out, "files indexed") || !strings.Contains(out, "  history: ") {
		t.Errorf("index --explain: exit %d, output %q", code, out)
	}
}

// TestMessages: errors say what to do.
func TestMessages(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.md")
	cases := []struct {
		name  string
		stdin string
		args  []string
		want  []string // substrings of stderr
	}{
		{"piped task without -", "Fix the token expiry bug", []string{"--repo", fixture, "--paths"},
			[]string{"no task given", "on standard input with - (", "--task-file"}},
		{"missing task file", "", []string{"--repo", fixture, "--task-file", missing},
			[]string{"hone: task file: open " + missing + ": no such file or directory"}},
		{"a task that starts with a command", "", []string{"--repo", fixture, "index", "the", "files"},
			[]string{`for a task that starts with "index", put -- before it (hone -- index the files)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, stderr := run(t, c.stdin, c.args...)
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("hone %s: stderr %q lacks %q", strings.Join(c.args, " "), stderr, w)
				}
			}
		})
	}
}

// TestTaskNamedLikeACommand: after --, a command's name is the task.
func TestTaskNamedLikeACommand(t *testing.T) {
	for _, word := range []string{"index", "bench", "mcp"} {
		t.Run(word, func(t *testing.T) {
			code, out, stderr := run(t, "", "--repo", fixture, "--json", "--", word)
			if code != ExitOK {
				t.Fatalf("hone --json -- %s: exit %d: %s", word, code, stderr)
			}
			var res struct {
				Task string `json:"task"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil || res.Task != word {
				t.Errorf("hone --json -- %s: task %q (%v), want %q", word, res.Task, err, word)
			}
		})
	}
}

// TestIndexExplainEmpty: with no indexable file, index --explain still lists
// every skipped file and why, and exits 5.
func TestIndexExplainEmpty(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"logo.png":            {0x89, 'P', 'N', 'G', 0, 0, 0, 0},
		"dump.txt":            []byte(strings.Repeat("x", 3000)),
		"node_modules/lib.js": []byte("module.exports = 1\n"),
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, stderr := run(t, "", "--repo", dir, "index", "--explain", "--max-file-size", "1000")
	if code != ExitEmptyRepo {
		t.Errorf("index --explain: exit %d, want %d", code, ExitEmptyRepo)
	}
	if !strings.Contains(stderr, "no indexable file") {
		t.Errorf("stderr %q lacks the reason for the exit code", stderr)
	}
	for _, want := range []string{"0 files indexed", "3 skipped", "huge\tdump.txt\t3000 bytes > limit 1000", "binary\tlogo.png\t", "vendored\tnode_modules/\t"} {
		if !strings.Contains(out, want) {
			t.Errorf("index --explain output lacks %q:\n%s", want, out)
		}
	}
}

// TestPackSecrets is the case: a task about loading a private key
// ranks the key and the certificate, and --pack must list them without
// showing them unless --show-secrets.
func TestPackSecrets(t *testing.T) {
	body := "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn" // a fake key's first base64 line
	repo := testrepo.Write(t, map[string]string{
		"id_rsa":     "-----BEGIN RSA " + "PRIVATE KEY-----\n" + body + "\n-----END RSA PRIVATE KEY-----\n",
		"server.pem": "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUYz\n-----END CERTIFICATE-----\n",
		"keys.py": "import ssl\n\n\ndef load_private_key(path):\n    \"\"\"Load the private key (id_rsa) and certificate (server.pem).\"\"\"\n" +
			"    return ssl.load(path, password='hunter2')\n",
		"config.yml": "key_file: id_rsa\ncert_file: server.pem\nkey_password: hunter2\n",
	})
	task := "fix the private key loading in id_rsa and server.pem"
	code, out, stderr := run(t, "", "--repo", repo, "--pack", "--threshold", "0.05", "--budget", "4000", task)
	if code != ExitOK {
		t.Fatalf("--pack: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"## id_rsa (relevance", "_not shown: looks like a private key_", "_not shown: looks like a certificate or key_"} {
		if !strings.Contains(out, want) {
			t.Errorf("--pack lacks %q:\n%s", want, out)
		}
	}
	for _, leak := range []string{body, "MIIBszCCAVmg", "hunter2"} {
		if strings.Contains(out, leak) {
			t.Errorf("--pack shows %q:\n%s", leak, out)
		}
	}
	code, out, stderr = run(t, "", "--repo", repo, "--pack", "--show-secrets", "--threshold", "0.05", "--budget", "4000", task)
	if code != ExitOK {
		t.Fatalf("--pack --show-secrets: exit %d: %s", code, stderr)
	}
	for _, want := range []string{body, "MIIBszCCAVmg", "hunter2"} {
		if !strings.Contains(out, want) {
			t.Errorf("--pack --show-secrets lacks %q:\n%s", want, out)
		}
	}
}

// TestWarningOnce: a cache warning is printed once, on stderr, whichever
// command met it.
func TestWarningOnce(t *testing.T) {
	cache := t.TempDir()
	hone := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		args = append([]string{"--cache-dir", cache, "--repo", fixture, "--no-history"}, args...)
		if code := Run(context.Background(), args, strings.NewReader(""), &out, &errb); code != ExitOK {
			t.Fatalf("hone %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
		if strings.Contains(out.String(), "unusable") {
			t.Errorf("hone %s: a warning on stdout:\n%s", strings.Join(args, " "), out.String())
		}
		return errb.String()
	}
	damage := func() {
		t.Helper()
		files, _ := filepath.Glob(filepath.Join(cache, "index-*.bin"))
		if len(files) != 1 {
			t.Fatalf("cache files %v, want one", files)
		}
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)/2] ^= 0xff
		if err := os.WriteFile(files[0], b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hone("index")
	for _, args := range [][]string{{"index"}, {"--paths", "token expiry"}} {
		damage()
		if stderr := hone(args...); strings.Count(stderr, "unusable") != 1 {
			t.Errorf("hone %s printed the cache warning %d times, want once:\n%s",
				strings.Join(args, " "), strings.Count(stderr, "unusable"), stderr)
		}
	}
}

// TestFlagValues: every numeric flag out of range (NaN, infinite, negative,
// zero where a count or a size is meant) and a listen address that is not
// allowed are usage errors (exit 2) with a message naming the flag; a
// repository path that cannot be a directory (a symbolic-link loop, a path
// through a file) is exit 3, as the README's table says.
func TestFlagValues(t *testing.T) {
	dir := t.TempDir()
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink(filepath.Join(dir, "other"), loop); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(loop, filepath.Join(dir, "other")); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want int
		says string // in the message
	}{
		{[]string{"--threshold", "NaN", "x"}, ExitUsage, "--threshold"},
		{[]string{"--threshold", "+Inf", "x"}, ExitUsage, "--threshold"},
		{[]string{"--threshold", "-Inf", "x"}, ExitUsage, "--threshold"},
		{[]string{"--threshold", "-0.1", "x"}, ExitUsage, "--threshold"},
		{[]string{"--threshold", "1.5", "x"}, ExitUsage, "--threshold"},
		{[]string{"--max-file-size", "-1", "x"}, ExitUsage, "--max-file-size"},
		{[]string{"--max-file-size", "0", "x"}, ExitUsage, "--max-file-size"},
		{[]string{"--budget", "-1", "x"}, ExitUsage, "--budget"},
		{[]string{"--cycles", "0", "x"}, ExitUsage, "--cycles"},
		{[]string{"--min-files", "-3", "x"}, ExitUsage, "--min-files"},
		{[]string{"--candidates", "0", "x"}, ExitUsage, "--candidates"},
		{[]string{"--llm-timeout", "-5s", "x"}, ExitUsage, "llm-timeout"},
		{[]string{"--llm-timeout", "NaN", "x"}, ExitUsage, "llm-timeout"},
		{[]string{"index", "--max-file-size", "-1"}, ExitUsage, "--max-file-size"},
		{[]string{"mcp", "--max-file-size", "-1"}, ExitUsage, "--max-file-size"},
		{[]string{"mcp", "--session-ttl", "-1s"}, ExitUsage, "--session-ttl"},
		{[]string{"mcp", "--session-ttl", "0s"}, ExitUsage, "--session-ttl"},
		{[]string{"mcp", "--http", "0.0.0.0:7777"}, ExitUsage, "--allow-remote"},
		{[]string{"mcp", "--http", "no port"}, ExitUsage, "--http"},
		{[]string{"bench", "--mirror-root", dir, "--max-file-size", "-1", file}, ExitUsage, "--max-file-size"},
		{[]string{"bench", "--mirror-root", dir, "--workers", "0", file}, ExitUsage, "--workers"},
		{[]string{"bench", "--mirror-root", dir, "--judge", "oracle:0.6", file}, ExitUsage, "--judge"},
		{[]string{"bench", "--mirror-root", dir, "--judge", "oracle:-0.1", file}, ExitUsage, "--judge"},
		{[]string{"bench", "--mirror-root", dir, "--judge", "oracle:NaN", file}, ExitUsage, "--judge"},
		{[]string{"bench", "--mirror-root", dir, "--judge", "llm", file}, ExitUsage, "--judge"},
		{[]string{"--repo", loop, "x"}, ExitNoRepo, "not found"},
		{[]string{"--repo", filepath.Join(file, "sub"), "x"}, ExitNoRepo, "not found"},
		{[]string{"index", "--repo", loop}, ExitNoRepo, "not found"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			args := c.args
			if !slices.Contains(args, "--repo") {
				args = append([]string{"--repo", fixture}, args...)
				if args[2] == "index" || args[2] == "mcp" || args[2] == "bench" {
					args = append(append([]string{args[2]}, args[:2]...), args[3:]...)
				}
			}
			code, _, stderr := run(t, "", args...)
			if code != c.want || !strings.HasPrefix(stderr, "hone: ") || !strings.Contains(stderr, c.says) {
				t.Errorf("hone %s = exit %d, stderr %q; want exit %d and a message with %q", strings.Join(args, " "), code, stderr, c.want, c.says)
			}
		})
	}
}

// TestFirstContact: on a tree with no index in the cache, hone answers from
// a first answer's partial index (and says so), while hone index builds the
// whole index.
func TestFirstContact(t *testing.T) {
	// Files no task here matches: they stay unparsed in a first answer.
	dir := testrepo.Padded(t, fixture, 5)
	task := "Fix the authentication token expiry bug"
	code, out, _ := run(t, "", "--repo", dir, "--no-history", "--json", task)
	var res struct {
		Stats struct {
			FilesIndexed int `json:"files_indexed"`
			Unparsed     int `json:"unparsed"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &res); code != ExitOK || err != nil {
		t.Fatalf("hone --json: exit %d, %v", code, err)
	}
	if res.Stats.Unparsed < 5 || res.Stats.Unparsed >= res.Stats.FilesIndexed {
		t.Errorf("first contact: %d of %d files unparsed, want the 5 the task does not match at least", res.Stats.Unparsed, res.Stats.FilesIndexed)
	}
	code, out, _ = run(t, "", "--repo", dir, "--no-history", "--first-answer=false", "--json", task)
	res.Stats.Unparsed = -1
	if err := json.Unmarshal([]byte(out), &res); code != ExitOK || err != nil || res.Stats.Unparsed != -1 {
		t.Errorf("--first-answer=false: exit %d (%v), unparsed %d, want the key absent", code, err, res.Stats.Unparsed)
	}
	code, out, _ = run(t, "", "--repo", dir, "--no-history", "index")
	if code != ExitOK || !strings.Contains(out, fmt.Sprintf("%d files indexed (%d parsed", res.Stats.FilesIndexed, res.Stats.FilesIndexed)) {
		t.Errorf("hone index on a first contact: exit %d, %q; want every file parsed", code, out)
	}
}

// TestPathsNoneSaysWhy: --paths with no file selected prints nothing on
// stdout and says why on stderr (the loop's stop reason, the best ranked
// files), unless -q.
func TestPathsNoneSaysWhy(t *testing.T) {
	code, out, errs := run(t, "", "--repo", fixture, "--paths", "Add support for `.qzx`")
	if code != ExitOK || out != "" {
		t.Fatalf("exit %d, stdout %q: want 0 and nothing", code, out)
	}
	if !strings.Contains(errs, "hone: no file reached 0.70 (cycle 1: the query matched no file (words searched: qzx))") {
		t.Errorf("stderr %q does not say why nothing was printed", errs)
	}
	// Files ranked below the threshold are named.
	code, out, errs = run(t, "", "--repo", fixture, "--paths", "--threshold", "0.99", "Fix the authentication token expiry bug")
	if code != ExitOK || out != "" || !strings.Contains(errs, "hone: no file reached 0.99") || !strings.Contains(errs, "; best ranked: src/") {
		t.Errorf("threshold 0.99: exit %d, stdout %q, stderr %q: want nothing on stdout, the best ranked on stderr", code, out, errs)
	}
	if _, _, errs = run(t, "", "--repo", fixture, "--paths", "-q", "Add support for `.qzx`"); errs != "" {
		t.Errorf("-q: stderr %q, want nothing", errs)
	}
}
