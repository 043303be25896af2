package hone_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/testrepo"
)

// TestViewAimsAtTask: a judge's excerpt of a file (ViewOptions.Task, as the
// MCP server, hone bench --judge and the LLM evaluator ask for it) shows
// first the part of the file the task points at, as the pack does: here the
// function a stack-trace frame of the task runs through, in a file whose
// other functions say the query's words more often. Two fixtures written
// apart (a Python traceback, a Go panic), each failing when the view is
// aimed by the query's terms alone (Task unset).
func TestViewAimsAtTask(t *testing.T) {
	cases := []struct {
		name, path, task string
		terms            []string // the query's terms, as a session's query holds them
		want             string   // a line of the function the frame points at
		files            map[string]string
	}{
		{
			name: "Python traceback",
			path: "shop/billing.py",
			task: `Checkout crashes for an order with a free item

Traceback (most recent call last):
  File "shop/views.py", line 9, in checkout
    total = order_total(order)
  File "shop/billing.py", line {{line}}, in unit_share
    return line.price / line.quantity
ZeroDivisionError: division by zero
`,
			terms: []string{"checkout", "order", "item", "price", "total", "free", "line"},
			want:  "return line.price / line.quantity",
			files: map[string]string{
				"shop/views.py":   "from shop.billing import order_total\n\n\ndef checkout(request):\n    order = request.order\n    if not order.lines:\n        return None\n    # the total decides the payment\n    total = order_total(order)\n    return total\n",
				"shop/billing.py": pyBilling,
			},
		},
		{
			name: "Go panic",
			path: "internal/quota/window.go",
			task: `Server panics when a client sends its first request after a restart

panic: runtime error: index out of range [3] with length 3

goroutine 18 [running]:
example.com/gate/internal/quota.(*Window).slotFor(...)
	/src/gate/internal/quota/window.go:{{line}} +0x1d4
example.com/gate/internal/server.(*Gate).ServeHTTP(0xc000010040, {0x7a1c40, 0xc0001460e0}, 0xc00013e000)
	/src/gate/internal/server/gate.go:19 +0x9c
`,
			terms: []string{"server", "client", "request", "restart", "first", "window", "allow"},
			want:  "return &w.counts[i]",
			files: map[string]string{
				"go.mod":                   "module example.com/gate\n\ngo 1.22\n",
				"internal/quota/window.go": goWindow,
				"internal/server/gate.go":  goGate,
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			line := lineOf(t, c.files[c.path], c.want)
			task := strings.ReplaceAll(c.task, "{{line}}", fmt.Sprint(line))
			repo := open(t, testrepo.Write(t, c.files))
			defer repo.Close()
			const budget = 200
			aimed, err := repo.View(c.path, c.terms, hone.ViewOptions{Budget: budget, Task: task})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(aimed, c.want) {
				t.Errorf("the view aimed by the task does not show line %d (%q):\n%s", line, c.want, aimed)
			}
			// The fixture's point: the query's terms alone aim elsewhere.
			plain, err := repo.View(c.path, c.terms, hone.ViewOptions{Budget: budget})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(plain, c.want) {
				t.Errorf("fixture too easy: the terms alone show %q:\n%s", c.want, plain)
			}
			// A second look continues the view the task aimed: the line is
			// not shown again.
			again, err := repo.ViewAgain(c.path, c.terms, hone.ViewOptions{Budget: budget, First: budget, Task: task})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(again, c.want) {
				t.Errorf("the second look shows %q again:\n%s", c.want, again)
			}
		})
	}
}

// lineOf returns the 1-based line of text holding s.
func lineOf(t *testing.T, text, s string) int {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("no line holds %q", s)
	return 0
}

const pyBilling = `"""Prices, totals and taxes of an order."""

from decimal import Decimal


def order_total(order):
    """The order's total: every line's price times its quantity, less the
    order's discount, plus tax."""
    total = Decimal(0)
    for line in order.lines:
        total += line_total(line)
    total -= order_discount(order, total)
    return total + order_tax(order, total)


def line_total(line):
    """A line's price times its quantity; a free item costs nothing."""
    if line.free:
        return Decimal(0)
    return line.price * line.quantity


def order_discount(order, total):
    """The discount of the order's coupon on its total."""
    if not order.coupon:
        return Decimal(0)
    return total * order.coupon.percent / 100


def order_tax(order, total):
    """Tax on the order's total, by the customer's region."""
    rate = order.customer.region.tax_rate
    return total * rate


def unit_share(line):
    """What one unit of a line costs, for refunds."""
    return line.price / line.quantity


def refund_item(order, line, units):
    """Refund some units of a line of the order."""
    share = unit_share(line)
    order.refunded += share * units
    return share * units
`

const goWindow = `package quota

import (
	"sync"
	"time"
)

// Window counts a client's requests in fixed slots of a sliding window and
// allows a request while the window's total stays under the limit.
type Window struct {
	mu     sync.Mutex
	limit  int
	slots  int
	width  time.Duration
	counts []int
	start  time.Time
}

// NewWindow returns a window of slots slots of width each.
func NewWindow(limit, slots int, width time.Duration) *Window {
	return &Window{limit: limit, slots: slots, width: width, counts: make([]int, slots), start: time.Now()}
}

// total is the number of requests the client made in the window.
func (w *Window) total() int {
	n := 0
	for _, c := range w.counts {
		n += c
	}
	return n
}

// reset empties the window after a restart of the server or a long pause
// of the client.
func (w *Window) reset(now time.Time) {
	for i := range w.counts {
		w.counts[i] = 0
	}
	w.start = now
}

// slotFor is the count of the slot now falls in.
func (w *Window) slotFor(now time.Time) *int {
	i := int(now.Sub(w.start) / w.width)
	return &w.counts[i]
}

// Allow reports whether the client may make a request now, and counts it.
func (w *Window) Allow(client string, now time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.total() >= w.limit {
		return false
	}
	*w.slotFor(now)++
	return true
}
`

const goGate = `package server

import (
	"net/http"
	"time"

	"example.com/gate/internal/quota"
)

// Gate lets a client's request through while its window allows it.
type Gate struct {
	next   http.Handler
	window *quota.Window
}

func (g *Gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	client := r.RemoteAddr
	if !g.window.Allow(client, time.Now()) {
		http.Error(w, "slow down", http.StatusTooManyRequests)
		return
	}
	g.next.ServeHTTP(w, r)
}
`
