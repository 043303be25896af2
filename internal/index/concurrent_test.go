package index

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

const helperEnv = "HONE_INDEX_TEST_HELPER"

// helperProcess is the body of a child test process: open the repository
// named by the environment with the cache named by the environment.
func helperProcess() {
	_, st, err := Open(context.Background(), os.Getenv("HELPER_ROOT"), Options{CacheDir: os.Getenv("HELPER_CACHE")})
	if err != nil || len(st.Warnings) > 0 {
		fmt.Fprintln(os.Stderr, err, st.Warnings)
		os.Exit(1)
	}
	os.Exit(0)
}

func TestConcurrentOpen(t *testing.T) {
	root, cache := copyRepo(t), t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, st, err := Open(context.Background(), root, Options{CacheDir: cache})
			if err == nil && len(st.Warnings) > 0 {
				err = fmt.Errorf("warnings %q", st.Warnings)
			}
			errs <- err
		}()
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	for range 3 {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"=1", "HELPER_ROOT="+root, "HELPER_CACHE="+cache)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("helper process: %v", err)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	ix, st := openT(t, root, cache)
	if len(st.Warnings) != 0 || st.Parsed != 0 || st.Reused != ix.Len() {
		t.Errorf("Open after concurrent writers: %+v", st)
	}
	// Left: the manifest, its lock, its segments and at most those of the
	// manifest it replaced (kept one generation for readers), and the
	// records store.
	ents, _ := os.ReadDir(cache)
	named := map[string]bool{}
	for _, sg := range ix.segs {
		named[sg.name] = true
	}
	extra := 0
	for _, e := range ents {
		switch n := e.Name(); {
		case strings.HasSuffix(n, ".bin"), strings.HasSuffix(n, ".lock"), named[n], n == recordsFile:
		case strings.HasSuffix(n, ".seg"):
			extra++
		default:
			t.Errorf("left behind %s", n)
		}
	}
	if extra > 1 {
		t.Errorf("%d segments no manifest names left behind", extra)
	}
}

func TestConcurrentReads(t *testing.T) {
	ix, _ := openT(t, copyRepo(t), t.TempDir())
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				ix.Search([]Term{{"token", 1}, {"rate", 1}}, nil, 5)
				ix.Associations("rate", 5)
				ix.Defining("TokenManager")
				ix.Referencing("Throttle")
				ix.ResolveModule("app.auth.tokens")
				ix.Distinctive(0, 5)
			}
		}()
	}
	wg.Wait()
}
