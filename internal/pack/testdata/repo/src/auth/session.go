package auth

import "time"

// Session is a logged-in user.
type Session struct {
	User    string
	Token   string
	Expires time.Time
}

// Valid reports whether the session's token has not expired.
func (s *Session) Valid(now time.Time) bool {
	return now.Before(s.Expires)
}

// Renew extends the session by d.
func (s *Session) Renew(d time.Duration) {
	s.Expires = s.Expires.Add(d)
}
