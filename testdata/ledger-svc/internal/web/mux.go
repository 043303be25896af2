// Package web wires the HTTP endpoints.
package web

import (
	"context"
	"net/http"
	"strings"
	"time"

	"example.com/ledger/internal/credentials"
	"example.com/ledger/internal/ledger"
	"example.com/ledger/internal/signin"
)

type accountKey struct{}

// Mux returns the service's routes.
func Mux(issuer *credentials.Issuer, books *ledger.Books) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("POST /signin", signin.Handler(signin.Keys{}, issuer))
	mux.Handle("POST /entries", requireBearer(issuer, books.PostEntry))
	mux.Handle("GET /balances/{account}", requireBearer(issuer, books.Balance))
	return mux
}

func requireBearer(issuer *credentials.Issuer, next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		b, err := issuer.Check(raw, time.Now())
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		next(w, r.WithContext(context.WithValue(r.Context(), accountKey{}, b.Account)))
	})
}
