package httpmw

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Throttle admits at most perMinute calls per client address in each
// one-minute window; the rest get 429 Too Many Requests with Retry-After.
func Throttle(perMinute int) Wrapper {
	var mu sync.Mutex
	type window struct {
		start time.Time
		calls int
	}
	seen := map[string]*window{}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			host, _, err := net.SplitHostPort(r.RemoteAddr)
			if err != nil {
				host = r.RemoteAddr
			}
			now := time.Now()
			mu.Lock()
			win := seen[host]
			if win == nil || now.Sub(win.start) >= time.Minute {
				win = &window{start: now}
				seen[host] = win
			}
			win.calls++
			over := win.calls > perMinute
			wait := win.start.Add(time.Minute).Sub(now)
			mu.Unlock()
			if over {
				w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
				http.Error(w, "too many requests", http.StatusTooManyRequests)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}
