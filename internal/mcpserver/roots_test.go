package mcpserver

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hone-dev/hone"
)

// openRecorder wraps openFake and records the directories opened.
type openRecorder struct {
	mu     sync.Mutex
	opened []string
}

func (r *openRecorder) open(ctx context.Context, dir string, o hone.Options) (backend, error) {
	r.mu.Lock()
	r.opened = append(r.opened, dir)
	r.mu.Unlock()
	return openFake(ctx, dir, o)
}

func (r *openRecorder) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.opened)
}

// outsideDir returns a directory outside the fixture holding a secret.
func outsideDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret.py"), []byte("TOKEN = 'the secret token'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
}

// fileURI returns the file:// URI of a local path, escaped.
func fileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

// A repo outside every root is a tool error that names the roots, for every
// tool, however it is spelled; nothing outside is opened.
func TestRepoOutsideRoots(t *testing.T) {
	dir := writeFixture(t)
	outside := outsideDir(t)
	symlink(t, outside, filepath.Join(dir, "link"))
	symlink(t, "/etc", filepath.Join(dir, "etc"))
	rel, err := filepath.Rel(dir, outside)
	if err != nil {
		t.Fatal(err)
	}
	rec := &openRecorder{}
	_, cs := newFakeServer(t, dir, func(o *Options) { o.open = rec.open })
	tests := []struct {
		name, repo string
		want       string
	}{
		{"/etc", "/etc", "outside the directories"},
		{"/etc/pam.d", "/etc/pam.d", "outside the directories"},
		{"absolute", outside, "outside the directories"},
		{"up twice", "../..", "outside the directories"},
		{"relative", rel, "outside the directories"},
		{"symlink", "link", "a symbolic link leads to " + outside},
		{"symlink to /etc", "etc/", "a symbolic link leads to"},
		{"file URI", fileURI(outside), "outside the directories"},
		{"missing, outside", "/no/such/place", "outside the directories"},
		{"missing under a symlink", "link/nope", "outside the directories"},
		{"remote file URI", "file://example.com/etc", "another host"},
	}
	for _, tt := range tests {
		for _, tool := range []string{"retrieve_context", "search", "start"} {
			t.Run(tt.name+"/"+tool, func(t *testing.T) {
				args := map[string]any{"task": "token", "repo": tt.repo, "budget_tokens": 2000}
				if tool == "search" {
					args = map[string]any{"keywords": []string{"token"}, "repo": tt.repo}
				}
				res := call(t, cs, tool, args, nil)
				wantToolError(t, res, tt.want)
				if tt.name != "remote file URI" && !strings.Contains(text(res), dir+" (default repository)") {
					t.Errorf("error %q does not name the default repository as a root", text(res))
				}
				if strings.Contains(text(res), "secret token") {
					t.Errorf("error leaks the outside file: %s", text(res))
				}
			})
		}
	}
	if got := rec.list(); len(got) > 0 {
		t.Errorf("opened %v; want nothing opened", got)
	}
}

// A repo inside a root is served: the default repository, its
// subdirectories however named, links that stay inside, and --root.
func TestRepoInsideRoots(t *testing.T) {
	dir := writeFixture(t)
	other := outsideDir(t)
	spaced := filepath.Join(dir, "my dir")
	if err := os.MkdirAll(spaced, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(spaced, "token.py"), []byte("token = 1\n"), 0o644)
	symlink(t, filepath.Join(dir, "web"), filepath.Join(dir, "alias"))
	symlink(t, other, filepath.Join(dir, "to-other"))
	rel, err := filepath.Rel(dir, other)
	if err != nil {
		t.Fatal(err)
	}
	rec := &openRecorder{}
	_, cs := newFakeServer(t, dir, func(o *Options) {
		o.open = rec.open
		o.Roots = []string{other}
	})
	tests := []struct{ repo, want string }{
		{"", dir},
		{"web", filepath.Join(dir, "web")},
		{"./auth/../web/", filepath.Join(dir, "web")},
		{filepath.Join(dir, "web"), filepath.Join(dir, "web")},
		{"alias", filepath.Join(dir, "web")},
		{fileURI(spaced), spaced},
		{"file://localhost" + filepath.ToSlash(spaced), spaced},
		{other, other},
		{rel, other},
		{"to-other", other},
	}
	for _, tt := range tests {
		t.Run(tt.repo, func(t *testing.T) {
			var out SearchOutput
			res := call(t, cs, "search", map[string]any{"keywords": []string{"token"}, "repo": tt.repo}, &out)
			if res.IsError {
				t.Fatalf("repo %q: %s", tt.repo, text(res))
			}
			if got := rec.list(); !slices.Contains(got, tt.want) {
				t.Errorf("repo %q opened %v, want %s", tt.repo, got, tt.want)
			}
		})
	}
	// Inside a root, a missing directory or a file is still told apart.
	wantToolError(t, call(t, cs, "search", map[string]any{"keywords": []string{"x"}, "repo": "nope"}, nil), "repository not found")
	wantToolError(t, call(t, cs, "search", map[string]any{"keywords": []string{"x"}, "repo": "README.md"}, nil), "not a directory")
	wantToolError(t, call(t, cs, "search", map[string]any{"keywords": []string{"x"}, "repo": "README.md/x"}, nil), "not a directory")
}

// Server roots are resolved at start; a bad one is a start-up error.
func TestNewRoots(t *testing.T) {
	dir := writeFixture(t)
	other := outsideDir(t)
	link := filepath.Join(t.TempDir(), "link")
	symlink(t, other, link)
	file := filepath.Join(dir, "README.md")
	for _, tt := range []struct {
		name  string
		opts  Options
		want  error
		words string
	}{
		{"missing root", Options{Repo: dir, Roots: []string{filepath.Join(other, "nope")}}, hone.ErrNoRepo, filepath.Join(other, "nope")},
		{"file root", Options{Repo: dir, Roots: []string{file}}, hone.ErrNotDir, file},
		{"missing default", Options{Repo: filepath.Join(dir, "nope")}, hone.ErrNoRepo, "default repository"},
		{"empty root", Options{Repo: dir, Roots: []string{" "}}, nil, "empty path"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.opts)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) || !strings.Contains(err.Error(), tt.words) {
				t.Errorf("New = %v, want %v mentioning %q", err, tt.want, tt.words)
			}
		})
	}
	s, err := New(Options{Repo: dir, Roots: []string{link, dir + "/", other}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range s.roots {
		got = append(got, r.dir)
	}
	if want := []string{dir, other}; !slices.Equal(got, want) {
		t.Errorf("roots = %v, want %v (links resolved, duplicates dropped)", got, want)
	}
}

// connectClient connects client to s over an in-memory transport, asking
// for a protocol version ("": the latest).
func connectClient(t *testing.T, s *Server, client *mcp.Client, version string) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	if version != "" {
		if got := cs.InitializeResult().ProtocolVersion; got != version {
			t.Fatalf("negotiated protocol %s, want %s", got, version)
		}
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func searchIn(t *testing.T, cs *mcp.ClientSession, repo string) *mcp.CallToolResult {
	t.Helper()
	return call(t, cs, "search", map[string]any{"keywords": []string{"token"}, "repo": repo}, nil)
}

// protocolVersions are the two ways of getting a client's roots: a
// roots/list request (up to 2025-11-25), and an input request in the tool's
// result ("": the SDK's latest, 2026-07-28).
var protocolVersions = []string{"2025-06-18", ""}

func newRootsClient(caps *mcp.ClientCapabilities) *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{Capabilities: caps})
}

// With ClientRoots, the roots the client declares are served too, and a
// change of them is seen.
func TestClientRoots(t *testing.T) {
	for _, version := range protocolVersions {
		t.Run("protocol "+version, func(t *testing.T) {
			dir := writeFixture(t)
			a, b := outsideDir(t), outsideDir(t)
			s, err := New(Options{Repo: dir, open: openFake, ClientRoots: true, Logger: discardLogger()})
			if err != nil {
				t.Fatal(err)
			}
			client := newRootsClient(nil)
			client.AddRoots(&mcp.Root{URI: fileURI(a)}, &mcp.Root{URI: "file:///no/such/root"}, &mcp.Root{URI: "https://example.com/"})
			cs := connectClient(t, s, client, version)

			if res := searchIn(t, cs, a); res.IsError {
				t.Fatalf("client root: %s", text(res))
			}
			res := searchIn(t, cs, b)
			wantToolError(t, res, "outside the directories")
			if !strings.Contains(text(res), a+" (client root)") || !strings.Contains(text(res), "client's roots") {
				t.Errorf("error %q does not list the client's root", text(res))
			}
			if res := searchIn(t, cs, ""); res.IsError {
				t.Errorf("default repository: %s", text(res))
			}

			client.AddRoots(&mcp.Root{URI: fileURI(b)}) // notifies the server
			if res := searchIn(t, cs, b); res.IsError {
				t.Fatalf("root added later: %s", text(res))
			}
			var step Step
			if res := call(t, cs, "start", map[string]any{"task": "token", "repo": b}, &step); res.IsError {
				t.Fatalf("start in a client root: %s", text(res))
			}

			client.RemoveRoots(fileURI(a), fileURI(b))
			wantToolError(t, searchIn(t, cs, a), "outside the directories")
			// A session opened in a root that is gone can be judged no more.
			wantToolError(t, call(t, cs, "judge", map[string]any{"session": step.Session, "evaluations": []any{}}, nil),
				"outside the directories")
			if res := searchIn(t, cs, ""); res.IsError {
				t.Errorf("default repository after the roots went: %s", text(res))
			}
		})
	}
}

// A client that does not promise list_changed notifications is asked each
// time.
func TestClientRootsWithoutListChanged(t *testing.T) {
	for _, version := range protocolVersions {
		t.Run("protocol "+version, func(t *testing.T) {
			dir := writeFixture(t)
			a := outsideDir(t)
			s, err := New(Options{Repo: dir, open: openFake, ClientRoots: true, Logger: discardLogger()})
			if err != nil {
				t.Fatal(err)
			}
			client := newRootsClient(&mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{}})
			cs := connectClient(t, s, client, version)
			wantToolError(t, searchIn(t, cs, a), "outside the directories")
			client.AddRoots(&mcp.Root{URI: fileURI(a)}) // no notification
			if res := searchIn(t, cs, a); res.IsError {
				t.Errorf("root added silently: %s", text(res))
			}
		})
	}
}

// Without ClientRoots (as over HTTP), or from a client that declares no
// roots, only the server's roots are served.
func TestClientRootsIgnored(t *testing.T) {
	dir := writeFixture(t)
	a := outsideDir(t)
	for _, tt := range []struct {
		name        string
		clientRoots bool
		caps        *mcp.ClientCapabilities
		roots       []*mcp.Root
	}{
		{"client roots off", false, nil, []*mcp.Root{{URI: fileURI(a)}}},
		{"roots declared, none listed", true, nil, nil},
		{"no roots capability", true, &mcp.ClientCapabilities{}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(Options{Repo: dir, open: openFake, ClientRoots: tt.clientRoots, Logger: discardLogger()})
			if err != nil {
				t.Fatal(err)
			}
			client := newRootsClient(tt.caps)
			client.AddRoots(tt.roots...)
			cs := connectClient(t, s, client, "")
			res := searchIn(t, cs, a)
			wantToolError(t, res, "outside the directories")
			if strings.Contains(text(res), "client root)") {
				t.Errorf("error %q lists a client root", text(res))
			}
			if res := searchIn(t, cs, ""); res.IsError {
				t.Errorf("default repository: %s", text(res))
			}
		})
	}
}

func TestFileURIPath(t *testing.T) {
	tests := []struct {
		uri, want string // want "": an error
	}{
		{"file:///tmp/x", "/tmp/x"},
		{"file:///tmp/my%20dir", "/tmp/my dir"},
		{"file:///tmp/caf%C3%A9/", "/tmp/café"},
		{"FILE:///tmp/x", "/tmp/x"},
		{"file://localhost/tmp/x", "/tmp/x"},
		{"file:///a/../b", "/b"},
		{"file://host/tmp/x", ""},
		{"file:relative/x", ""},
		{"file://", ""},
		{"https://example.com/x", ""},
		{"file:///tmp/%zz", ""},
	}
	for _, tt := range tests {
		got, err := fileURIPath(tt.uri)
		if tt.want == "" {
			if err == nil {
				t.Errorf("fileURIPath(%q) = %q, want an error", tt.uri, got)
			}
			continue
		}
		if err != nil || got != filepath.FromSlash(tt.want) {
			t.Errorf("fileURIPath(%q) = %q, %v; want %q", tt.uri, got, err, tt.want)
		}
	}
}
