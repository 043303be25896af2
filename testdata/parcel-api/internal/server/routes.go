// Package server assembles the HTTP API.
package server

import (
	"net/http"

	"example.com/parcel/internal/config"
	"example.com/parcel/internal/httpmw"
	"example.com/parcel/internal/parcels"
)

// Routes returns the handler for every path the service answers.
func Routes(cfg config.Config) http.Handler {
	store := parcels.NewStore(cfg.DatabaseURL)
	h := parcels.Handlers{Store: store}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/parcels/{id}", h.Get)
	mux.HandleFunc("POST /v1/parcels", h.Create)
	mux.HandleFunc("POST /v1/parcels/{id}/scan", h.Scan)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	return httpmw.Chain(mux, httpmw.Recover, httpmw.AccessLog)
}
