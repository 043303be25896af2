// Package httpmw holds the wrappers every request passes through.
package httpmw

import "net/http"

// Wrapper decorates a handler.
type Wrapper func(http.Handler) http.Handler

// Chain applies wrappers so that the first one sees the request first.
func Chain(h http.Handler, ws ...Wrapper) http.Handler {
	for i := len(ws) - 1; i >= 0; i-- {
		h = ws[i](h)
	}
	return h
}
