package local

import (
	"fmt"
	"testing"

	"github.com/hone-dev/hone/internal/anchor"
	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/task"
	"github.com/hone-dev/hone/internal/testrepo"
)

// fixture: auth tokens with their API, a throttle, a test, a helper defined
// twice, and a hub (app/core/base.py) imported by five feature files.
var fixture = map[string]string{
	"app/__init__.py":      "",
	"app/auth/__init__.py": "",
	"app/auth/tokens.py": `"""Authentication tokens and their expiry."""
import datetime


class TokenManager:
    """Issues tokens and checks token expiry."""

    def issue(self, user):
        return datetime.datetime.now()

    def is_expired(self, token):
        return token.expires_at < datetime.datetime.utcnow()
`,
	"app/api/__init__.py": "",
	"app/api/throttle.py": `class Throttle:
    """Rate limit for the API."""

    def allow(self, client):
        return True
`,
	"app/api/views.py": `from app.api.throttle import Throttle
from app.auth.tokens import TokenManager


def login(request):
    if not Throttle().allow(request.client):
        return "rate limit exceeded"
    return TokenManager().issue(request.user)
`,
	"tests/test_throttle.py": `from app.api.throttle import Throttle


def test_throttle_allows():
    assert Throttle().allow("client")
`,
	"app/util/__init__.py": "",
	"app/util/one.py":      "def helper():\n    return 1\n",
	"app/util/two.py":      "def helper():\n    return 2\n",
	"app/core/__init__.py": "",
	"app/core/base.py":     "class Base:\n    def setup(self):\n        return self\n",
	"docs/guide.md":        "# Guide\n\nThe throttle guards the API.\n",
}

func init() {
	for i := 1; i <= 5; i++ {
		fixture[fmt.Sprintf("app/feat/f%d.py", i)] = fmt.Sprintf("from app.core.base import Base\n\n\nclass Feature%d(Base):\n    def run(self):\n        return Base()\n", i)
	}
	fixture["app/feat/__init__.py"] = ""
}

func openFixture(t testing.TB) *index.Index {
	t.Helper()
	return testrepo.Index(t, fixture)
}

// newEval parses text and returns an evaluator for it.
func newEval(t testing.TB, ix *index.Index, text string, opts Options) (*Evaluator, *task.Task) {
	t.Helper()
	tk := task.Parse(text)
	return New(ix, &tk, anchor.Find(ix, &tk), opts), &tk
}

func indexID(i int) index.ID { return index.ID(i) }
