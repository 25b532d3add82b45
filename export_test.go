package issuefields

import "time"

// SetWriteLimitClock makes the secondary rate limit of h read the time from
// now, so that a test can move it by hand.
func SetWriteLimitClock(h *Handler, now func() time.Time) { h.writeLimiter.(*writeLimiter).now = now }
