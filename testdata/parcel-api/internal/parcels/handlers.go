package parcels

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"
)

// Handlers serve the parcel resources.
type Handlers struct{ Store *Store }

// Get answers GET /v1/parcels/{id}.
func (h Handlers) Get(w http.ResponseWriter, r *http.Request) {
	p, err := h.Store.Get(r.PathValue("id"))
	if errors.Is(err, ErrNotFound) {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	json.NewEncoder(w).Encode(p)
}

// Create answers POST /v1/parcels.
func (h Handlers) Create(w http.ResponseWriter, r *http.Request) {
	var p Parcel
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil || p.ID == "" {
		http.Error(w, "bad parcel", http.StatusBadRequest)
		return
	}
	p.Created = time.Now()
	h.Store.Put(&p)
	w.WriteHeader(http.StatusCreated)
}

// Scan answers POST /v1/parcels/{id}/scan.
func (h Handlers) Scan(w http.ResponseWriter, r *http.Request) {
	p, err := h.Store.Get(r.PathValue("id"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	var s Scan
	if err := json.NewDecoder(r.Body).Decode(&s); err != nil {
		http.Error(w, "bad scan", http.StatusBadRequest)
		return
	}
	s.At = time.Now()
	p.Scans = append(p.Scans, s)
	w.WriteHeader(http.StatusNoContent)
}
