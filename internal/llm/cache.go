package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
)

// promptVersion changes whenever the prompt or the judgment's meaning does,
// so that old cached judgments are not reused.
const promptVersion = "hone-llm-2"

// cache stores judgments as small JSON files, <dir>/<k[:2]>/<k>.json, where k
// is the SHA-256 of (prompt version, provider, model, task, path, SHA-256 of
// the view). Files, not a database: several hone processes may share the
// directory, and a write is a rename, so readers never see half a file.
// It is best effort: a failed read is a miss, a failed write is ignored.
type cache struct{ dir string }

func cacheKey(provider, model, task, path, view string) string {
	v := sha256.Sum256([]byte(view))
	h := sha256.New()
	for _, s := range []string{promptVersion, provider, model, task, path, hex.EncodeToString(v[:])} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *cache) file(key string) string { return filepath.Join(c.dir, key[:2], key+".json") }

func (c *cache) get(key string) (judgment, bool) {
	if c == nil {
		return judgment{}, false
	}
	data, err := os.ReadFile(c.file(key))
	if err != nil {
		return judgment{}, false
	}
	var j judgment
	if json.Unmarshal(data, &j) != nil || j.Relevance < 0 || j.Relevance > 1 {
		return judgment{}, false
	}
	return j, true
}

func (c *cache) put(key string, j judgment) {
	if c == nil {
		return
	}
	data, err := json.Marshal(j)
	if err != nil {
		return
	}
	dst := c.file(key)
	if os.MkdirAll(filepath.Dir(dst), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), dst) != nil {
		os.Remove(tmp.Name())
	}
}
