package secret

import (
	"bytes"
	"unsafe"
)

// Scrub returns the text of the file at p with nothing of a credential left
// in it, for whatever learns from text: the index's terms, definitions and
// associations, and through them every term REFINE learns, every reason and
// every request sent to a model. A file that is secret material (File) keeps
// only its line breaks; in any other file each value Mask would mask is
// overwritten by as many '*' as it has bytes. Lengths, offsets and line
// numbers stay true, so a parse of the scrubbed text places definitions where
// they are in the file.
//
// content is never written: when nothing is to be scrubbed (the common case,
// one pass of substring searches), content itself is returned.
func Scrub(p string, content []byte) []byte {
	if File(p, content) != "" {
		out := bytes.Repeat([]byte{' '}, len(content))
		for i, c := range content {
			if c == '\n' {
				out[i] = '\n'
			}
		}
		return out
	}
	m := For(p, content)
	if !m.keys && m.shapes == 0 {
		return content
	}
	m.keepLength = true
	var out []byte
	for off := 0; off < len(content); {
		end := bytes.IndexByte(content[off:], '\n')
		if end < 0 {
			end = len(content)
		} else {
			end += off
		}
		// The line is only read while it is scanned: viewed without a copy.
		line := unsafe.String(unsafe.SliceData(content[off:end]), end-off)
		if masked, ok := m.Line(line); ok {
			if out == nil {
				out = bytes.Clone(content)
			}
			if len(masked) == len(line) {
				copy(out[off:end], masked)
			} else { // not expected: keep nothing of the line rather than shift the text
				for i := off; i < end; i++ {
					out[i] = ' '
				}
			}
		}
		off = end + 1
	}
	if out == nil {
		return content
	}
	return out
}
