package mcpserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// buildHone builds the real hone binary, or skips the test.
func buildHone(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the hone binary; skipped with -short")
	}
	root := moduleRoot(t)
	if _, err := os.Stat(filepath.Join(root, "cmd", "hone")); err != nil {
		t.Skip("cmd/hone does not exist yet; nothing to build")
	}
	bin := filepath.Join(t.TempDir(), "hone")
	build := exec.Command("go", "build", "-o", bin, "./cmd/hone")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/hone: %v\n%s", err, out)
	}
	return bin
}

// mcpProcess is `hone mcp` spoken to over its stdin and stdout, as an MCP
// client does.
type mcpProcess struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr strings.Builder
}

func startMCP(t *testing.T, bin string, env []string, args ...string) *mcpProcess {
	t.Helper()
	p := &mcpProcess{t: t, cmd: exec.Command(bin, append([]string{"mcp"}, args...)...), lines: make(chan string)}
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stderr = &p.stderr
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill() })
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	return p
}

func (p *mcpProcess) send(msg string) {
	p.t.Helper()
	if _, err := fmt.Fprintln(p.stdin, msg); err != nil {
		p.t.Fatalf("write %s: %v", msg, err)
	}
}

// recv reads the response to id; every line on stdout must be JSON-RPC.
func (p *mcpProcess) recv(id int) map[string]any {
	p.t.Helper()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("hone mcp closed stdout; stderr:\n%s", p.stderr.String())
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil || m["jsonrpc"] != "2.0" {
				p.t.Fatalf("stdout carries a non-JSON-RPC line: %q", line)
			}
			if got, ok := m["id"].(float64); ok && int(got) == id {
				if m["error"] != nil {
					p.t.Fatalf("response %d is an error: %v", id, m["error"])
				}
				return m["result"].(map[string]any)
			}
		case <-time.After(30 * time.Second):
			p.t.Fatalf("no response %d; stderr:\n%s", id, p.stderr.String())
		}
	}
}

// initialize opens the MCP session.
func (p *mcpProcess) initialize() map[string]any {
	p.t.Helper()
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`)
	res := p.recv(1)
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return res
}

// call calls tool with args (a JSON object) as request id.
func (p *mcpProcess) call(id int, tool, args string) map[string]any {
	p.t.Helper()
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args))
	return p.recv(id)
}

// close closes stdin and checks that the server exits cleanly.
func (p *mcpProcess) close() {
	p.t.Helper()
	p.stdin.Close() // EOF: the server exits
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			p.t.Errorf("hone mcp exited with %v; stderr:\n%s", err, p.stderr.String())
		}
	case <-time.After(10 * time.Second):
		p.t.Errorf("hone mcp did not exit after stdin closed")
	}
}

// TestBinaryStdio builds the real hone binary and speaks JSON-RPC to
// `hone mcp --repo FIXTURE` over its stdin and stdout, as an MCP client does.
func TestBinaryStdio(t *testing.T) {
	bin := buildHone(t)
	fixture := writeFixture(t)
	p := startMCP(t, bin, []string{"HONE_CACHE_DIR=" + t.TempDir()}, "--repo", fixture)

	if info := p.initialize()["serverInfo"].(map[string]any); info["name"] != "hone" {
		t.Errorf("serverInfo = %v", info)
	}
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var names []string
	for _, tool := range p.recv(2)["tools"].([]any) {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	if strings.Join(names, ",") != "judge,retrieve_context,search,start" {
		t.Errorf("tools = %v", names)
	}
	res := p.call(3, "retrieve_context", `{"task":"Fix the token expiry bug in TokenManager"}`)
	if res["isError"] == true {
		t.Fatalf("retrieve_context failed: %v", res["content"])
	}
	sc := res["structuredContent"].(map[string]any)
	files := sc["files"].([]any)
	if len(files) == 0 || files[0].(map[string]any)["path"] != "auth/tokens.py" {
		t.Errorf("files = %v, want auth/tokens.py first", files)
	}
	if res := p.call(4, "retrieve_context", `{"task":"  "}`); res["isError"] != true {
		t.Errorf("empty task: want a tool error, got %v", res)
	}
	p.close()
}

// TestBinaryCacheCut is the reproducer through the real binary:
// warm the cache, start `hone mcp`, call start, cut the index cache to
// nothing, call judge. With the cache mapped, the server died of SIGBUS in
// judge; now the session goes on and the cache is written again.
func TestBinaryCacheCut(t *testing.T) {
	bin := buildHone(t)
	fixture := writeFixture(t)
	cache := t.TempDir()
	env := []string{"HONE_CACHE_DIR=" + cache}
	warm := exec.Command(bin, "index", "--repo", fixture, "--no-history")
	warm.Env = append(os.Environ(), env...)
	if out, err := warm.CombinedOutput(); err != nil {
		t.Fatalf("hone index: %v\n%s", err, out)
	}
	p := startMCP(t, bin, env, "--repo", fixture, "--no-history")
	p.initialize()

	const task = `{"task":"Fix the token expiry bug in TokenManager"}`
	res := p.call(2, "start", task)
	if res["isError"] == true {
		t.Fatalf("start failed: %v", res["content"])
	}
	step := res["structuredContent"].(map[string]any)
	var evals []string
	for _, c := range step["candidates"].([]any) {
		path := c.(map[string]any)["path"].(string)
		rel := 0.1
		if strings.Contains(path, "token") {
			rel = 0.9
		}
		evals = append(evals, fmt.Sprintf(`{"path":%q,"relevance":%g,"reason":"judged"}`, path, rel))
	}
	if len(evals) == 0 {
		t.Fatalf("start proposed no candidate: %v", step)
	}

	files, _ := filepath.Glob(filepath.Join(cache, "index-*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	if err := os.Truncate(files[0], 0); err != nil {
		t.Fatal(err)
	}

	res = p.call(3, "judge", fmt.Sprintf(`{"session":%q,"evaluations":[%s]}`, step["session"], strings.Join(evals, ",")))
	if res["isError"] == true {
		t.Fatalf("judge after the cut failed: %v", res["content"])
	}
	if step := res["structuredContent"].(map[string]any); step["session"] == "" {
		t.Errorf("judge after the cut: %v", step)
	}
	res = p.call(4, "retrieve_context", task)
	if res["isError"] == true {
		t.Fatalf("retrieve_context after the cut failed: %v", res["content"])
	}
	got := res["structuredContent"].(map[string]any)["files"].([]any)
	if len(got) == 0 || got[0].(map[string]any)["path"] != "auth/tokens.py" {
		t.Errorf("retrieve_context after the cut: files = %v, want auth/tokens.py first", got)
	}
	if fi, err := os.Stat(files[0]); err != nil || fi.Size() == 0 {
		t.Errorf("the cut cache was not written again: %v", err)
	}
	p.close()
	if !strings.Contains(p.stderr.String(), "written again") {
		t.Errorf("no warning that the cache was written again; stderr:\n%s", p.stderr.String())
	}
}

// moduleRoot walks up from the package directory to go.mod.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}
