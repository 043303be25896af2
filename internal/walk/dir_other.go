//go:build !linux

package walk

import "os"

// dir is an open directory, here just its path: listing uses os.ReadDir and
// files are stat'ed by full path.
type dir struct {
	abs string
}

func openRoot(abs string) (*dir, error) { return &dir{abs: abs}, nil }

func (d *dir) open(_, abs string) (*dir, error) { return &dir{abs: abs}, nil }

func (d *dir) close() {}

// stat stats d itself.
func (d *dir) stat() (meta, error) {
	info, err := os.Stat(d.abs)
	if err != nil {
		return meta{}, err
	}
	return metaOf(info), nil
}

// list reads all entries of d. On an error it returns the entries read
// before it.
func (d *dir) list([]byte) ([]dirent, error) {
	des, err := os.ReadDir(d.abs)
	ents := make([]dirent, len(des))
	for i, de := range des {
		ents[i] = dirent{name: de.Name(), typ: de.Type()}
	}
	return ents, err
}

// lstat stats the entry name of d without following a symlink.
func (d *dir) lstat(name string) (meta, error) {
	info, err := os.Lstat(d.abs + string(os.PathSeparator) + name)
	if err != nil {
		return meta{}, err
	}
	return metaOf(info), nil
}
