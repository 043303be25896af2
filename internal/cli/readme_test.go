package cli

import (
	"bytes"
	"flag"
	"io"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

var update = flag.Bool("update", false, "rewrite README.md's sample output")

const readmePath = "../../README.md"

// The README documents flags in tables, one a command, each under a heading
// "Flags of every command" (the flags common.register gives every command),
// "Flags of `hone`", "Flags of `hone index`", "Flags of `hone mcp`",
// "Flags of `hone bench`", "Flags of `hone cache`" or "Flags of `hone cache
// prune`". A row documents the long flags (`--name`) in
// backticks in its first cell; a command's table lists its own flags, not
// the common ones.
var (
	flagHeadingRE = regexp.MustCompile("^#{2,4} Flags of (every command|`hone(?: [a-z]+)*`)\\s*$")
	longFlagRE    = regexp.MustCompile("--([a-z][a-z0-9-]*)")
	backtickRE    = regexp.MustCompile("`[^`]*`")
)

// readmeFlags maps a table's name ("every command", "hone", "hone index",
// ...) to the long flags its rows name.
func readmeFlags(t *testing.T, text string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	table := ""
	for _, line := range strings.Split(text, "\n") {
		if m := flagHeadingRE.FindStringSubmatch(line); m != nil {
			table = strings.Trim(m[1], "`")
			out[table] = nil
			continue
		}
		if strings.HasPrefix(line, "#") {
			table = ""
			continue
		}
		if table == "" || !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.ReplaceAll(line, `\|`, "\x00"), "|")
		if len(cells) < 3 {
			continue
		}
		for _, code := range backtickRE.FindAllString(cells[1], -1) {
			for _, m := range longFlagRE.FindAllStringSubmatch(code, -1) {
				out[table] = append(out[table], m[1])
			}
		}
	}
	return out
}

// cliFlags: the non-hidden long flags of cmd, less those in skip.
func cliFlags(cmd *cobra.Command, skip map[string]bool) []string {
	var names []string
	seen := map[string]bool{}
	visit := func(f *pflag.Flag) {
		if f.Hidden || skip[f.Name] || f.Name == "help" || seen[f.Name] {
			return
		}
		seen[f.Name] = true
		names = append(names, f.Name)
	}
	cmd.Flags().VisitAll(visit)
	cmd.PersistentFlags().VisitAll(visit)
	sort.Strings(names)
	return names
}

func lookup(cmd *cobra.Command, name string) *pflag.Flag {
	if f := cmd.Flags().Lookup(name); f != nil {
		return f
	}
	return cmd.PersistentFlags().Lookup(name)
}

// TestReadmeFlags: the README's flag tables and the commands' flags agree,
// both ways: every flag a table names exists on its command, and every
// flag a command shows in --help is in its table.
func TestReadmeFlags(t *testing.T) {
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	documented := readmeFlags(t, string(b))

	var c common
	commonCmd := &cobra.Command{Use: "common"}
	c.register(commonCmd)
	commonNames := map[string]bool{}
	for _, n := range cliFlags(commonCmd, nil) {
		commonNames[n] = true
	}

	root := newRoot(strings.NewReader(""), io.Discard, io.Discard)
	commands := map[string]*cobra.Command{"every command": commonCmd, "hone": root}
	for _, name := range []string{"index", "mcp", "bench", "cache", "cache prune"} {
		cmd, rest, err := root.Find(strings.Fields(name))
		if err != nil || len(rest) > 0 || cmd.CommandPath() != "hone "+name {
			t.Fatalf("hone has no %s command", name)
		}
		commands["hone "+name] = cmd
	}
	for table, cmd := range commands {
		names, ok := documented[table]
		if !ok {
			t.Errorf("README.md has no table under a heading \"Flags of %s\"", table)
			continue
		}
		for _, n := range names {
			if f := lookup(cmd, n); f == nil || f.Hidden {
				t.Errorf("README.md, Flags of %s: --%s is not a flag of %s", table, n, cmd.CommandPath())
			}
			if table != "every command" && commonNames[n] {
				t.Errorf("README.md, Flags of %s: --%s is a flag of every command; document it there only", table, n)
			}
		}
		skip := commonNames
		if table == "every command" {
			skip = nil
		}
		for _, n := range cliFlags(cmd, skip) {
			if !slices.Contains(names, n) {
				t.Errorf("%s has flag --%s, which README.md's table \"Flags of %s\" lacks", cmd.CommandPath(), n, table)
			}
		}
	}
}

// The README's sample output is the CLI's own, on a fixture; the sample is
// framed by these markers.
const (
	sampleBegin = "<!-- sample-output:begin -->\n"
	sampleEnd   = "<!-- sample-output:end -->\n"
	sampleTask  = "Fix the authentication token expiry bug"
)

// timingsRE matches the timings of the report's Stats line, which vary from
// run to run; the sample shows them as "…".
var timingsRE = regexp.MustCompile(`(index|retrieve) \d+ ms`)

// sampleOutput runs hone in-process on testdata/auth-service, as the sample
// command says, and returns the Markdown block the README shows: the
// command, then its standard output with the Stats line's timings replaced
// by "…". History is off: the fixture lies inside hone's own repository,
// whose commits would move the scores.
func sampleOutput(t *testing.T) string {
	t.Helper()
	code, stdout, stderr := run(t, "", "--no-history", "--repo", fixture, sampleTask)
	if code != ExitOK {
		t.Fatalf("hone on %s = exit %d; stderr: %s", fixture, code, stderr)
	}
	out := timingsRE.ReplaceAllString(stdout, "$1 … ms")
	return "```\n$ hone --no-history --repo testdata/auth-service \"" + sampleTask + "\"\n" + out + "```\n"
}

// TestReadmeSampleOutput: the output README.md shows is what hone prints
// (go test ./internal/cli -run ReadmeSample -update rewrites it).
func TestReadmeSampleOutput(t *testing.T) {
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i, j := strings.Index(text, sampleBegin), strings.Index(text, sampleEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the markers %q and %q", strings.TrimSpace(sampleBegin), strings.TrimSpace(sampleEnd))
	}
	got := sampleOutput(t)
	have := text[i+len(sampleBegin) : j]
	if have == got {
		return
	}
	if *update {
		text = text[:i+len(sampleBegin)] + got + text[j:]
		if err := os.WriteFile(readmePath, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	var diff bytes.Buffer
	diff.WriteString("README.md's sample output differs from hone's; rerun with -update and review the diff\nwant:\n")
	diff.WriteString(got)
	t.Error(diff.String())
}

// The timings are the only part of the output normalised.
func TestReadmeSampleTimings(t *testing.T) {
	got := timingsRE.ReplaceAllString("Stats: 14 files indexed · index 12 ms · retrieve 3 ms", "$1 … ms")
	if want := "Stats: 14 files indexed · index … ms · retrieve … ms"; got != want {
		t.Errorf("normalised = %q, want %q", got, want)
	}
}
