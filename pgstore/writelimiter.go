package pgstore

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/issuefields/issuefields"
)

// The bounds of a WriteLimiter, which its documentation states.
const (
	// leaseShare is the share of the smaller limit's count that a lease
	// takes: a 64th, rounded up.
	leaseShare = 64
	// leaseLifetime is how long a server keeps the unspent writes of a lease
	// before it gives them back.
	leaseLifetime = 10 * time.Second
	// limiterWaitShare is the share of the store's Timeout that a write
	// waits for the database at most: a twentieth.
	limiterWaitShare = 20
	// sweepInterval is how often a WriteLimiter gives back the writes of
	// expired leases and deletes full budgets, or, while it falls back,
	// tries the database again.
	sweepInterval = time.Second
)

// WriteLimiter is an [issuefields.WriteLimiter] that every server sharing the
// store's database shares: each key (a principal) has one budget for all of
// them, kept in the table write_budgets, so that a principal's writes spread
// over n servers are limited as if one server took them all, and a server's
// restart neither resets nor doubles a budget. Each limit of
// [issuefields.WriteLimits] is a token bucket, as in the in-process limiter:
// a burst of its count, refilling evenly over its period, by the database's
// clock. A refused write counts against nothing, and its retryAfter is the
// time until the budget holds a whole write again.
//
// Most writes cost no round trip to the database: a server takes a lease of
// a key's budget, a batch of writes that the table no longer holds, and
// spends it in memory. A lease is a 64th of the smaller limit's count,
// rounded up: 2 writes at the default limits (80 a minute, 500 an hour); when
// more writes of the key wait for it, it is as large as their number. A
// server gives back the writes of a lease that it has not spent within 10
// seconds of taking it, and those of every lease when it is closed; a server
// that dies loses them, which leaves the budget short of them until it
// refills, never longer. Leases are the slack of the shared limit: while
// the database answers, a principal's writes that n servers accept in any
// stretch of time exceed what one server alone would accept of them by at
// most n leases, the writes that the servers may hold unspent (6 writes for
// 3 servers at the default limits, against the 80 that one server accepts
// at once); they fall short of it by at most the leases that the other
// servers hold. The budget of a key that has not written for a while is
// full again; its row goes then, so the table holds only the keys that wrote
// lately.
//
// A write never waits for the database longer than a twentieth of the
// store's [Timeout]: 250 ms at the default. A database that does not answer
// within that bound,
// or fails, makes the limiter fall back to the in-process limiter,
// [issuefields.NewWriteLimiter] with the same limits, which counts the
// writes of this server alone; it logs one line when it falls back, tries the
// database again every second, and logs one line when it uses it again.
//
// [Store.Empty] empties the table, so every budget is full again: the
// WriteLimiters of the Store that emptied it forget their leases at once,
// and those of the other Stores on the database within a second, when
// their sweep reads the count of resets.
//
// A WriteLimiter keeps at most WriteLimits.MaxKeys leases in memory. It is
// safe for concurrent use. Every server sharing a database should be given
// the same limits. Close stops its background work.
type WriteLimiter struct {
	budgets budgets
	// lease is how many writes a lease takes, or 0 when every limit is off.
	lease    int
	fallback issuefields.WriteLimiter
	log      *slog.Logger
	// skew is added to the clocks of the limiter and of the database; tests
	// set it to make time pass.
	skew atomic.Int64

	mu     sync.Mutex
	leases leases
	// resets is the count of resets (Store.Empty) that the limiter saw
	// last, or -1 before it reads one.
	resets int64
	// deregister takes the limiter out of its Store's limiters.
	deregister func()
	// down is set while the limiter falls back, closed once it is closed.
	down, closed bool

	takes     sync.WaitGroup // the takes in flight
	stopSweep context.CancelFunc
	swept     chan struct{} // closed when the sweeps have stopped
	closeOnce sync.Once
}

var _ issuefields.WriteLimiter = (*WriteLimiter)(nil)

// WriteLimiter returns a [WriteLimiter] that enforces limits for every server
// whose store shares s's database, through s's pool, and logs to logger
// (nil means slog.Default()) when it falls back to the in-process limiter and
// when it uses the database again. The table that it keeps the budgets in must exist, which
// [Migrate] sees to. Close it before s.
func (s *Store) WriteLimiter(limits issuefields.WriteLimits, logger *slog.Logger) *WriteLimiter {
	if logger == nil {
		logger = slog.Default()
	}
	limits = limits.WithDefaults()
	l := &WriteLimiter{
		budgets:  budgets{pool: s.pool, wait: s.timeout / limiterWaitShare},
		fallback: issuefields.NewWriteLimiter(limits),
		log:      logger,
		leases:   leases{max: limits.MaxKeys},
		resets:   -1,
	}
	var counts []int
	if n := limits.PerMinute; n > 0 {
		l.budgets.minute, counts = n, append(counts, n)
	}
	if n := limits.PerHour; n > 0 {
		l.budgets.hour, counts = n, append(counts, n)
	}
	if len(counts) == 0 {
		return l
	}
	l.lease = (slices.Min(counts) + leaseShare - 1) / leaseShare
	l.deregister = s.limiters.add(l)
	// Where the count of resets stands before any lease is taken; when the
	// database does not answer, the first sweep that reaches it tells.
	_ = l.readResets(context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	l.stopSweep, l.swept = cancel, make(chan struct{})
	go sweepEvery(ctx, l.swept, l.sweep)
	return l
}

// now returns the limiter's clock: the time, plus the skew.
func (l *WriteLimiter) now() time.Time { return time.Now().Add(l.offset()) }

// offset returns the skew that tests give the clocks.
func (l *WriteLimiter) offset() time.Duration { return time.Duration(l.skew.Load()) }

// AllowWrite reports whether the principal named key may write now and, if
// so, counts the write against the key's shared budget: it spends a write of
// the key's lease, taking a new lease from the database when the lease is
// spent. A refused write counts against nothing. It waits for the database
// at most the limiter's bound; past it, or while the limiter falls back, the
// in-process limiter decides.
func (l *WriteLimiter) AllowWrite(ctx context.Context, key string) (ok bool, retryAfter time.Duration) {
	if l.lease == 0 {
		return true, 0
	}
	shared := budgetKey(key)
	var timeout <-chan time.Time
	l.mu.Lock()
	for {
		if l.down || l.closed {
			l.mu.Unlock()
			return l.fallback.AllowWrite(ctx, key)
		}
		now := l.now()
		e := l.leases.get(shared)
		switch {
		case e.writes > 0:
			e.writes--
			l.mu.Unlock()
			return true, 0
		case now.Before(e.refusedUntil):
			l.mu.Unlock()
			return false, e.refusedUntil.Sub(now)
		case e.taking == nil:
			e.taking = make(chan struct{})
			l.takes.Add(1)
			go l.take(shared, e)
		}
		taking := e.taking
		e.waiting++
		l.mu.Unlock()
		if timeout == nil {
			timer := time.NewTimer(l.budgets.wait)
			defer timer.Stop()
			timeout = timer.C
		}
		timedOut := false
		select {
		case <-taking:
		case <-timeout:
			timedOut = true
		}
		l.mu.Lock()
		e.waiting--
		if timedOut {
			l.mu.Unlock()
			return l.fallback.AllowWrite(ctx, key)
		}
	}
}

// take takes a lease of key's budget into e, whose take it is, and ends the
// take: a lease's writes, or as many as the writes waiting for it, if more;
// a take that fails makes the limiter fall back. It runs on a goroutine of
// its own, so that the writes that wait for it each stop waiting at their
// own bound.
func (l *WriteLimiter) take(key string, e *lease) {
	defer l.takes.Done()
	l.mu.Lock()
	wanted := max(l.lease, e.waiting)
	l.mu.Unlock()
	granted, wait, err := l.budgets.take(context.Background(), key, wanted, l.offset())
	l.mu.Lock()
	now := l.now()
	switch {
	case err != nil:
	case granted > 0:
		e.writes, e.takenAt = granted, now
	default:
		e.refusedUntil = now.Add(wait)
	}
	close(e.taking)
	e.taking = nil
	l.mu.Unlock()
	if err != nil {
		l.reached(err)
	}
}

// sweepEvery calls sweep every sweepInterval until ctx is done, then closes
// swept. A sweep that has begun ends: each of its statements is bounded,
// and what it gives back or writes would be lost if it stopped. The shared
// limits (WriteLimiter, RequestCounter) sweep so.
func sweepEvery(ctx context.Context, swept chan<- struct{}, sweep func()) {
	defer close(swept)
	ticker := time.NewTicker(sweepInterval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			sweep()
		}
	}
}

// sweep forgets the leases that hold nothing, gives back the unspent writes
// of leases older than leaseLifetime, deletes the budgets that are full
// again, and forgets every lease after a reset through another Store. While
// the limiter falls back it gives nothing back, and the deletion tells
// whether the database answers again.
func (l *WriteLimiter) sweep() {
	l.mu.Lock()
	now := l.now()
	takenBefore := now.Add(-leaseLifetime)
	if l.down {
		takenBefore = time.Time{} // keep the leases until the database answers
	}
	keys, writes := l.leases.expire(now, takenBefore)
	l.mu.Unlock()
	ctx := context.Background()
	err := l.budgets.giveBack(ctx, keys, writes, l.offset())
	if err == nil {
		err = l.budgets.forgetFull(ctx, l.offset())
	}
	if err == nil {
		err = l.readResets(ctx)
	}
	l.reached(err)
}

// reached records whether the database answered the limiter: err is nil
// when it did. The limiter falls back when it did not, and logs a line when
// this changes whether it falls back.
func (l *WriteLimiter) reached(err error) {
	l.mu.Lock()
	wasDown := l.down
	l.down = err != nil
	l.mu.Unlock()
	switch {
	case err != nil && !wasDown:
		l.log.Warn("pgstore: the shared write limit cannot use the database: this server limits writes alone until it can",
			"error", err)
	case err == nil && wasDown:
		l.log.Info("pgstore: the shared write limit uses the database again")
	}
}

// Close stops the limiter's background work and gives back the unspent
// writes of its leases, waiting for the database at most the limiter's
// bound for each statement; writes it cannot give back are lost, as when a
// server dies. After Close, the in-process limiter decides every write. Close
// may be called more than once.
func (l *WriteLimiter) Close() {
	l.closeOnce.Do(func() {
		if l.stopSweep != nil {
			l.deregister()
			l.stopSweep()
			<-l.swept
		}
		l.mu.Lock()
		l.closed = true
		l.mu.Unlock()
		l.takes.Wait()
		l.mu.Lock()
		down := l.down
		keys, writes := l.leases.drain()
		l.mu.Unlock()
		if !down {
			_ = l.budgets.giveBack(context.Background(), keys, writes, l.offset())
		}
	})
}

// limiterSet is the shared limits of a Store that are not closed (its
// WriteLimiters and RequestCounters), which [Store.Empty] tells of the
// reset at once.
type limiterSet struct {
	mu  sync.Mutex
	set map[emptiedTeller]struct{}
}

// An emptiedTeller is a shared limit that forgets what it holds of the
// table's budgets when the store is emptied (emptied), which makes resets
// the count of resets.
type emptiedTeller interface{ emptied(resets int64) }

// add adds l, and returns the function that removes it.
func (ls *limiterSet) add(l emptiedTeller) (remove func()) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.set == nil {
		ls.set = make(map[emptiedTeller]struct{})
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
	if sawReset(&l.resets, resets) {
		l.leases = leases{max: l.leases.max}
	}
	return nil
}

// sawReset reports whether resets, the count of resets that a shared limit
// has just read, counts a reset that seen, the count that it saw last (-1
// before the first), does not, and makes seen the larger of the two. The
// first count read only tells where the count stands.
func sawReset(seen *int64, resets int64) bool {
	newer := *seen >= 0 && resets > *seen
	*seen = max(*seen, resets)
	return newer
}
