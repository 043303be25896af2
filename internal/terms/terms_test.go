package terms

import (
	"testing"

	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/task"
	"github.com/hone-dev/hone/internal/testrepo"
)

func fixture(t *testing.T) *index.Index {
	t.Helper()
	files := map[string]string{
		"auth/tokens.py":   "def token_expired(token):\n    # the token expired or expires soon\n    return token.expires < now()\n",
		"auth/session.py":  "class Session:\n    def refresh(self, token):\n        return token\n",
		"users/models.py":  "class User:\n    name = ''\n    def rename(self, name):\n        self.name = name\n",
		"users/views.py":   "def profile(user):\n    return user.name\n",
		"common/clock.py":  "def now():\n    return 0\n",
		"common/config.py": "TIMEOUT = 3\n",
	}
	return testrepo.Index(t, files)
}

func TestKeyPrefersRareHeavyWords(t *testing.T) {
	ix := fixture(t)
	tk := &task.Task{Keywords: []task.Term{
		{Text: "expiry", Weight: 2, Origin: task.OriginWord},
		{Text: "token", Weight: 1, Origin: task.OriginWord},
		{Text: "name", Weight: 1, Origin: task.OriginWord},
	}}
	key := Key(ix, tk)
	for _, w := range []string{"expiry", "token", "name"} {
		if !key[w] {
			t.Errorf("Key(%v) lacks %q (fewer words than KeyCount are all key)", tk.Keywords, w)
		}
	}
	many := &task.Task{}
	for i := 0; i < KeyCount+4; i++ {
		many.Keywords = append(many.Keywords, task.Term{Text: "name", Weight: 0.1, Origin: task.OriginWord})
	}
	many.Keywords = append(many.Keywords, task.Term{Text: "refresh", Weight: 3, Origin: task.OriginWord})
	if got := Key(ix, many); !got["refresh"] || len(got) > KeyCount {
		t.Errorf("Key = %v, want refresh among at most %d key words", got, KeyCount)
	}
}

func TestVariants(t *testing.T) {
	ix := fixture(t)
	tk := &task.Task{Keywords: []task.Term{
		{Text: "expiry", Weight: 2, Origin: task.OriginWord},
		{Text: "session", Weight: 1, Origin: task.OriginIdentifier},
	}}
	got := Variants(ix, tk, Key(ix, tk), map[string]bool{})
	if len(got) == 0 || len(got) > VariantsPerWord {
		t.Fatalf("Variants = %+v, want 1..%d variants of expiry", got, VariantsPerWord)
	}
	for _, v := range got {
		if v.For != "expiry" || v.Weight != 2 || (v.Term != "expired" && v.Term != "expires") {
			t.Errorf("Variants gave %+v, want expired or expires for expiry with its weight", v)
		}
	}
	have := map[string]bool{"expired": true, "expires": true}
	if got := Variants(ix, tk, Key(ix, tk), have); len(got) != 0 {
		t.Errorf("Variants with both already present = %+v, want none", got)
	}
}
