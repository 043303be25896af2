// Package signin exchanges an API key for a bearer credential.
package signin

import (
	"encoding/json"
	"net/http"
	"time"

	"example.com/ledger/internal/credentials"
)

// Keys maps API keys to account names.
type Keys map[string]string

// Handler answers POST /signin.
func Handler(keys Keys, issuer *credentials.Issuer) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			APIKey string `json:"api_key"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		account, ok := keys[req.APIKey]
		if !ok {
			http.Error(w, "unknown key", http.StatusUnauthorized)
			return
		}
		json.NewEncoder(w).Encode(map[string]string{"bearer": issuer.Issue(account, time.Now())})
	}
}
