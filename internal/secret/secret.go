// Package secret decides what hone must never show a model: files that are
// secret material, and the values of credentials on a line. Everything hone
// hands an agent or sends to an LLM (the Markdown pack, a judge's view, the
// MCP tools' excerpts, the LLM evaluator's requests) goes through it.
//
// # Two levels
//
// A file is secret material (File returns why) when its name is one that
// holds nothing else, or its content is key material:
//
//   - private keys: a "-----BEGIN … PRIVATE KEY-----" header anywhere (PEM,
//     PKCS#8, OpenSSH, PGP "PRIVATE KEY BLOCK"), id_rsa, id_dsa, id_ecdsa,
//     id_ed25519 (not their .pub), *.key, *.ppk;
//   - certificates and keystores: *.pem, *.crt, *.cer, *.der, *.p12, *.pfx,
//     *.jks, *.keystore, *.bks;
//   - environment files: .env, .env.* and *.env (not .env.example,
//     .env.sample, .env.template, .env.dist: they hold placeholders), .envrc;
//   - credential stores: credentials, credentials.json, client_secret*.json,
//     .git-credentials, .netrc, .pgpass, .htpasswd, secrets.{yml,yaml,json,toml},
//     Terraform state (*.tfstate, which holds every secret in plain text), a
//     kubeconfig (.kube/config, *kubeconfig*, or "client-key-data:"), a
//     Kubernetes Secret manifest that is not a template, and .npmrc, .pypirc,
//     .docker/config.json, .dockercfg, .yarnrc.yml, .gem/credentials when they hold a token
//     or password.
//
// Such a file is listed with its reason and never shown. The names err on the
// side of hiding: a false positive costs one file's text, a false negative a
// key.
//
// Any other file is shown with the value of each credential on it replaced by
// Masked, keeping the key so that the structure stays readable
// ("db.password=********"). A value is a credential when:
//
//   - it is assigned to a key that names one: key=value, key: value,
//     "key": "value", key := "…", key => "…", ("KEY", "value"), a query
//     parameter ?token=…, a "Password=…;" field of a connection string, an
//     XML <password>…</password> element or <add key="Password" value="…"/>.
//     A key names a credential when one of its parts (split at . _ - and
//     camelCase) is password, passwd, pwd, pass, passphrase, secret, token,
//     credential(s), apikey or a part ending in password, secret or token, or
//     when "key" follows api, access, secret, private, signing, encryption,
//     master, account, client, auth, consumer, subscription, license, deploy,
//     webhook or ssh; "_auth" (.npmrc) too. A key whose last part says it is
//     about the credential, not the credential (password_min_length,
//     token_url, secret_name, access_key_id, max_tokens), or that is public
//     (public_key, publishable_key), is not one;
//   - or it has the shape of a well-known token wherever it stands: AWS access
//     key ids, GitHub, GitLab, Slack, Stripe, OpenAI and Anthropic, Google,
//     npm, PyPI, SendGrid, Hugging Face, DigitalOcean, Shopify, Databricks
//     and Twilio keys, JWTs, Bearer and Basic authorization values, the
//     password of a URL (scheme://user:password@host), and what follows a
//     private key header on its line. The shapes are those of gitleaks' rule
//     set, cut to the vendors most seen in code.
//
// What counts as a value depends on the file. In configuration formats
// (properties, .env, INI, YAML, TOML, JSON, XML, shell, Dockerfile,
// Makefile, Markdown, text, unknown extensions) an unquoted value is a
// literal; in source code (Python, Go, JavaScript, HCL, SQL, …) only a
// quoted string literal is, so `password = request.POST['password']`, `token =
// self.get_token()` and `password=password` are code and stay as they are.
// Either way a value that refers to one kept elsewhere is not masked: empty,
// ${VAR}, $VAR, $(cmd), %(name)s, %VAR%, {{ … }}, <%= … %>, #{…}, a YAML
// alias, true/false/null, a run of one character (xxxx, ********), a
// <placeholder>, a format verb, or a sentence of UI text ("Enter your
// password").
//
// # What hone learns
//
// Masking what is shown is not enough: what hone learns from a file (the
// terms REFINE adds to a query, the names an association or a reason cites,
// the keywords sent to a model) comes from the index, not from the pack. So
// the index reads every file through Scrub: a secret file leaves only its
// path to learn from, and every value Mask would mask is overwritten before
// the file is tokenized or parsed. Nothing from a credential can then become
// a term, a definition, an association, a reason or a request body.
// --show-secrets (show_secrets) shows a file's text in the pack; it never
// makes a credential a term.
//
// The functions are pure and safe for concurrent use.
package secret

import (
	"bytes"
	"errors"
	"path"
	"regexp"
	"strings"
)

// Masked replaces the value of a credential.
const Masked = "********"

// ErrSecret is wrapped by every *Error: test with errors.Is.
var ErrSecret = errors.New("looks like a secret")

// Error is the error of a function that refuses to show a file because it
// looks like secret material.
type Error struct {
	Path   string // the file
	Reason string // what File said, e.g. "looks like a private key"
}

func (e *Error) Error() string { return e.Path + ": not shown: " + e.Reason }

// Unwrap returns ErrSecret.
func (e *Error) Unwrap() error { return ErrSecret }

// Reasons File gives.
const (
	PrivateKey  = "looks like a private key"
	Certificate = "looks like a certificate or key"
	Keystore    = "looks like a keystore"
	EnvFile     = "looks like a .env file"
	Credentials = "looks like a credentials file"
	Registry    = "looks like a registry login with a token"
	Kubeconfig  = "looks like a kubeconfig"
	KubeSecret  = "looks like a Kubernetes Secret"
	Terraform   = "looks like Terraform state (it holds secrets in plain text)"
	SecretsFile = "looks like a secrets file"
)

// names maps lower-cased base names to a reason.
var names = map[string]string{
	"id_rsa": PrivateKey, "id_dsa": PrivateKey, "id_ecdsa": PrivateKey, "id_ed25519": PrivateKey,
	"id_ecdsa_sk": PrivateKey, "id_ed25519_sk": PrivateKey,
	".envrc":      EnvFile,
	"credentials": Credentials, "credentials.json": Credentials, ".git-credentials": Credentials,
	".netrc": Credentials, "_netrc": Credentials, ".pgpass": Credentials, ".htpasswd": Credentials,
	"secrets.yml": SecretsFile, "secrets.yaml": SecretsFile, "secrets.json": SecretsFile, "secrets.toml": SecretsFile,
	"kubeconfig": Kubeconfig,
}

// extensions maps lower-cased extensions to a reason.
var extensions = map[string]string{
	".key": PrivateKey, ".ppk": PrivateKey,
	".pem": Certificate, ".crt": Certificate, ".cer": Certificate, ".der": Certificate,
	".p12": Keystore, ".pfx": Keystore, ".jks": Keystore, ".keystore": Keystore, ".bks": Keystore,
	".tfstate": Terraform, ".kubeconfig": Kubeconfig,
}

// registryFiles hold a registry's settings and, sometimes, a token: secret
// only when registryToken matches.
var registryFiles = map[string]bool{".npmrc": true, ".pypirc": true, ".dockercfg": true, ".yarnrc.yml": true}

var registryToken = regexp.MustCompile(`(?i)(_authtoken|_auth|_password|npmauthtoken|password|"auth"|token)\s*["']?\s*[:=]`)

// envPlaceholders are suffixes of .env files that hold examples, not values.
var envPlaceholders = []string{".example", ".sample", ".template", ".dist", ".defaults", ".tmpl", ".tpl"}

var (
	privateKeyHeader = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----`)
	kubeSecretKind   = regexp.MustCompile(`(?m)^kind:\s*["']?Secret["']?\s*$`)
	kubeSecretData   = regexp.MustCompile(`(?m)^(data|stringData):`)
)

// File says why the file at p (a repository path) with content is secret
// material, or "" when it is not. content may be nil: only the name is then
// judged.
func File(p string, content []byte) string {
	slashed := strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	base := path.Base(slashed)
	if reason := byName(slashed, base); reason != "" {
		if reason == Certificate && privateKeyHeader.Match(content) {
			return PrivateKey
		}
		return reason
	}
	if len(content) == 0 {
		return ""
	}
	if bytes.Contains(content, []byte("PRIVATE KEY")) && privateKeyHeader.Match(content) {
		return PrivateKey
	}
	switch {
	case registryFiles[base] || strings.HasSuffix(slashed, ".docker/config.json") || strings.HasSuffix(slashed, ".gem/credentials"):
		if registryToken.Match(content) {
			return Registry
		}
	case bytes.Contains(content, []byte("client-key-data:")):
		return Kubeconfig
	case bytes.Contains(content, []byte("Secret")) && kubeSecretKind.Match(content) &&
		kubeSecretData.Match(content) && !bytes.Contains(content, []byte("{{")):
		return KubeSecret
	}
	return ""
}

// byName judges a lower-cased slashed path and its base name.
func byName(slashed, base string) string {
	if r, ok := names[base]; ok {
		return r
	}
	if strings.HasSuffix(slashed, ".kube/config") {
		return Kubeconfig
	}
	if strings.HasPrefix(base, "client_secret") && strings.HasSuffix(base, ".json") {
		return Credentials
	}
	if base == ".env" || strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env") {
		for _, s := range envPlaceholders {
			if strings.HasSuffix(base, s) {
				return ""
			}
		}
		return EnvFile
	}
	if strings.HasSuffix(base, ".tfstate.backup") {
		return Terraform
	}
	return extensions[path.Ext(base)]
}
