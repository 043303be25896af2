package local

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/testrepo"
	"github.com/hone-dev/hone/loop"
)

// Focus is the share of the task's keyword weight that a file's best
// definition holds: words together in one function beat the same words
// spread over a module.
func TestFocus(t *testing.T) {
	ix := testrepo.Index(t, map[string]string{
		"shop/together.py": "import os\n\n\ndef other():\n    return 1\n\n\n" +
			"def apply_coupon(cart, coupon):\n    discount = coupon.percent\n    return cart.shipping - discount\n",
		"shop/spread.py": "def one(cart):\n    return cart\n\n\ndef two(coupon):\n    return coupon\n\n\n" +
			"def three(discount):\n    return discount\n\n\ndef four(shipping):\n    return shipping\n",
		"shop/head.py":  "# cart coupon discount shipping, all before any definition\nX = 1\n\n\ndef f():\n    pass\n",
		"shop/none.txt": "nothing about it",
		"shop/notes.md": "# Notes\n\nThe cart coupon discount is applied before shipping.\n",
	})
	const text = "Coupon discount applied to cart shipping"
	e, tk := newEval(t, ix, text, Options{})
	total := 0.0
	for _, k := range tk.Keywords {
		total += k.Weight
	}
	weight := func(words ...string) float64 {
		w := 0.0
		for _, k := range tk.Keywords {
			for _, x := range words {
				if k.Text == x {
					w += k.Weight
				}
			}
		}
		return w / total
	}
	focusOf := func(p string) focused {
		id, ok := ix.Lookup(p)
		if !ok {
			t.Fatalf("%s not indexed", p)
		}
		return e.focus(id)
	}
	tests := []struct {
		path  string
		share float64
		def   string
	}{
		{"shop/together.py", weight("coupon", "discount", "cart", "shipping"), "apply_coupon"},
		{"shop/spread.py", weight("cart"), "one"}, // each piece holds one title word: the first of the equals
		{"shop/head.py", weight("coupon", "discount", "cart", "shipping"), ""},
		{"shop/none.txt", 0, ""}, // no definitions: no pieces to tell apart
		{"shop/notes.md", 0, ""},
	}
	for _, tt := range tests {
		got := focusOf(tt.path).all
		if math.Abs(got.share-tt.share) > 1e-9 || got.def != tt.def {
			t.Errorf("focus(%s) = %+v, want share %v in %q", tt.path, got, tt.share, tt.def)
		}
	}
	if got := focusOf("shop/together.py").all.label("task terms"); got != "apply_coupon holds 4 task terms" {
		t.Errorf("label = %q", got)
	}
	ev := evalOne(t, e, loopInput(text, "shop/together.py", "shop/spread.py"), "shop/together.py")
	if !strings.Contains(ev.Reason, "apply_coupon holds 4 task terms:+") {
		t.Errorf("reason %q does not show the focus", ev.Reason)
	}
	off, _ := newEval(t, ix, text, Options{NoFocus: true})
	if ev := evalOne(t, off, loopInput(text, "shop/together.py"), "shop/together.py"); strings.Contains(ev.Reason, "holds") {
		t.Errorf("NoFocus: reason %q shows a focus", ev.Reason)
	}
}

// The title gets a focus of its own: the share of the title's words that
// one definition holds, whatever the body adds.
func TestTitleFocus(t *testing.T) {
	ix := testrepo.Index(t, map[string]string{
		"shop/cart.py": "def refund_coupon(coupon):\n    return coupon.refund\n\n\n" +
			"def render_receipt(cart, currency, locale, amount):\n    return cart, currency, locale, amount\n",
	})
	const text = "Coupon refund fails\nThe receipt shows the cart amount in the wrong currency and locale."
	e, tk := newEval(t, ix, text, Options{})
	id, _ := ix.Lookup("shop/cart.py")
	f := e.focus(id)
	// The body's words outweigh the title's in render_receipt; the title's
	// words are all in refund_coupon.
	if f.all.def != "render_receipt" || f.title.def != "refund_coupon" {
		t.Fatalf("focus = %+v, want all in render_receipt and title in refund_coupon (keywords %v)", f, tk.Keywords)
	}
	if math.Abs(f.title.share-2.0/3) > 1e-9 || f.title.terms != 2 {
		t.Errorf("title focus = %+v, want 2/3 of the title's weight (coupon and refund of coupon, refund, fails)", f.title)
	}
	ev := evalOne(t, e, loopInput(text, "shop/cart.py"), "shop/cart.py")
	if !strings.Contains(ev.Reason, "refund_coupon holds 2 title words:+") {
		t.Errorf("reason %q does not show the title's focus", ev.Reason)
	}
}

// A file that vanished, grew too large or became a directory since
// indexing has no focus, and judging it does not fail.
func TestFocusUnreadable(t *testing.T) {
	ix := testrepo.Index(t, map[string]string{
		"a/gone.py":  "def coupon_discount():\n    pass\n",
		"a/large.py": "def coupon_discount():\n    pass\n",
		"a/dir.py":   "def coupon_discount():\n    pass\n",
	})
	if err := os.Remove(filepath.Join(ix.Root(), "a", "gone.py")); err != nil {
		t.Fatal(err)
	}
	big := "def coupon_discount():\n" + strings.Repeat("    x = 1\n", MaxFocusBytes/10+1)
	if err := os.WriteFile(filepath.Join(ix.Root(), "a", "large.py"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	// A directory where a file was.
	if err := os.Remove(filepath.Join(ix.Root(), "a", "dir.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(ix.Root(), "a", "dir.py"), 0o755); err != nil {
		t.Fatal(err)
	}
	e, _ := newEval(t, ix, "coupon discount", Options{})
	for _, p := range []string{"a/gone.py", "a/large.py", "a/dir.py"} {
		id, _ := ix.Lookup(p)
		if f := e.focus(id); f != (focused{}) {
			t.Errorf("focus(%s) = %+v, want none", p, f)
		}
		if ev := evalOne(t, e, loopInput("coupon discount", p), p); ev.Relevance <= 0 {
			t.Errorf("%s judged %v, want its other signals to count", p, ev.Relevance)
		}
	}
}

func loopInput(task string, paths ...string) loop.EvalInput {
	return loop.EvalInput{Task: task, Cycle: 1, Candidates: candidates(paths...)}
}

// A one-line task is all title: its focus is not counted twice.
func TestTitleFocusNeedsABody(t *testing.T) {
	ix := testrepo.Index(t, map[string]string{"shop/cart.py": "def refund_coupon(coupon):\n    return coupon.refund\n"})
	e, _ := newEval(t, ix, "Coupon refund fails", Options{})
	id, _ := ix.Lookup("shop/cart.py")
	if f := e.focus(id); f.all.share == 0 || f.title != (piece{}) {
		t.Errorf("focus = %+v, want a focus and no title focus", f)
	}
}

// Broken encodings and Windows line ends read like any text: the pieces
// still start at the definitions' lines.
func TestFocusOddText(t *testing.T) {
	ix := testrepo.Index(t, map[string]string{
		"a/crlf.py":   "import os\r\n\r\ndef other():\r\n    return 1\r\n\r\ndef coupon_discount(coupon):\r\n    return coupon.discount\r\n",
		"a/latin1.py": "# caf\xe9 \xff\xfe\n\ndef other():\n    return '\xe9'\n\ndef coupon_discount(coupon):\n    return coupon.discount\n",
	})
	e, _ := newEval(t, ix, "Coupon discount is lost\nThe discount of a coupon is not applied.", Options{})
	for _, p := range []string{"a/crlf.py", "a/latin1.py"} {
		id, ok := ix.Lookup(p)
		if !ok {
			t.Fatalf("%s not indexed", p)
		}
		if f := e.focus(id); f.all.def != "coupon_discount" || f.all.terms != 2 {
			t.Errorf("focus(%s) = %+v, want coupon_discount with 2 task terms", p, f)
		}
	}
}

// TestFocusSkipsOnlyBeatenPieces checks that skipping the pieces that cannot
// beat the best so far (bound) changes no focus: on real source files (Go
// files of this module) and on text beyond ASCII, for tasks in several
// shapes, every file's focus equals the one computed by tokenizing every
// piece.
func TestFocusSkipsOnlyBeatenPieces(t *testing.T) {
	files := map[string]string{
		// Beyond ASCII: the Kelvin sign lower-cases to k; an İ grows when
		// lower-cased; a word in Cyrillic.
		"odd/units.py": "def convert(x):\n    return x\n\n\ndef \u212aelvin_scale(t):\n    # \u0130stanbul время\n    return t\n\n\ndef kelvin(t):\n    return t\n",
	}
	for _, dir := range []string{".", "../pack", "../../loop", "../refine"} {
		paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			files[filepath.ToSlash(filepath.Join("src", filepath.Base(dir), filepath.Base(p)))] = string(b)
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d files", len(files))
	}
	ix := testrepo.Index(t, files)
	tasks := []string{
		"Coupon discount applied to cart shipping",
		"Fix the focus signal when a definition holds every task term",
		"The evaluator's computeFocus ignores the title; Evaluator.focus caches it",
		"kelvin scale conversion is wrong",
		"Handle ternary expressions in queryFn",
		"pack budget tokens overflow for the first file whole",
		"`SetDefaults` leaves MinFiles at zero",
		"время Istanbul",
		// Words whose short forms (tmp, dir, buf, max, len, arg) the
		// code uses.
		"Temporary directory buffer is never released",
		"the maximum length of an argument",
	}
	defer func(old bool) { skipPieces = old }(skipPieces)
	compared, nonzero := 0, 0
	for _, text := range tasks {
		e, _ := newEval(t, ix, text, Options{})
		for id := index.ID(0); int(id) < ix.Len(); id++ {
			skipPieces = true
			got := e.computeFocus(id)
			skipPieces = false
			want := e.computeFocus(id)
			if got != want {
				t.Errorf("%q, %s: focus %+v with pieces skipped, %+v without", text, ix.Path(id), got, want)
			}
			compared++
			if want.all.share > 0 {
				nonzero++
			}
		}
	}
	if nonzero < 20 {
		t.Errorf("only %d of %d focuses above 0: the comparison says little", nonzero, compared)
	}
}
