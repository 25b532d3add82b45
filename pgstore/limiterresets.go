package pgstore

import (
	"context"
	"sync"
)

// limiterSet is the WriteLimiters of a Store that are not closed, which
// [Store.Empty] tells of the reset at once.
type limiterSet struct {
	mu  sync.Mutex
	set map[*WriteLimiter]struct{}
}

// add adds l, and returns the function that removes it.
func (ls *limiterSet) add(l *WriteLimiter) (remove func()) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.set == nil {
		ls.set = make(map[*WriteLimiter]struct{})
	}
	ls.set[l] = struct{}{}
	return func() {
		ls.mu.Lock()
		defer ls.mu.Unlock()
		delete(ls.set, l)
	}
}

// emptied tells every limiter of the set that the store was emptied, which
// makes resets the count of resets.
func (ls *limiterSet) emptied(resets int64) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for l := range ls.set {
		l.emptied(resets)
	}
}

// emptied forgets every lease, unspent writes and refusals alike, after the
// store was emptied, which makes resets the count of resets: the table no
// longer holds the budgets that they were taken from.
func (l *WriteLimiter) emptied(resets int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.leases = leases{max: l.leases.max}
	l.resets = max(l.resets, resets)
}

// readResets reads the count of resets, and forgets every lease if it
// counts a reset that l has not seen, through another Store on the
// database. The first count that l reads only tells it where the count
// stands.
func (l *WriteLimiter) readResets(ctx context.Context) error {
	resets, err := l.budgets.resets(ctx)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.resets >= 0 && resets > l.resets {
		l.leases = leases{max: l.leases.max}
	}
	l.resets = max(l.resets, resets)
	return nil
}
