package ratelimit

import "time"

// A Counter keeps the fixed windows of the budgets, by key: a window starts
// with the first request counted against it, at the Counter's clock, and
// ends period later; the next request after its end starts a new one. A
// key's period and limit are the same at every call. A Counter is safe for
// concurrent use.
type Counter interface {
	// Spend counts a request against key's window, unless the window has
	// counted limit requests already, and reports whether it counted it,
	// with the requests that the window has counted (this one included)
	// and the window's end.
	Spend(key string, period time.Duration, limit int) (used int, reset time.Time, ok bool)
	// Refund takes back a request that Spend counted against key's window
	// that ends at reset; nothing if that window has ended.
	Refund(key string, reset time.Time)
	// Peek returns where key's window stands without counting: what a
	// request now would find, with 0 used and the end of a window that
	// started now when key has no window running.
	Peek(key string, period time.Duration) (used int, reset time.Time)
	// Reset forgets every window, so that every budget is whole again.
	Reset()
}
