package mcpserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBinaryStdio builds the real hone binary and speaks JSON-RPC to
// `hone mcp --repo FIXTURE` over its stdin and stdout, as an MCP client does.
func TestBinaryStdio(t *testing.T) {
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
	fixture := writeFixture(t)

	cmd := exec.Command(bin, "mcp", "--repo", fixture)
	cmd.Env = append(os.Environ(), "HONE_CACHE_DIR="+t.TempDir())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(msg string) {
		if _, err := fmt.Fprintln(stdin, msg); err != nil {
			t.Fatalf("write %s: %v", msg, err)
		}
	}
	// recv reads the response to id; every line on stdout must be JSON-RPC.
	recv := func(id int) map[string]any {
		t.Helper()
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					t.Fatalf("hone mcp closed stdout; stderr:\n%s", stderr.String())
				}
				var m map[string]any
				if err := json.Unmarshal([]byte(line), &m); err != nil || m["jsonrpc"] != "2.0" {
					t.Fatalf("stdout carries a non-JSON-RPC line: %q", line)
				}
				if got, ok := m["id"].(float64); ok && int(got) == id {
					if m["error"] != nil {
						t.Fatalf("response %d is an error: %v", id, m["error"])
					}
					return m["result"].(map[string]any)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("no response %d; stderr:\n%s", id, stderr.String())
			}
		}
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`)
	if info := recv(1)["serverInfo"].(map[string]any); info["name"] != "hone" {
		t.Errorf("serverInfo = %v", info)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var names []string
	for _, tool := range recv(2)["tools"].([]any) {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	if strings.Join(names, ",") != "judge,retrieve_context,search,start" {
		t.Errorf("tools = %v", names)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"retrieve_context","arguments":{"task":"Fix the token expiry bug in TokenManager"}}}`)
	res := recv(3)
	if res["isError"] == true {
		t.Fatalf("retrieve_context failed: %v", res["content"])
	}
	sc := res["structuredContent"].(map[string]any)
	files := sc["files"].([]any)
	if len(files) == 0 || files[0].(map[string]any)["path"] != "auth/tokens.py" {
		t.Errorf("files = %v, want auth/tokens.py first", files)
	}
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"retrieve_context","arguments":{"task":"  "}}}`)
	if res := recv(4); res["isError"] != true {
		t.Errorf("empty task: want a tool error, got %v", res)
	}

	stdin.Close() // EOF: the server exits
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("hone mcp exited with %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Errorf("hone mcp did not exit after stdin closed")
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
