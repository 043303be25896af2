// Package parcels keeps parcels and their scan history.
package parcels

import (
	"errors"
	"sync"
	"time"
)

// ErrNotFound: no parcel has the id.
var ErrNotFound = errors.New("parcel not found")

// Parcel is one shipment.
type Parcel struct {
	ID        string    `json:"id"`
	Recipient string    `json:"recipient"`
	Scans     []Scan    `json:"scans"`
	Created   time.Time `json:"created"`
}

// Scan records where a parcel was seen.
type Scan struct {
	Depot string    `json:"depot"`
	At    time.Time `json:"at"`
}

// Store holds parcels in memory (the database URL is kept for later).
type Store struct {
	mu    sync.Mutex
	dsn   string
	items map[string]*Parcel
}

// NewStore returns an empty store.
func NewStore(dsn string) *Store { return &Store{dsn: dsn, items: map[string]*Parcel{}} }

// Get returns the parcel with id.
func (s *Store) Get(id string) (*Parcel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.items[id]
	if !ok {
		return nil, ErrNotFound
	}
	return p, nil
}

// Put stores p under its id.
func (s *Store) Put(p *Parcel) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items[p.ID] = p
}
