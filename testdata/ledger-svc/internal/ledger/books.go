// Package ledger keeps double-entry accounts.
package ledger

import (
	"encoding/json"
	"net/http"
	"sync"
)

// Entry moves Cents from one account to another.
type Entry struct {
	From, To string
	Cents    int64
}

// Books holds balances.
type Books struct {
	mu       sync.Mutex
	balances map[string]int64
}

// NewBooks returns empty books.
func NewBooks() *Books { return &Books{balances: map[string]int64{}} }

// PostEntry answers POST /entries.
func (b *Books) PostEntry(w http.ResponseWriter, r *http.Request) {
	var e Entry
	if err := json.NewDecoder(r.Body).Decode(&e); err != nil || e.Cents <= 0 || e.From == e.To {
		http.Error(w, "bad entry", http.StatusBadRequest)
		return
	}
	b.mu.Lock()
	b.balances[e.From] -= e.Cents
	b.balances[e.To] += e.Cents
	b.mu.Unlock()
	w.WriteHeader(http.StatusCreated)
}

// Balance answers GET /balances/{account}.
func (b *Books) Balance(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	cents := b.balances[r.PathValue("account")]
	b.mu.Unlock()
	json.NewEncoder(w).Encode(map[string]int64{"cents": cents})
}
