package index

import (
	"context"
	"slices"
	"testing"
)

// A lexical Open reads without parsing; one that names files in Parse
// parses them; an Open that is not lexical parses the rest, and the index
// it ends with is the one a cold Open builds.
func TestLexicalOpen(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []struct {
		name    string
		noCache bool
	}{{"cache", false}, {"memory", true}} {
		t.Run(mode.name, func(t *testing.T) {
			root, cache := copyRepo(t), t.TempDir()
			opts := func(o Options) Options {
				o.CacheDir, o.NoCache, o.RecordsMax = cache, mode.noCache, -1
				return o
			}
			lex, st, err := Open(ctx, root, opts(Options{Lexical: true}))
			if err != nil {
				t.Fatal(err)
			}
			if st.Unparsed != lex.Len() || st.Unparsed == 0 || lex.Unparsed() != st.Unparsed || st.Lexical != st.Unparsed || st.Parsed != 0 {
				t.Fatalf("lexical Open: %d files, %d unparsed (Unparsed() %d), %d read without parsing, %d parsed", lex.Len(), st.Unparsed, lex.Unparsed(), st.Lexical, st.Parsed)
			}
			if got := lex.Defining("TokenManager"); len(got) != 0 {
				t.Errorf("lexical index defines TokenManager in %v", got)
			}
			tokens, ok := lex.Lookup("app/auth/tokens.py")
			if !ok {
				t.Fatal("app/auth/tokens.py not indexed")
			}
			if lex.File(tokens).Lang != "python" || len(lex.File(tokens).Defs) != 0 {
				t.Errorf("lexical tokens.py: lang %q, %d defs", lex.File(tokens).Lang, len(lex.File(tokens).Defs))
			}
			// Its content terms are searchable (without the symbols field).
			if hits := lex.Search([]Term{{"tokenmanager", 1}}, nil, 5); !slices.ContainsFunc(hits, func(h Hit) bool { return h.ID == tokens }) {
				t.Errorf("lexical Search(tokenmanager) = %v, want tokens.py among them", hits)
			}

			// Parse one file, starting from the lexical index.
			part, st, err := Open(ctx, root, opts(Options{Lexical: true, Parse: []string{"app/auth/tokens.py"}, Prev: lex}))
			if err != nil {
				t.Fatal(err)
			}
			if st.Parsed != 1 || st.Unparsed != lex.Len()-1 {
				t.Fatalf("Open with Parse: %+v", st)
			}
			tokens, _ = part.Lookup("app/auth/tokens.py")
			if !part.Parsed(tokens) || !slices.Contains(part.Defining("TokenManager"), tokens) {
				t.Errorf("tokens.py not parsed after Open with Parse: defining TokenManager %v", part.Defining("TokenManager"))
			}
			// A lexical Open again keeps what it has.
			again, st, err := Open(ctx, root, opts(Options{Lexical: true, Prev: part}))
			if err != nil {
				t.Fatal(err)
			}
			if st.Parsed != 0 || st.Unparsed != part.Unparsed() || again.Unparsed() != part.Unparsed() {
				t.Fatalf("lexical Open again: %+v", st)
			}

			full, st, err := Open(ctx, root, opts(Options{Prev: again}))
			if err != nil {
				t.Fatal(err)
			}
			if st.Unparsed != 0 || st.Parsed != lex.Len()-1 {
				t.Fatalf("complete Open: %+v", st)
			}
			cold, _, err := Open(ctx, root, Options{NoCache: true, RecordsMax: -1})
			if err != nil {
				t.Fatal(err)
			}
			sameIndex(t, cold, full)
		})
	}
}

// Lexical Opens with ParseBytes complete a lexical index step by step: each
// parses the files not parsed yet, in the walk's order, until their sizes
// pass the bound (by one file at most), and the last one leaves the index
// a cold Open builds. From no index, with Parse, in chunks, in memory.
func TestParseBytesSteps(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		budget  int64
		parse   bool  // each step also names one unparsed file in Parse
		chunk   int64 // chunkBytes, when not 0 (cut the first read in chunks)
		noCache bool
	}{
		{name: "a file a step", budget: 1},
		{name: "a few files a step", budget: 300},
		{name: "with Parse", budget: 300, parse: true},
		{name: "in chunks", budget: 300, chunk: 100},
		{name: "in memory", budget: 300, noCache: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.chunk > 0 {
				old := chunkBytes
				chunkBytes = tc.chunk
				t.Cleanup(func() { chunkBytes = old })
			}
			root, cache := copyRepo(t), t.TempDir()
			open := func(o Options) (*Index, Stats) {
				t.Helper()
				o.CacheDir, o.NoCache, o.RecordsMax = cache, tc.noCache, -1
				ix, st, err := Open(ctx, root, o)
				if err != nil {
					t.Fatal(err)
				}
				return ix, st
			}
			// The first contact: nothing parsed but what the bound takes.
			ix, st := open(Options{Lexical: true, ParseBytes: tc.budget})
			if st.Parsed == 0 || st.Unparsed == 0 || st.Parsed+st.Unparsed != ix.Len() {
				t.Fatalf("first step: %+v", st)
			}
			for run := 1; ; run++ {
				if st.Unparsed == 0 {
					break
				}
				if run > ix.Len() {
					t.Fatalf("still %d unparsed after %d steps", st.Unparsed, run)
				}
				prev, before := ix, st.Unparsed
				var parse []string
				if tc.parse {
					for id := range prev.Len() {
						if !prev.Parsed(ID(id)) {
							parse = []string{prev.Path(ID(id))}
						}
					}
				}
				ix, st = open(Options{Lexical: true, ParseBytes: tc.budget, Parse: parse, Prev: prev})
				// What this step parsed beyond Parse, in bytes.
				var sum, last int64
				n := 0
				for id := range ix.Len() {
					f := ix.File(ID(id))
					if !ix.Parsed(ID(id)) || slices.Contains(parse, f.Path) {
						continue
					}
					if pid, ok := prev.Lookup(f.Path); ok && prev.Parsed(pid) {
						continue
					}
					n++
					sum += f.Size
					last = max(last, f.Size)
				}
				var left int64
				for id := range ix.Len() {
					if !ix.Parsed(ID(id)) {
						left += ix.File(ID(id)).Size
					}
				}
				if got := ix.UnparsedBytes(); got != left || (left == 0) != (st.Unparsed == 0) {
					t.Errorf("step %d: UnparsedBytes %d, want %d (%d files unparsed)", run, got, left, st.Unparsed)
				}
				if st.Parsed != n+len(parse) || st.Unparsed != ix.Unparsed() {
					t.Errorf("step %d: Stats %+v; %d files parsed beyond Parse %v", run, st, n, parse)
				}
				if n == 0 || sum-last >= tc.budget {
					t.Errorf("step %d: parsed %d files of %d bytes (largest %d), bound %d", run, n, sum, last, tc.budget)
				}
				if st.Unparsed >= before {
					t.Fatalf("step %d: %d unparsed, %d before", run, st.Unparsed, before)
				}
			}
			cold, _, err := Open(ctx, root, Options{NoCache: true, RecordsMax: -1})
			if err != nil {
				t.Fatal(err)
			}
			sameIndex(t, cold, ix)
		})
	}
}
