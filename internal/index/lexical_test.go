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
