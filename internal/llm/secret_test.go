package llm

import "testing"

func TestLooksSecret(t *testing.T) {
	tests := []struct {
		path, content string
		want          bool
	}{
		{".env", "", true},
		{"deploy/.env.production", "", true},
		{"certs/server.pem", "", true},
		{"tls/server.key", "", true},
		{"home/.ssh/id_rsa.pub", "", true},
		{"keystore.p12", "", true},
		{"aws/credentials", "", true},
		{"config/secrets.yaml", "", true},
		{"src/monkey.py", "def key(): pass", false},
		{"src/auth/token.py", "def refresh_token(token):\n    return token.expiry", false},
		{"settings.py", "AWS_ACCESS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE'", true},
		{"k.txt", "-----BEGIN RSA PRIVATE KEY-----\nMIIE...", true},
		{"k.txt", "-----BEGIN OPENSSH PRIVATE KEY-----", true},
		{"ci.yml", "token: ghp_abcdefghijklmnopqrstuvwxyz0123456789", true},
		{"client.py", `client = OpenAI(api_key="sk-proj-Abc123Def456Ghi789Jkl")`, true},
		{"slack.py", `SLACK = "xoxb-123456789012-abcdefghij"`, true},
		{"conf.py", `api_key = 'q8Zr2Lx9Vb4Nt7Pw1Ks6'`, true},
		{"conf.py", `SECRET_KEY = "django-insecure-7f#k2@x9!q$z0m8w"`, true},
		{"conf.py", `api_key = ''`, false},
		{"conf.py", `password = 'aaaaaaaaaaaaaaaaaaaa'`, false},
		{"conf.py", `token_url = "https://accounts.example.com/o/oauth2/token"`, false},
		{"views.py", `def get_api_key(request):\n    return request.headers["X-Api-Key"]`, false},
		{"test_crypto.py", `PUBLIC = "-----BEGIN PUBLIC KEY-----"`, false},
	}
	for _, tt := range tests {
		if got := LooksSecret(tt.path, []byte(tt.content)); got != tt.want {
			t.Errorf("LooksSecret(%q, %q) = %v, want %v", tt.path, tt.content, got, tt.want)
		}
	}
}
