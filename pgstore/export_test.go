package pgstore

import "time"

// SetWriteLimiterClock makes the clocks of l and of the database, as l reads
// it, run d ahead of the time.
func SetWriteLimiterClock(l *WriteLimiter, d time.Duration) { l.skew.Store(int64(d)) }

// SweepWriteLimiter runs l's sweep once, as its background work does every
// second.
func SweepWriteLimiter(l *WriteLimiter) { l.sweep() }

// WriteLimiterLease returns how many writes a lease of l takes.
func WriteLimiterLease(l *WriteLimiter) int { return l.lease }

// WriteLimiterKeys returns how many keys l keeps a lease of.
func WriteLimiterKeys(l *WriteLimiter) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.leases.byKey)
}

// SetRequestCounterClock makes the clocks of c and of the database, as c
// reads it, run d ahead of the time.
func SetRequestCounterClock(c *RequestCounter, d time.Duration) { c.skew.Store(int64(d)) }

// SweepRequestCounter runs c's sweep once, as its background work does
// every second.
func SweepRequestCounter(c *RequestCounter) { c.sweep() }
