package refine

import (
	"fmt"
	"testing"

	"github.com/hone-dev/hone/internal/anchor"
	"github.com/hone-dev/hone/internal/index"
	"github.com/hone-dev/hone/internal/task"
	"github.com/hone-dev/hone/internal/testrepo"
)

// fixture: token expiry code in the words the repository uses (expired,
// expires), a rate limiter named Throttle, its API, a test, and filler
// modules so that learned terms are rare enough to count.
var fixture = map[string]string{
	"setup.py":             "from setuptools import setup\nsetup(name=\"app\")\n",
	"app/__init__.py":      "",
	"app/auth/__init__.py": "",
	"app/auth/tokens.py": `"""Authentication tokens; a token expires after its lifetime."""
import datetime


class TokenManager:
    """Issues tokens and tells whether one has expired."""

    def issue(self, user):
        return Token(user, expires=datetime.datetime.now())

    def is_expired(self, token):
        return token.expires < datetime.datetime.utcnow()
`,
	"app/auth/session.py": `from app.auth.tokens import TokenManager


class SessionStore:
    def refresh(self, session):
        return TokenManager().issue(session.user)
`,
	"app/api/__init__.py": "",
	"app/api/throttle.py": `class Throttle:
    """Rate limit for the API: a token bucket with a refill rate."""

    def allow(self, client):
        bucket = self.buckets[client]
        return bucket.refill() > 0
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
	"docs/guide.md": "# Guide\n\nThe throttle guards the API.\n",
}

func init() {
	for i := 1; i <= 12; i++ {
		fixture[fmt.Sprintf("app/misc/m%d.py", i)] = fmt.Sprintf("def handler%d(request):\n    return request.path\n", i)
	}
}

func openFixture(t testing.TB) *index.Index {
	t.Helper()
	return testrepo.Index(t, fixture)
}

// newRefiner parses text and returns a refiner for it with its anchors.
func newRefiner(t testing.TB, ix *index.Index, text string, opts Options) (*Refiner, *task.Task, anchor.Set) {
	t.Helper()
	tk := task.Parse(text)
	a := anchor.Find(ix, &tk)
	return New(ix, &tk, a, opts), &tk, a
}

func indexID(i int) index.ID { return index.ID(i) }
