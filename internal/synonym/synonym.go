// Package synonym knows the common vocabulary of software: the few dozen
// concepts that codebases name in different words ("rate limit" is
// "throttle" in one codebase and "ratelimiter" in another).
//
// It is general programming knowledge, not knowledge of any repository: each
// group lists words and phrases that name one concept across frameworks and
// languages. Expand matches a task's words against the groups (by stem, so
// "limiting" matches "limit"; a phrase matches when all its words are in the
// task) and returns the other members of each matched group. The caller keeps
// only the terms its repository uses, and weighs them below the task's own
// words. The repository's own associations (co-occurrence and naming, package
// index and refine) complement this list; neither replaces the other.
package synonym

import (
	"strings"

	"github.com/hone-dev/hone/internal/tokenize"
)

// groups: each line one concept; members are phrases of lower-case words or
// single identifiers as the index keeps them (whole, lower-case).
var groups = [][]string{
	{"rate limit", "throttle", "throttling", "ratelimit", "ratelimiter", "limiter"},
	{"authentication", "authenticate", "login", "signin", "credentials"},
	{"authorization", "permission", "authorize", "acl", "rbac"},
	{"delete", "remove", "destroy", "unlink", "erase"},
	{"configuration", "config", "settings", "preferences"},
	{"cache", "memoize", "memo", "lru"},
	{"retry", "backoff", "retries"},
	{"timeout", "deadline"},
	{"expiry", "expire", "expiration", "ttl", "lifetime"},
	{"logging", "logger", "log"},
	{"exception", "error", "failure"},
	{"queue", "job", "worker", "enqueue"},
	{"schedule", "scheduler", "cron", "periodic"},
	{"email", "mail", "smtp", "mailer"},
	{"notification", "notify", "alert"},
	{"database", "db", "sql"},
	{"connection pool", "pool", "pooling"},
	{"session", "cookie"},
	{"token", "jwt", "bearer"},
	{"password", "passwd", "passphrase"},
	{"encrypt", "encryption", "cipher", "crypto"},
	{"checksum", "digest", "hash"},
	{"upload", "attachment", "multipart"},
	{"pagination", "paginate", "paginator", "cursor", "offset"},
	{"validation", "validate", "validator", "verify"},
	{"serialize", "serializer", "marshal", "encode"},
	{"deserialize", "unmarshal", "decode", "parse"},
	{"template", "render", "renderer"},
	{"endpoint", "route", "router", "handler", "view"},
	{"middleware", "interceptor", "hook"},
	{"event", "signal", "emit", "listener", "subscriber", "dispatcher"},
	{"websocket", "socket"},
	{"metrics", "metric", "counter", "gauge", "histogram", "prometheus"},
	{"tracing", "trace", "span"},
	{"migration", "migrate"},
	{"translation", "i18n", "locale", "gettext", "l10n"},
	{"timezone", "tz", "utc"},
	{"payment", "billing", "invoice", "charge"},
	{"thumbnail", "image", "resize"},
	{"lock", "mutex", "semaphore"},
	{"plugin", "extension", "addon"},
	{"feature flag", "toggle", "flag"},
	{"health check", "healthz", "liveness", "readiness", "health"},
	{"shutdown", "graceful", "teardown"},
	{"dependency injection", "container", "injector", "provider"},
	{"search", "lookup", "finder"},
	{"compress", "gzip", "zlib", "deflate"},
	{"certificate", "tls", "ssl", "x509"},
	{"proxy", "gateway", "forward"},
	{"environment variable", "env", "getenv", "environ"},
}

// Match is one concept a task names.
type Match struct {
	// Words are the task's words that matched, as the task has them.
	Words []string
	// Others are the group's other single-word members.
	Others []string
}

// Expand returns the concepts among words (lower-case task words).
func Expand(words []string) []Match {
	have := map[string]string{} // stem -> word as given
	for _, w := range words {
		if _, ok := have[tokenize.Stem(w)]; !ok {
			have[tokenize.Stem(w)] = w
		}
	}
	var out []Match
	for _, g := range groups {
		var matched []string
		hit := -1
		for i, member := range g {
			parts := strings.Fields(member)
			var ws []string
			for _, p := range parts {
				if w, ok := have[tokenize.Stem(p)]; ok {
					ws = append(ws, w)
				}
			}
			if len(ws) == len(parts) {
				matched, hit = ws, i
				break
			}
		}
		if hit < 0 {
			continue
		}
		m := Match{Words: matched}
		for i, member := range g {
			if i != hit && !strings.Contains(member, " ") {
				if _, given := have[tokenize.Stem(member)]; !given {
					m.Others = append(m.Others, member)
				}
			}
		}
		out = append(out, m)
	}
	return out
}
