package watch

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// TestSweep removes the barrier directories of processes that no longer
// run, and nothing else.
func TestSweep(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no process check on windows: nothing is swept")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := strconv.Itoa(cmd.Process.Pid) // waited for: no longer runs
	if alive(cmd.Process.Pid) {
		t.Skip("the finished process's id is in use again")
	}
	tmp := t.TempDir()
	mk := func(name string, files ...string) {
		t.Helper()
		if err := os.Mkdir(filepath.Join(tmp, name), 0o700); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(tmp, name, f), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	mk("hone-watch-"+dead+"-111", "3")                       // a killed process's: removed
	mk("hone-watch-" + dead + "-222")                        // empty: removed
	mk("hone-watch-"+dead+"-333", "notes.txt")               // holds what New never writes: kept
	mk("hone-watch-" + strconv.Itoa(os.Getpid()) + "-444")   // this process's: kept
	mk("hone-watch-"+strconv.Itoa(os.Getppid())+"-555", "1") // a running process's: kept
	mk("hone-watch-666")                                     // no process id: kept
	mk("other-" + dead + "-777")                             // not a barrier: kept
	sweep(tmp)
	for name, want := range map[string]bool{
		"hone-watch-" + dead + "-111": false, "hone-watch-" + dead + "-222": false,
		"hone-watch-" + dead + "-333": true, "hone-watch-" + strconv.Itoa(os.Getpid()) + "-444": true,
		"hone-watch-" + strconv.Itoa(os.Getppid()) + "-555": true, "hone-watch-666": true,
		"other-" + dead + "-777": true,
	} {
		_, err := os.Stat(filepath.Join(tmp, name))
		if got := err == nil; got != want {
			t.Errorf("%s: kept = %v, want %v", name, got, want)
		}
	}
}

// TestCloseRemovesTheBarrier leaves nothing in the temporary directory.
func TestCloseRemovesTheBarrier(t *testing.T) {
	w, err := New(t.TempDir(), nil)
	if err != nil {
		t.Skipf("no watcher here: %v", err)
	}
	dir := w.private
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("barrier directory: %v", err)
	}
	w.Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("after Close, %s: %v; want it gone", dir, err)
	}
}
