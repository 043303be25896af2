// Package credentials issues and checks the bearer credentials clients
// present after signing in.
package credentials

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// ErrForged: the credential was not signed with our key.
var ErrForged = errors.New("credentials: bad signature")

// ErrStale: the credential's lifetime is over.
var ErrStale = errors.New("credentials: lifetime over")

// Bearer is what a client proves itself with.
type Bearer struct {
	Account  string
	IssuedAt time.Time
	Lifetime time.Duration
}

// Stale reports whether b may no longer be used at now.
func (b Bearer) Stale(now time.Time) bool {
	return now.After(b.IssuedAt.Add(b.Lifetime * time.Second))
}

// Issuer signs bearers with one key.
type Issuer struct {
	key      []byte
	lifetime time.Duration
}

// NewIssuer returns an Issuer whose bearers last lifetime.
func NewIssuer(key []byte, lifetime time.Duration) *Issuer {
	return &Issuer{key: key, lifetime: lifetime}
}

// Issue returns the signed text form of a new bearer for account.
func (i *Issuer) Issue(account string, now time.Time) string {
	body := account + "|" + strconv.FormatInt(now.Unix(), 10)
	return body + "|" + i.sign(body)
}

// Check parses and verifies raw, and refuses stale bearers.
func (i *Issuer) Check(raw string, now time.Time) (Bearer, error) {
	parts := strings.Split(raw, "|")
	if len(parts) != 3 || !hmac.Equal([]byte(parts[2]), []byte(i.sign(parts[0]+"|"+parts[1]))) {
		return Bearer{}, ErrForged
	}
	sec, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return Bearer{}, ErrForged
	}
	b := Bearer{Account: parts[0], IssuedAt: time.Unix(sec, 0), Lifetime: i.lifetime}
	if b.Stale(now) {
		return Bearer{}, ErrStale
	}
	return b, nil
}

func (i *Issuer) sign(body string) string {
	m := hmac.New(sha256.New, i.key)
	m.Write([]byte(body))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
