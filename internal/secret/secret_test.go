package secret

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Fake credentials of the right shapes. They are built at run time so that
// no scanner flags this file.
var (
	awsKey    = "AKIA" + "IOSFODNN7EXAMPLE"
	ghToken   = "ghp_" + strings.Repeat("aB3", 12)
	glToken   = "glpat-" + "xY7zQ2wE9rT4uI1oP6aS"
	slackTok  = "xoxb-" + "123456789012-abcdefghijKLMN"
	stripeKey = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
	openAIKey = "sk-proj-" + "Abc123Def456Ghi789Jkl012Mno"
	googleKey = "AIza" + "SyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"
	jwt       = "eyJ" + "hbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	pemHeader = "-----BEGIN RSA " + "PRIVATE KEY-----"
)

func TestFile(t *testing.T) {
	for _, tc := range []struct {
		name, path, content, want string
	}{
		{"id_rsa", "home/.ssh/id_rsa", "", PrivateKey},
		{"id_ed25519", "deploy/id_ed25519", "", PrivateKey},
		{"public key", "home/.ssh/id_rsa.pub", "ssh-rsa AAAAB3Nza user@host", ""},
		{"key file", "tls/server.key", "", PrivateKey},
		{"pem certificate", "certs/server.pem", "-----BEGIN CERTIFICATE-----\nMIIB\n", Certificate},
		{"pem with a key", "certs/server.pem", "-----BEGIN CERTIFICATE-----\nMIIB\n" + pemHeader + "\nMIIE\n", PrivateKey},
		{"crt", "ca.crt", "", Certificate},
		{"keystore", "android/release.jks", "", Keystore},
		{"p12", "keystore.p12", "", Keystore},
		{"key header in any file", "notes/k.txt", "some text\n" + pemHeader + "\nMIIE...\n", PrivateKey},
		{"openssh key", "k", "-----BEGIN OPENSSH " + "PRIVATE KEY-----\nb3Bl\n", PrivateKey},
		{"pgp key", "k.asc", "-----BEGIN PGP " + "PRIVATE KEY BLOCK-----\n", PrivateKey},
		{"service account json", "gcp/sa.json", `{"type": "service_account", "private_key": "` + "-----BEGIN " + `PRIVATE KEY-----\nMIIE"}`, PrivateKey},
		{"public key pem", "keys/public.txt", "-----BEGIN PUBLIC KEY-----\nMIIB\n", ""},
		{".env", ".env", "", EnvFile},
		{".env.production", "deploy/.env.production", "", EnvFile},
		{"prod.env", "config/prod.env", "", EnvFile},
		{".envrc", ".envrc", "", EnvFile},
		{".env.example", ".env.example", "API_KEY=\n", ""},
		{".env.sample", "app/.env.sample", "", ""},
		{"credentials.json", "credentials.json", "", Credentials},
		{"aws credentials", "home/.aws/credentials", "", Credentials},
		{"client secret", "client_secret_1234.apps.json", "", Credentials},
		{".netrc", ".netrc", "", Credentials},
		{".pgpass", ".pgpass", "", Credentials},
		{"secrets.yml", "config/secrets.yml", "", SecretsFile},
		{"secrets.py is code", "app/secrets.py", "import secrets\n", ""},
		{"credentials.py is code", "auth/credentials.py", "def load(): ...\n", ""},
		{"tfstate", "infra/terraform.tfstate", "", Terraform},
		{"tfstate backup", "infra/terraform.tfstate.backup", "", Terraform},
		{"kubeconfig by path", "home/.kube/config", "", Kubeconfig},
		{"kubeconfig by name", "ci/kubeconfig", "", Kubeconfig},
		{"kubeconfig by content", "ci/cluster.yaml", "users:\n- name: a\n  user:\n    client-key-data: LS0t\n", Kubeconfig},
		{"kube secret", "k8s/db.yaml", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: aHVudGVy\n", KubeSecret},
		{"kube secret template", "chart/templates/secret.yaml", "kind: Secret\ndata:\n  password: {{ .Values.password | b64enc }}\n", ""},
		{"kube secret reference", "k8s/deploy.yaml", "kind: Deployment\nspec:\n  secretKeyRef:\n    name: db\n", ""},
		{".npmrc with a token", "web/.npmrc", "//registry.npmjs.org/:_authToken=npm_abc\n", Registry},
		{".npmrc without", "web/.npmrc", "save-exact=true\n", ""},
		{".pypirc with a password", ".pypirc", "[pypi]\nusername = __token__\npassword = pypi-AgEI\n", Registry},
		{"docker config", "home/.docker/config.json", `{"auths": {"ghcr.io": {"auth": "dXNlcjpwYXNz"}}}`, Registry},
		{"windows path", `certs\server.key`, "", PrivateKey},
		{"code", "src/auth/tokens.py", "def refresh_token(token):\n    return token.expiry\n", ""},
		{"monkey", "src/monkey.py", "def key(): pass\n", ""},
		{"config", "config/application.properties", "db.password=hunter2\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := File(tc.path, []byte(tc.content)); got != tc.want {
				t.Errorf("File(%q, %q) = %q, want %q", tc.path, tc.content, got, tc.want)
			}
		})
	}
}

func TestFileByNameOnly(t *testing.T) {
	// A keystore is binary: the name alone must decide before any read.
	if got := File("release.keystore", nil); got != Keystore {
		t.Errorf("File(release.keystore, nil) = %q, want %q", got, Keystore)
	}
	if got := File("src/main.go", nil); got != "" {
		t.Errorf("File(src/main.go, nil) = %q, want \"\"", got)
	}
}

func TestError(t *testing.T) {
	err := fmt.Errorf("pack: %w", &Error{Path: "id_rsa", Reason: PrivateKey})
	if !errors.Is(err, ErrSecret) {
		t.Errorf("errors.Is(%v, ErrSecret) = false", err)
	}
	var se *Error
	if !errors.As(err, &se) || se.Reason != PrivateKey {
		t.Errorf("errors.As(%v) = %v", err, se)
	}
	if want := "pack: id_rsa: not shown: looks like a private key"; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
}

// TestLineMasks lists lines whose credential must be masked, in the formats
// the issue names: properties, YAML, TOML, INI, .env, JSON, XML and code.
func TestLineMasks(t *testing.T) {
	for _, tc := range []struct {
		name, path, line, want string
	}{
		// The two lines the LLM evaluator's filter missed (issue 7).
		{"properties", "src/main/resources/application.properties", "db.password=hunter2", "db.password=********"},
		{"yaml unquoted", "config/database.yml", "  password: s3cr3tPassw0rd", "  password: ********"},
		{"properties spaces", "app.properties", "spring.datasource.password = hunter2 two", "spring.datasource.password = ********"},
		{"yaml quoted", "config.yaml", `  api_key: "abc123def"`, `  api_key: "********"`},
		{"yaml list item", "values.yaml", "- token: abcdef123", "- token: ********"},
		{"yaml flow", "c.yaml", "db: {user: app, password: hunter2}", "db: {user: app, password: ********}"},
		{"toml", "config.toml", `secret_key = "q8Zr2Lx9Vb4N"`, `secret_key = "********"`},
		{"ini", "setup.cfg", "passwd = hunter2", "passwd = ********"},
		{"my.cnf", "my.cnf", "password=hunter2", "password=********"},
		{".env export", "deploy.sh", "export GITHUB_TOKEN=abc123", "export GITHUB_TOKEN=********"},
		{".env", "config/app.env.example", "STRIPE_SECRET=whsec_123", "STRIPE_SECRET=********"},
		{"dockerfile", "Dockerfile", "ENV DB_PASSWORD=hunter2", "ENV DB_PASSWORD=********"},
		{"makefile", "Makefile", "TOKEN ?= abc123", "TOKEN ?= ********"},
		{"json", "appsettings.json", `  "ClientSecret": "abc123",`, `  "ClientSecret": "********",`},
		{"json number", "config.json", `  "password": 123456,`, `  "password": ********,`},
		{"npmrc auth", ".npmrc", "//registry.npmjs.org/:_auth=dXNlcjpwYXNz", "//registry.npmjs.org/:_auth=********"},
		{"xml element", "pom.xml", "<password>hunter2</password>", "<password>********</password>"},
		{"xml add", "web.config", `<add key="ApiKey" value="abc123" />`, `<add key="ApiKey" value="********" />`},
		{"spring xml", "beans.xml", `<property name="password" value="hunter2"/>`, `<property name="password" value="********"/>`},
		{"cli option", "run.sh", "mysql --user=root --password=hunter2 app", "mysql --user=root --password=******** app"},
		{"python", "settings.py", `SECRET_KEY = 'django-insecure-7f#k2@x9'`, `SECRET_KEY = '********'`},
		{"python bytes", "settings.py", `API_KEY = b"abc123"`, `API_KEY = b"********"`},
		{"python annotation", "conf.py", `password: str = "hunter2"`, `password: str = "********"`},
		{"python kwarg", "db.py", `connect(host="db", password="hunter2")`, `connect(host="db", password="********")`},
		{"python environ", "test_x.py", `os.environ["API_KEY"] = "abc123"`, `os.environ["API_KEY"] = "********"`},
		{"python dict", "conf.py", `{"user": "app", "password": "hunter2"}`, `{"user": "app", "password": "********"}`},
		{"python setenv pair", "conf.py", `os.environ.setdefault("SECRET_KEY", "abc123")`, `os.environ.setdefault("SECRET_KEY", "********")`},
		{"php define", "wp-config.php", `define('DB_PASSWORD', 'hunter2');`, `define('DB_PASSWORD', '********');`},
		{"php array", "config.php", `'password' => 'hunter2',`, `'password' => '********',`},
		{"php variable", "db.php", `$password = "hunter2";`, `$password = "********";`},
		{"go const", "main.go", `const apiKey = "abc123"`, `const apiKey = "********"`},
		{"go typed var", "main.go", `var Token string = "tk_8f3a9c2e"`, `var Token string = "********"`},
		{"go short", "main.go", `secret := "abc123"`, `secret := "********"`},
		{"go struct literal", "main.go", `cfg := Config{User: "app", Password: "hunter2"}`, `cfg := Config{User: "app", Password: "********"}`},
		{"java", "Db.java", `private static final String DB_PASSWORD = "hunter2";`, `private static final String DB_PASSWORD = "********";`},
		{"kotlin", "Db.kt", `val apiKey: String = "abc123"`, `val apiKey: String = "********"`},
		{"js object", "config.js", `  clientSecret: 'abc123',`, `  clientSecret: '********',`},
		{"ts field", "api.ts", `private accessToken: string = "Xy7Pq2Lm9";`, `private accessToken: string = "********";`},
		{"ruby hash", "config.rb", `config.api_key = "abc123"`, `config.api_key = "********"`},
		{"terraform", "main.tf", `  password = "hunter2"`, `  password = "********"`},
		{"connection string field", "Db.cs", `var cs = "Server=db;User Id=app;Password=hunter2;";`, `var cs = "Server=db;User Id=app;Password=********;";`},
		{"url query", "client.py", `URL = "https://api.example.com/v1?api_key=abc123&q=1"`, `URL = "https://api.example.com/v1?api_key=********&q=1"`},
		{"url password", "settings.py", `DATABASE_URL = "postgres://app:hunter2@db:5432/app"`, `DATABASE_URL = "postgres://app:********@db:5432/app"`},
		{"url password env", ".env.example", "DATABASE_URL=mysql://root:hunter2@localhost/app", "DATABASE_URL=mysql://root:********@localhost/app"},
		{"redis empty user", "c.yaml", "url: redis://:hunter2@cache:6379/0", "url: redis://:********@cache:6379/0"},
		{"aws key anywhere", "README.md", "use " + awsKey + " here", "use AKIA******** here"},
		{"github token", "ci.yml", "      GH: " + ghToken, "      GH: ghp_********"},
		{"gitlab token", "notes.txt", "clone with " + glToken, "clone with glpat-********"},
		{"slack token", "bot.py", `client = WebClient(` + slackTok + `)`, `client = WebClient(xoxb-********)`},
		{"stripe", "pay.js", `const stripe = Stripe("` + stripeKey + `")`, `const stripe = Stripe("sk_live_********")`},
		{"openai", "client.py", `client = OpenAI(api_key=os.getenv("K") or "` + openAIKey + `")`, `client = OpenAI(api_key=os.getenv("K") or "sk-proj-********")`},
		{"google", "maps.js", `const KEY_FOR_MAPS = "` + googleKey + `";`, `const KEY_FOR_MAPS = "AIza********";`},
		{"jwt", "test_api.py", `headers = {"X": "` + jwt + `"}`, `headers = {"X": "eyJ********"}`},
		{"bearer", "api.http", "Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345", "Authorization: Bearer ********"},
		{"basic", "curl.sh", `curl -H "Authorization: Basic dXNlcjpwYXNzd29yZA=="`, `curl -H "Authorization: Basic ********"`},
		{"key after header", "sa.json", `  "private_key": "` + pemHeader + `\nMIIEvQ\n",`, `  "private_key": "********",`},
		{"passphrase", "gpg.conf", "passphrase hunter2 no op, but: passphrase=hunter2", "passphrase hunter2 no op, but: passphrase=********"},
		{"two on a line", "c.properties", "user=app;password=hunter2;token=abc", "user=app;password=********;token=********"},
		{"view gutter", "config/database.yml", "12 |   password: s3cr3t words", "12 |   password: ********"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := For(tc.path, nil).Line(tc.line)
			if got != tc.want || !ok {
				t.Errorf("For(%q).Line(%q) = %q, %v; want %q, true", tc.path, tc.line, got, ok, tc.want)
			}
		})
	}
}

// TestLineKeeps lists lines that must come back unchanged: code whose value
// is an expression, keys about a credential, references and placeholders.
func TestLineKeeps(t *testing.T) {
	for _, tc := range []struct {
		name, path, line string
	}{
		{"request value", "views.py", "password = request.POST['password']"},
		{"def", "models.py", "def check_password(self, raw_password):"},
		{"method call", "client.py", "token = self.get_token()"},
		{"if not", "forms.py", "if not password:"},
		{"compare", "auth.py", `if password == "secret":`},
		{"not equal", "auth.js", `if (token !== "") {`},
		{"variable", "db.py", "connect(password=password)"},
		{"environ", "settings.py", `SECRET_KEY = os.environ["SECRET_KEY"]`},
		{"getenv go", "main.go", `Password: os.Getenv("DB_PASSWORD"),`},
		{"go struct tag", "user.go", "\tPassword string `json:\"password\"`"},
		{"go param", "auth.go", "func Login(user, password string) error {"},
		{"type annotation", "auth.py", "def login(password: str) -> bool:"},
		{"ts param", "auth.ts", "function login(password: string): boolean {"},
		{"field list", "forms.py", `fields = ["username", "password"]`},
		{"dict lookup", "auth.py", `data["password"]`},
		{"html input", "login.html", `<input type="password" name="password">`},
		{"empty", "conf.py", `api_key = ''`},
		{"empty env", ".env.example", "API_KEY="},
		{"yaml nested", "config.yml", "password:"},
		{"yaml reference", "database.yml", "  password: <%= ENV['DB_PASSWORD'] %>"},
		{"spring placeholder", "application.properties", "db.password=${DB_PASSWORD}"},
		{"shell reference", "run.sh", "export TOKEN=$GITHUB_TOKEN"},
		{"shell command", "run.sh", "PASSWORD=$(cat /run/secrets/db)"},
		{"helm", "values.yaml", "  password: {{ .Values.db.password }}"},
		{"yaml alias", "config.yml", "  password: *default_password"},
		{"yaml block", "config.yml", "  token: |"},
		{"boolean", "config.yml", "secret: false"},
		{"placeholder", ".env.example", "API_KEY=<your-api-key>"},
		{"masked already", "config.yml", "password: ********"},
		{"xxx", "config.ini", "password = xxxxxxxx"},
		{"format verb", "db.py", `password = "%s"`},
		{"sql placeholder", "db.py", `cur.execute(q, password=?)`},
		{"password file", "app.properties", "db.password.file=/run/secrets/db"},
		{"token url", "conf.py", `token_url = "https://accounts.example.com/o/oauth2/token"`},
		{"token type", "oauth.py", `token_type = "Bearer"`},
		{"min length", "settings.py", "PASSWORD_MIN_LENGTH = 8"},
		{"max tokens", "llm.yaml", "max_tokens: 4096"},
		{"access key id", "conf.ini", "aws_access_key_id = something"},
		{"secret name", "deploy.yaml", "      secretName: db-credentials"},
		{"public key", "conf.py", `public_key = "MIIBIjANBgkq"`},
		{"ui text", "en.json", `  "forgot_password": "Forgot your password?",`},
		{"ui text yaml", "en.yml", "  password_hint: Enter your password"},
		{"prose", "README.md", "The password is stored hashed; see auth/hash.py."},
		{"plain code", "handlers.py", "def refresh_token(token):"},
		{"lexer token", "smartif.py", `                token = "is not"`},
		{"url segment", "views.py", `reset_url_token = "set-password"`},
		{"session key name", "views.py", `INTERNAL_RESET_SESSION_TOKEN = "_password_reset_token"`},
		{"set_password", "creation.py", `set_password = 'ALTER USER %(user)s IDENTIFIED BY "%(password)s"'`},
		{"format placeholders", "base.py", `return '<%s token: "%s...">' % (`},
		{"template tag", "change.html", `<input name="set-password" value="{% translate 'Change password' %}">`},
		{"call args list", "utils.py", `for setting in ["NAME", "USER", "PASSWORD", "HOST", "PORT"]:`},
		{"name pair", "forms.py", `attrs={"autocomplete": "current-password", "autofocus": True}`},
		{"docs variable", "default.txt", "user = authenticate(request, username=username, password=password)"},
		{"docs attribute", "error-reporting.txt", "    pw = user.pass_word"},
		{"docs comment", "release.txt", "  password = # A project token."},
		{"docs call", "csrf.txt", "const csrftoken = getCookie('csrftoken');"},
		{"docs js object", "csrf.txt", "headers: {'X-CSRFToken': csrftoken},"},
		{"docs prose option", "uploads.txt", "Notice that we have to pass :attr:`request.FILES` to the form"},
		{"unclosed quote", "page.html", `<label>{% translate 'New password:' %}</label>`},
		{"github actions", "ci.yml", "  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}"},
		{"permission", "publish.yml", "  id-token: write"},
		{"map key name", "shared.go", `const progressTokenKey = "progressToken"`},
		{"urn", "token_exchange.go", `	TokenTypeIDToken = "urn:ietf:params:oauth:token-type:id_token"`},
		{"issuer", "client_test.go", `config.Credentials.Issuer = "https://other-issuer.example.com"`},
		{"po reference", "django.po", "#: contrib/admin/templates/registration/password_change_done.html:24"},
		{"keyword", "models.py", "        pass"},
		{"monkey", "zoo.py", `monkey = "george"`},
		{"cache key", "cache.py", `cache_key = "user:42"`},
		{"css class", "app.css", ".sk-skeleton-loader-container-large { color: red }"},
		{"bearer concat", "api.js", `headers.Authorization = "Bearer " + token;`},
		{"url without password", "conf.py", `URL = "postgres://app@db:5432/app"`},
		{"url reference", "ci.sh", "git clone https://x:${GH_TOKEN}@github.com/o/r"},
		{"public key header", "test_crypto.py", `PUBLIC = "-----BEGIN PUBLIC KEY-----"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, ok := For(tc.path, nil).Line(tc.line); got != tc.line || ok {
				t.Errorf("For(%q).Line(%q) = %q, %v; want it unchanged", tc.path, tc.line, got, ok)
			}
		})
	}
}

func TestMask(t *testing.T) {
	text := "db:\n  user: app\n  password: hunter2\n  host: db\n"
	got, n := Mask("config/database.yml", text)
	want := "db:\n  user: app\n  password: ********\n  host: db\n"
	if got != want || n != 1 {
		t.Errorf("Mask(database.yml) = %q, %d; want %q, 1", got, n, want)
	}
	if got, n := Mask("a.py", "x = 1\n"); got != "x = 1\n" || n != 0 {
		t.Errorf("Mask(a.py) = %q, %d; want it unchanged", got, n)
	}
}

func TestSplitKey(t *testing.T) {
	for _, tc := range []struct {
		key  string
		want string
	}{
		{"db.password", "db password"},
		{"apiKey", "api key"},
		{"APIKey", "api key"},
		{"AWS_SECRET_ACCESS_KEY", "aws secret access key"},
		{"x-api-key", "x api key"},
		{"clientSecret2", "client secret2"},
	} {
		if got := strings.Join(splitKey(tc.key), " "); got != tc.want {
			t.Errorf("splitKey(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
}

// FuzzLine checks that masking never panics, never grows a line without
// masking, and is idempotent.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"db.password=hunter2", `api_key = "abc"`, "password: x", `"a", "b"`, "?token=a&b", awsKey, jwt} {
		f.Add("a.properties", s)
		f.Add("a.py", s)
	}
	f.Fuzz(func(t *testing.T, p, line string) {
		m := For(p, nil)
		once, _ := m.Line(line)
		twice, again := m.Line(once)
		if again && twice != once {
			t.Errorf("Line(Line(%q)) = %q, want %q", line, twice, once)
		}
	})
}

// BenchmarkMask masks a 2,000-line configuration and source file, the size of
// a large file in a pack.
func BenchmarkMask(b *testing.B) {
	src, err := os.ReadFile("mask.go")
	if err != nil {
		b.Fatal(err)
	}
	var cfg strings.Builder
	for i := 0; cfg.Len() < len(src); i++ {
		fmt.Fprintf(&cfg, "service%d.url=https://svc%d.example.com\nservice%d.password=hunter%d\nservice%d.timeout=30\n", i, i, i, i, i)
	}
	for _, tc := range []struct{ path, text string }{{"mask.go", string(src)}, {"app.properties", cfg.String()}} {
		b.Run(tc.path, func(b *testing.B) {
			b.SetBytes(int64(len(tc.text)))
			for b.Loop() {
				Mask(tc.path, tc.text)
			}
		})
	}
}
