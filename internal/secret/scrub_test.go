package secret

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScrub(t *testing.T) {
	for _, tc := range []struct {
		name, path, in string
		gone           []string // must not survive
		kept           []string // must survive
	}{
		{"properties", "src/application.properties", "db.url=jdbc:postgresql://db/app\ndb.password=hunter2\n",
			[]string{"hunter2"}, []string{"db.password=", "jdbc:postgresql://db/app"}},
		{"python literal", "app/settings.py", "DEBUG = True\nSECRET_KEY = 'x9f8s7d6kq2'\npassword = request.POST['password']\n",
			[]string{"x9f8s7d6kq2"}, []string{"SECRET_KEY = '", "request.POST['password']"}},
		{"url password", "docker-compose.yml", "DATABASE_URL: postgres://app:pa55word9@db:5432/app\n",
			[]string{"pa55word9"}, []string{"postgres://app:", "@db:5432/app"}},
		{"json client secret", "config/oauth.json", `{"client_id": "abc", "client_secret": "zq81mmxk2p0s"}` + "\n",
			[]string{"zq81mmxk2p0s"}, []string{`"client_id": "abc"`}},
		{"aws key anywhere", "notes.txt", "key " + awsKey + " here\n", []string{awsKey[4:]}, []string{"key AKIA"}},
		{"aws key near miss (not base32)", "deploy.sh", "export ID=AKIA0189ABCD0189WXYZ\n", []string{"0189ABCD0189WXYZ"}, []string{"export ID=AKIA"}},
		{"secret file whole", "config/credentials.json", `{"installed": {"client_secret": "credjson-client-secret-xyz", "note": "plain words"}}` + "\n",
			[]string{"credjson", "installed", "plain words"}, nil},
		{"certificate whole", "certs/server.pem", "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUYz\n-----END CERTIFICATE-----\n",
			[]string{"MIIBszCCAVmg", "CERTIFICATE"}, nil},
		{"nothing to scrub", "pkg/a.go", "package a\n\nfunc Token() string { return tok }\n", nil, []string{"func Token() string { return tok }"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			out := Scrub(tc.path, in)
			if string(in) != tc.in {
				t.Fatalf("Scrub wrote into its input")
			}
			if len(out) != len(in) || bytes.Count(out, []byte("\n")) != bytes.Count(in, []byte("\n")) {
				t.Fatalf("Scrub changed the length or the lines: %q", out)
			}
			for i, c := range in { // line breaks stay where they were
				if (c == '\n') != (out[i] == '\n') {
					t.Fatalf("line break moved at %d: %q", i, out)
				}
			}
			for _, g := range tc.gone {
				if bytes.Contains(out, []byte(g)) {
					t.Errorf("%q survived: %q", g, out)
				}
			}
			for _, k := range tc.kept {
				if !bytes.Contains(out, []byte(k)) {
					t.Errorf("%q lost: %q", k, out)
				}
			}
			if len(tc.gone) == 0 && &out[0] != &in[0] {
				t.Errorf("nothing scrubbed, yet the text was copied")
			}
		})
	}
}

// TestScrubAgreesWithMask: whatever Mask hides on a line, Scrub hides too.
func TestScrubAgreesWithMask(t *testing.T) {
	text := strings.Join([]string{
		"api_key: " + stripeKey,
		"token = \"" + ghToken + "\"",
		"Authorization: Bearer " + jwt,
		"<password>s3cr3tPassw0rd</password>",
		"redis://:r3d1sPass@cache:6379/0",
	}, "\n")
	masked, n := Mask("conf/app.yml", text)
	if n != 5 {
		t.Fatalf("Mask changed %d lines, want 5:\n%s", n, masked)
	}
	out := string(Scrub("conf/app.yml", []byte(text)))
	for _, v := range []string{stripeKey[8:], ghToken[4:], jwt[3:], "s3cr3tPassw0rd", "r3d1sPass"} {
		if strings.Contains(out, v) || strings.Contains(masked, v) {
			t.Errorf("%q survived:\nmask:  %s\nscrub: %s", v, masked, out)
		}
	}
}

func BenchmarkScrub(b *testing.B) {
	var src strings.Builder
	for i := 0; i < 400; i++ {
		src.WriteString("func handleToken(ctx context.Context, key string) (string, error) { return lookup(ctx, key) }\n")
	}
	data := []byte(src.String())
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		Scrub("pkg/auth/token.go", data)
	}
}

// TestHasHint: the switch in hasHint finds exactly the keyHints, in any case.
func TestHasHint(t *testing.T) {
	naive := func(s string) bool {
		l := strings.ToLower(s)
		for _, h := range keyHints {
			if strings.Contains(l, h) {
				return true
			}
		}
		return false
	}
	words := []string{"", "p", "pw", "PW", "pWd", "pa", "pas", "pass", "PaSs", "secre", "SECRET", "toke", "Token",
		"ke", "KEY", "cre", "Cred", "aut", "AUTH", "xpassy", "sp", "apw", "tokey", "author", "monkey", "kex", "pa ss"}
	for _, a := range words {
		for _, b := range words {
			s := a + "_" + b
			if got, want := hasHint(s), naive(s); got != want {
				t.Errorf("hasHint(%q) = %v, want %v", s, got, want)
			}
			if got, want := hasHint([]byte(a+b)), naive(a+b); got != want {
				t.Errorf("hasHint(%q) = %v, want %v", a+b, got, want)
			}
		}
	}
}

// BenchmarkScrubTree scrubs the source files of the tree at
// $HONE_BENCH_ROOT (e.g. a django checkout), as the index does each file it
// reads: mostly lines with no hint of a credential.
func BenchmarkScrubTree(b *testing.B) {
	root := os.Getenv("HONE_BENCH_ROOT")
	if root == "" {
		b.Skip("set HONE_BENCH_ROOT to a repository")
	}
	type file struct {
		path string
		data []byte
	}
	var files []file
	var total int64
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || total > 64<<20 {
			return nil
		}
		switch filepath.Ext(p) {
		case ".py", ".go", ".ts", ".js", ".java", ".rs", ".cs", ".rb", ".md", ".txt", ".yml", ".json":
			if data, err := os.ReadFile(p); err == nil && len(data) < 1<<20 {
				files = append(files, file{p, data})
				total += int64(len(data))
			}
		}
		return nil
	})
	b.SetBytes(total)
	for b.Loop() {
		for _, f := range files {
			Scrub(f.path, f.data)
		}
	}
}
