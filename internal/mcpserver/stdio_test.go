package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/loop"
)

// stdioClient drives Serve over pipes, line by line.
type stdioClient struct {
	t      *testing.T
	in     *io.PipeWriter
	lines  chan string
	done   chan error
	closed time.Time // when the input was closed
	cancel context.CancelFunc
}

func startStdio(t *testing.T, opts Options) *stdioClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	opts.Stdin, opts.Stdout = inR, outW
	if opts.Logger == nil {
		opts.Logger = discardLogger()
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &stdioClient{t: t, in: inW, lines: make(chan string, 100), done: make(chan error, 1), cancel: cancel}
	go func() {
		err := Serve(ctx, opts)
		outW.Close()
		c.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() { cancel(); inW.Close() })
	return c
}

func (c *stdioClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("write %.60q: %v", line, err)
	}
}

// recv returns the next line of output, decoded.
func (c *stdioClient) recv() any {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatal("the server closed its output")
		}
		var v any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			c.t.Fatalf("output line is not JSON: %q", line)
		}
		return v
	case <-time.After(10 * time.Second):
		c.t.Fatal("no output for 10 s")
	}
	return nil
}

// recvID returns the next response, which must have the given id.
func (c *stdioClient) recvID(id any) map[string]any {
	c.t.Helper()
	m, ok := c.recv().(map[string]any)
	if !ok {
		c.t.Fatalf("got a batch, want the response %v", id)
	}
	if fmt.Sprint(m["id"]) != fmt.Sprint(id) {
		c.t.Fatalf("got %v, want the response %v", m, id)
	}
	return m
}

// closeInput closes the server's stdin.
func (c *stdioClient) closeInput() {
	c.closed = time.Now()
	c.in.Close()
}

// wait waits for Serve to return and returns its error and how long after
// closeInput (or now) it did.
func (c *stdioClient) wait(limit time.Duration) (error, time.Duration) {
	c.t.Helper()
	start := c.closed
	if start.IsZero() {
		start = time.Now()
	}
	select {
	case err := <-c.done:
		return err, time.Since(start)
	case <-time.After(limit):
		c.t.Fatalf("Serve still running %s later", limit)
	}
	return nil, 0
}

// rest returns the remaining output lines, once Serve has returned.
func (c *stdioClient) rest() []string {
	var out []string
	for l := range c.lines {
		out = append(out, l)
	}
	return out
}

// handshake initializes the session.
func (c *stdioClient) handshake() {
	c.t.Helper()
	c.send(initLine)
	c.recvID(1)
	c.send(initializedLine)
}

func wantRPCError(t *testing.T, m map[string]any, code int) {
	t.Helper()
	e, ok := m["error"].(map[string]any)
	if !ok {
		t.Fatalf("got %v, want a JSON-RPC error %d", m, code)
	}
	if int(e["code"].(float64)) != code {
		t.Errorf("error %v, want code %d", e, code)
	}
	if m["jsonrpc"] != "2.0" {
		t.Errorf("answer %v lacks jsonrpc 2.0", m)
	}
	if _, ok := m["id"]; !ok {
		t.Errorf("answer %v has no id (JSON-RPC wants id: null when unknown)", m)
	}
}

// Every malformed line is answered and the connection goes on.
func TestStdioMalformedLines(t *testing.T) {
	c := startStdio(t, Options{Repo: writeFixture(t), open: openFake, maxLine: 4096})
	c.handshake()
	tests := []struct {
		name string
		line string
		code int
		id   any // nil: null
	}{
		{"not json", `{not json}`, -32700, nil},
		{"truncated", `{"jsonrpc":"2.0","id":3,"method":"ping"`, -32700, nil},
		{"trailing data", `{"jsonrpc":"2.0","id":3,"method":"ping"} x`, -32700, nil},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"p\xffing\"}", -32700, nil},
		{"over the line limit", `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":"` + strings.Repeat("a", 5000) + `"}}`, -32700, nil},
		{"null", `null`, -32600, nil},
		{"bare string", `"hello"`, -32600, nil},
		{"number", `42`, -32600, nil},
		{"empty batch", `[]`, -32600, nil},
		{"no version", `{"id":4,"method":"ping"}`, -32600, 4.0},
		{"wrong version", `{"jsonrpc":"1.0","id":"a","method":"ping"}`, -32600, "a"},
		{"method not a string", `{"jsonrpc":"2.0","id":5,"method":7}`, -32600, 5.0},
		{"empty method", `{"jsonrpc":"2.0","id":6,"method":""}`, -32600, 6.0},
		{"id an object", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, -32600, nil},
		{"id a fraction", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, 1.5},
		{"neither request nor response", `{"jsonrpc":"2.0"}`, -32600, nil},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, nil},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			c.send(tt.line)
			m, ok := c.recv().(map[string]any)
			if !ok {
				t.Fatal("got a batch, want one answer")
			}
			wantRPCError(t, m, tt.code)
			if fmt.Sprint(m["id"]) != fmt.Sprint(tt.id) {
				t.Errorf("id = %v, want %v", m["id"], tt.id)
			}
			// The connection goes on.
			c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 100+i))
			if m := c.recvID(100 + i); m["error"] != nil {
				t.Errorf("ping after the bad line: %v", m)
			}
		})
	}
	c.t = t
	// A blank line is no message and gets no answer.
	c.send("   ")
	c.send(toolsListLine)
	if m := c.recvID(2); m["result"] == nil {
		t.Errorf("tools/list = %v", m)
	}
	c.closeInput()
	if err, _ := c.wait(5 * time.Second); err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
}

// A batch is answered element by element; its notifications are passed on
// and get no answer.
func TestStdioBatch(t *testing.T) {
	c := startStdio(t, Options{Repo: writeFixture(t), open: openFake})
	c.handshake()
	c.send(`[1, {"jsonrpc":"2.0","id":7,"method":"ping"}, {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}, {"jsonrpc":"2.0","id":8}]`)
	arr, ok := c.recv().([]any)
	if !ok || len(arr) != 3 {
		t.Fatalf("got %v, want an array of 3 errors", arr)
	}
	var ids []string
	for _, a := range arr {
		m := a.(map[string]any)
		wantRPCError(t, m, -32600)
		ids = append(ids, fmt.Sprint(m["id"]))
	}
	if got := strings.Join(ids, ","); got != "<nil>,7,8" {
		t.Errorf("ids = %s, want <nil>,7,8", got)
	}
	// A batch of notifications only gets no answer.
	c.send(`[{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}]`)
	c.send(toolsListLine)
	c.recvID(2)
}

// At the end of input every call read is answered before Serve returns nil:
// `printf 'INIT\nINITIALIZED\nTOOLS_LIST\n' | hone mcp`.
func TestStdioEOFAnswersEverything(t *testing.T) {
	dir := writeFixture(t)
	for i := range 20 {
		c := startStdio(t, Options{Repo: dir, open: openFake})
		c.send(initLine + "\n" + initializedLine + "\n" + toolsListLine + "\n" +
			callLine(3, "search", map[string]any{"keywords": []string{"token"}}) + "\n" +
			`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
		c.closeInput()
		err, _ := c.wait(5 * time.Second)
		if err != nil {
			t.Fatalf("run %d: Serve = %v, want nil", i, err)
		}
		got := map[string]bool{}
		for _, l := range c.rest() {
			var m map[string]any
			if json.Unmarshal([]byte(l), &m) == nil {
				got[fmt.Sprint(m["id"])] = m["result"] != nil
			}
		}
		for _, id := range []string{"1", "2", "3", "4"} {
			if !got[id] {
				t.Fatalf("run %d: no result for request %s; answers: %v", i, id, got)
			}
		}
	}
}

// blockingOpen is an open that blocks until its context ends (a slow
// index) for directories named "web", recording that it did. Others open at
// once (the default repository, which Serve warms).
type blockingOpen struct {
	started   chan struct{}
	cancelled chan struct{} // closed when the open's context ends
	once      sync.Once
}

func newBlockingOpen() *blockingOpen {
	return &blockingOpen{started: make(chan struct{}, 10), cancelled: make(chan struct{})}
}

// wasCancelled reports whether the open was cancelled (it runs in a
// goroutine of its own, so it may notice a moment after the call returned).
func (b *blockingOpen) wasCancelled() bool {
	select {
	case <-b.cancelled:
		return true
	case <-time.After(time.Second):
		return false
	}
}

func (b *blockingOpen) open(ctx context.Context, dir string, o hone.Options) (backend, error) {
	if filepath.Base(dir) != "web" {
		return openFake(ctx, dir, o)
	}
	b.started <- struct{}{}
	<-ctx.Done()
	b.once.Do(func() { close(b.cancelled) })
	return nil, ctx.Err()
}

// A call stuck in a slow repository open does not keep the server alive
// after its input ends: it is cancelled after the drain grace, answered, and
// Serve returns.
func TestStdioEOFCancelsStuckCall(t *testing.T) {
	b := newBlockingOpen()
	c := startStdio(t, Options{Repo: writeFixture(t), open: b.open, drain: 200 * time.Millisecond})
	c.handshake()
	c.send(callLine(3, "retrieve_context", map[string]any{"task": "token expiry", "repo": "web"}))
	<-b.started // the call's open is under way
	c.closeInput()
	err, took := c.wait(5 * time.Second)
	if err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
	if took > 2*time.Second {
		t.Errorf("Serve returned %s after the input closed, want well under 2 s", took)
	}
	if !b.wasCancelled() {
		t.Error("the repository open was not cancelled")
	}
	var answered bool
	for _, l := range c.rest() {
		if strings.Contains(l, `"id":3`) {
			answered = true
			if !strings.Contains(l, `"isError":true`) || !strings.Contains(l, "stopping") {
				t.Errorf("answer to the stuck call = %s, want a tool error saying the server stops", l)
			}
		}
	}
	if !answered {
		t.Error("the stuck call got no answer")
	}
	t.Logf("Serve returned %s after the input closed (drain 200 ms)", took.Round(time.Millisecond))
}

// When ctx ends (SIGTERM), the calls in flight are cancelled at once.
func TestStdioStopCancelsStuckCall(t *testing.T) {
	b := newBlockingOpen()
	c := startStdio(t, Options{Repo: writeFixture(t), open: b.open})
	c.handshake()
	c.send(callLine(3, "search", map[string]any{"keywords": []string{"token"}, "repo": "web"}))
	<-b.started
	stopped := time.Now()
	c.cancel()
	err, _ := c.wait(5 * time.Second)
	took := time.Since(stopped)
	if err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
	if took > time.Second {
		t.Errorf("Serve returned %s after the stop, want under 1 s", took)
	}
	if !b.wasCancelled() {
		t.Error("the repository open was not cancelled")
	}
	if m := c.recvID(3); !strings.Contains(fmt.Sprint(m["result"]), "stopping") {
		t.Errorf("answer = %v, want a tool error saying the server stops", m)
	}
	t.Logf("Serve returned %s after the stop", took.Round(time.Millisecond))
}

// A call that ignores cancellation altogether does not keep Serve either.
func TestStdioStubbornCall(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	started := make(chan struct{}, 10)
	stubborn := func(ctx context.Context, dir string, o hone.Options) (backend, error) {
		return &stubbornRepo{fakeRepo: fakeRepo{root: dir}, started: started, release: release}, nil
	}
	c := startStdio(t, Options{Repo: writeFixture(t), open: stubborn, drain: 100 * time.Millisecond})
	c.handshake()
	c.send(callLine(3, "search", map[string]any{"keywords": []string{"token"}}))
	<-started
	c.closeInput()
	err, took := c.wait(5 * time.Second)
	if err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
	if limit := 100*time.Millisecond + answerGrace + exitGrace + 500*time.Millisecond; took > limit {
		t.Errorf("Serve returned %s after the input closed, want under %s", took, limit)
	}
}

// An open that ignores cancellation for a while (as the walk did while it
// parsed a 50 MB .gitignore) does not hold the exit up: Serve waited
// closeWait, 2 s, for it, so `hone mcp` took 2.1 s to exit on SIGTERM and
// 3.2 s after its input closed.
func TestStdioStubbornOpen(t *testing.T) {
	for _, tt := range []struct {
		name string
		stop func(c *stdioClient)
	}{
		{"stopped", func(c *stdioClient) { c.cancel() }},
		{"input closed", func(c *stdioClient) { c.closeInput() }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			release := make(chan struct{})
			defer close(release)
			started := make(chan struct{}, 10)
			stubborn := func(ctx context.Context, dir string, o hone.Options) (backend, error) {
				if filepath.Base(dir) != "web" {
					return openFake(ctx, dir, o)
				}
				started <- struct{}{}
				<-release // deaf to ctx
				return nil, errors.New("released")
			}
			const drain = 100 * time.Millisecond
			c := startStdio(t, Options{Repo: writeFixture(t), open: stubborn, drain: drain})
			c.handshake()
			c.send(callLine(3, "search", map[string]any{"keywords": []string{"token"}, "repo": "web"}))
			<-started
			stopped := time.Now()
			tt.stop(c)
			err, _ := c.wait(10 * time.Second)
			took := time.Since(stopped)
			if err != nil {
				t.Errorf("Serve = %v, want nil", err)
			}
			if limit := drain + time.Second; took > limit {
				t.Errorf("Serve returned %s after it was %s, want under %s", took.Round(time.Millisecond), tt.name, limit)
			}
			if m := c.recvID(3); !strings.Contains(fmt.Sprint(m["result"]), "stopping") {
				t.Errorf("answer = %v, want a tool error saying the server stops", m)
			}
			t.Logf("Serve returned %s after it was %s", took.Round(time.Millisecond), tt.name)
		})
	}
}

// stubbornRepo's Search blocks until release, whatever its context.
type stubbornRepo struct {
	fakeRepo
	started chan struct{}
	release chan struct{}
}

func (r *stubbornRepo) Search(ctx context.Context, q loop.Query, limit int) ([]loop.Candidate, error) {
	r.started <- struct{}{}
	<-r.release
	return nil, errors.New("released")
}

// panicRepo's Search panics.
type panicRepo struct{ fakeRepo }

func (r *panicRepo) Search(context.Context, loop.Query, int) ([]loop.Candidate, error) {
	var m map[string]int
	m["boom"]++ // a nil map: the kind of bug that would end the server
	return nil, nil
}

// A tool that panics answers with a tool error; the server goes on.
func TestToolPanicIsToolError(t *testing.T) {
	dir := writeFixture(t)
	_, cs := newFakeServer(t, dir, func(o *Options) {
		o.open = func(ctx context.Context, d string, _ hone.Options) (backend, error) {
			return &panicRepo{fakeRepo{root: d}}, nil
		}
	})
	wantToolError(t, call(t, cs, "search", map[string]any{"keywords": []string{"token"}}, nil), "internal error")
	res := call(t, cs, "retrieve_context", map[string]any{"task": "token expiry"}, nil)
	if res.IsError {
		t.Errorf("retrieve_context after the panic: %s", text(res))
	}
}

func TestReadFrame(t *testing.T) {
	tests := []struct {
		in   string
		want []string // the frames; "!" marks a line over the limit, with the bytes kept
	}{
		{"a\nb\n", []string{"a", "b"}},
		{"a\r\nb", []string{"a", "b"}},
		{"12345678\n123456789\nok\n", []string{"12345678", "!12345678", "ok"}},
		{"12345678\r\n", []string{"12345678"}},
		{strings.Repeat("x", 300) + "\nok", []string{"!xxxxxxxx", "ok"}},
		{"\n\nz", []string{"", "", "z"}},
	}
	for _, tt := range tests {
		br := bufio.NewReaderSize(strings.NewReader(tt.in), 16) // the smallest buffer: lines span reads
		var got []string
		for {
			f, err := readFrame(br, 8)
			if err == nil || len(f.line) > 0 || f.tooLong {
				s := string(f.line)
				if f.tooLong {
					s = "!" + s
				}
				got = append(got, s)
			}
			if err != nil {
				if err != io.EOF {
					t.Errorf("readFrame(%q): %v", tt.in, err)
				}
				break
			}
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("readFrame(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzStdioLines feeds arbitrary input to the stdio transport: it must never
// panic, every line it writes must be a JSON-RPC error answer (or a batch of
// them), and every message it passes on must encode again.
func FuzzStdioLines(f *testing.F) {
	for _, s := range []string{
		initLine, "{not json}", "[]", "null", `"s"`, "[1,2]", "\xff\xfe", `{"jsonrpc":"2.0","id":1.5,"method":"x"}`,
		`{"jsonrpc":"2.0","id":{},"method":"x"}`, `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"}]`,
		`{"jsonrpc":"2.0","id":"a","result":{}}`, `{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"m"}}`,
		strings.Repeat("[", 300), "\r\n\r\n", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + strings.Repeat("x", 200),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		c := newStdioConn(bytes.NewReader(data), &out, 128, time.Millisecond, nil, discardLogger())
		defer c.Close()
		for {
			msg, err := c.Read(context.Background())
			if err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatalf("Read: %v", err)
				}
				break
			}
			if _, err := jsonrpc.EncodeMessage(msg); err != nil {
				t.Fatalf("message %#v does not encode: %v", msg, err)
			}
			// Answer calls, as the SDK would, so that the end of input does
			// not wait for them.
			if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
				if err := c.Write(context.Background(), &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)}); err != nil {
					t.Fatalf("Write: %v", err)
				}
			}
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			var v any
			if err := json.Unmarshal(line, &v); err != nil {
				t.Fatalf("output line %q is not JSON", line)
			}
			answers, ok := v.([]any)
			if !ok {
				answers = []any{v}
			}
			for _, a := range answers {
				m, ok := a.(map[string]any)
				if !ok || m["jsonrpc"] != "2.0" {
					t.Fatalf("output %s is not a JSON-RPC answer", line)
				}
				if _, ok := m["id"]; !ok {
					t.Fatalf("output %s has no id", line)
				}
			}
		}
	})
}
