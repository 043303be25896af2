package llm

import (
	"math"
	"path"
	"regexp"
	"strings"
)

// Secret detection. A file is never sent to a model when its name is one that
// holds credentials or its content carries a credential's shape. It errs on
// the side of keeping a file home: a false positive costs one file the
// model's judgment (it keeps the local score), a false negative leaks a key.

// secretNames are base-name globs (lower-cased) of credential files.
var secretNames = []string{
	".env", ".env.*", "*.env", ".envrc",
	"*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore",
	"id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*",
	"credentials*", "secrets.*",
	".netrc", ".pgpass", ".npmrc", ".pypirc", ".git-credentials", ".htpasswd",
}

// secretPatterns are shapes of keys and tokens.
var secretPatterns = []*regexp.Regexp{
	regexp.MustCompile(`\b(AKIA|ASIA)[0-9A-Z]{16}\b`),                    // AWS access key id
	regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----`), // PEM, OpenSSH, PGP private keys
	regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{30,}`),                   // GitHub tokens
	regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{30,}`),                 // GitHub fine-grained tokens
	regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{20,}`),                        // OpenAI, Anthropic (sk-ant-), Stripe-like keys
	regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`),                // Slack tokens
	regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`),                      // Google API keys
	regexp.MustCompile(`\bglpat-[0-9A-Za-z_-]{20,}`),                     // GitLab tokens
}

// assignment finds `api_key = "…"`-style assignments of a quoted literal to a
// credential-sounding name; the literal is then tested for entropy.
var assignment = regexp.MustCompile(`(?i)(api[_-]?key|apikey|secret|token|passw(?:or)?d|access[_-]?key|private[_-]?key)[\w.-]*["']?\s*(?::=|=>|=|:)\s*[bru]?["']([^"'\s]{16,})["']`)

// minSecretEntropy is the Shannon entropy, in bits per character, above which
// an assigned literal looks random (a key) rather than a word or a path:
// English identifiers sit near 3-3.5, random base64 near 5-6.
const minSecretEntropy = 3.7

// LooksSecret reports whether a file should never leave the machine: its name
// is a credential file's (.env*, *.pem, *.key, id_rsa*, *.p12, credentials*,
// secrets.*, …) or content holds a key or token (AWS AKIA…, a PEM private key,
// ghp_…, sk-…, xox[bp]-…, or a high-entropy literal assigned to a name such as
// api_key). It is safe for concurrent use.
func LooksSecret(p string, content []byte) bool {
	base := strings.ToLower(path.Base(strings.ReplaceAll(p, "\\", "/")))
	for _, g := range secretNames {
		if ok, _ := path.Match(g, base); ok {
			return true
		}
	}
	if len(content) == 0 {
		return false
	}
	for _, re := range secretPatterns {
		if re.Match(content) {
			return true
		}
	}
	for _, m := range assignment.FindAllSubmatch(content, -1) {
		if !strings.Contains(string(m[2]), "://") && entropy(m[2]) >= minSecretEntropy {
			return true
		}
	}
	return false
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s []byte) float64 {
	var n [256]int
	for _, c := range s {
		n[c]++
	}
	h := 0.0
	for _, k := range n {
		if k > 0 {
			p := float64(k) / float64(len(s))
			h -= p * math.Log2(p)
		}
	}
	return h
}
