package pgstore

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// The bounds of a RequestCounter, which its documentation states.
const (
	// requestSlackShare is the share of a budget that a server's view of it
	// may be off by, a hundredth, and minRequestSlack the least slack.
	requestSlackShare = 100
	minRequestSlack   = 50
	// maxRequestWindows bounds the windows that a RequestCounter keeps in
	// memory.
	maxRequestWindows = 100_000
)

// requestSlack returns the slack of a budget of limit requests: a
// hundredth of it, or 50 requests, whichever is more.
func requestSlack(limit int) int { return max(limit/requestSlackShare, minRequestSlack) }

// RequestCounter counts the requests of the primary rate limit's budgets
// (the Counter of the example's package ratelimit) for every server sharing
// the store's database: each key's fixed window is one row of the table
// request_budgets, so that a principal's requests spread over n servers
// count against one budget, and a server's restart neither resets nor
// doubles it. The database's clock starts and ends the windows.
//
// Most requests cost no round trip to the database: a server counts in
// memory, and reads where a window stands at the first request of the
// window that it sees. It writes its counts to the table, reading the
// table's count back, when it holds half of a budget's slack unwritten (the
// request that makes it so waits for the write; those that come meanwhile
// count on), and every second;
// the slack of a budget is a hundredth of it, or 50 requests, whichever is
// more (50 for the default 5,000 an hour, and for search's 30 a minute).
// So a server's view of a budget (x-ratelimit-remaining) lags the requests
// that the other servers counted by what they hold unwritten and what they
// wrote since its last write or read: within the slack for two servers,
// within half the slack per other server for more while the database
// answers, and for at most a second besides; and a principal's requests
// that the servers accept may exceed its budget by as much.
//
// A database that does not answer within a twentieth of the store's
// [Timeout], or fails, makes each server count alone: it logs one line,
// counts in memory, tries the database every second, writes what it
// counted once it answers, and logs one line then.
//
// [Store.Empty] empties the table, so every budget is whole again; the
// RequestCounters of the Store that emptied it forget their counts at once,
// those of the other Stores on the database within a second, when their
// sweep reads the count of resets.
//
// A RequestCounter keeps at most 100,000 windows in memory; at the bound,
// those that have ended go, then others at random, whose unwritten counts
// are lost. It is safe for concurrent use. Close stops its background work.
type RequestCounter struct {
	table requestBudgets
	log   *slog.Logger
	// skew is added to the clocks of the counter and of the database;
	// tests set it to make time pass.
	skew atomic.Int64

	mu      sync.Mutex
	windows map[string]*sharedWindow
	// resets is the count of resets that the counter saw last, or -1
	// before it reads one.
	resets int64
	// down is set while the counter counts alone, closed once it is closed.
	down, closed bool

	deregister func()
	stopSweep  context.CancelFunc
	swept      chan struct{}
	closeOnce  sync.Once
}

// sharedWindow is one key's window as a RequestCounter sees it. The
// counter's lock guards it.
type sharedWindow struct {
	period time.Duration
	limit  int
	// seen is the table's count at the counter's last write or read, and
	// pending the requests counted here since then (a refund takes one
	// back), which the next write adds.
	seen, pending int
	end           time.Time
	// synced is when the counter last read the table's count, by its clock.
	synced time.Time
	// writing is set while a write of the window is in flight; touched
	// while the window has counted since the last sweep.
	writing, touched bool
}

// RequestCounter returns a [RequestCounter] for every server whose store
// shares s's database, through s's pool, which logs to logger (nil means
// slog.Default()) when it counts alone and when it uses the database
// again. The table that it keeps the budgets in must exist, which [Migrate]
// sees to. Close it before s.
func (s *Store) RequestCounter(logger *slog.Logger) *RequestCounter {
	if logger == nil {
		logger = slog.Default()
	}
	c := &RequestCounter{
		table:   requestBudgets{budgets{pool: s.pool, wait: s.timeout / limiterWaitShare}},
		log:     logger,
		windows: make(map[string]*sharedWindow),
		resets:  -1,
	}
	c.deregister = s.limiters.add(c)
	_ = c.readResets(context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	c.stopSweep, c.swept = cancel, make(chan struct{})
	go sweepEvery(ctx, c.swept, c.sweep)
	return c
}

// now returns the counter's clock: the time, plus the skew.
func (c *RequestCounter) now() time.Time { return time.Now().Add(c.offset()) }

// offset returns the skew that tests give the clocks.
func (c *RequestCounter) offset() time.Duration { return time.Duration(c.skew.Load()) }

// Spend counts a request against key's window unless it has counted limit
// requests, and reports whether it counted it, with the window's count as
// the counter sees it and the window's end.
func (c *RequestCounter) Spend(key string, period time.Duration, limit int) (used int, reset time.Time, ok bool) {
	shared := budgetKey(key)
	c.mu.Lock()
	w := c.windows[shared]
	now := c.now()
	if w == nil || !now.Before(w.end) {
		c.mu.Unlock()
		w = c.start(shared, period, limit)
		c.mu.Lock()
	}
	w.touched = true
	used, reset = w.seen+w.pending, w.end
	if used >= limit {
		c.mu.Unlock()
		return used, reset, false
	}
	w.pending++
	stale := w.pending >= max(1, requestSlack(limit)/2) || now.Sub(w.synced) > sweepInterval
	write := stale && !w.writing && !c.down && !c.closed
	c.mu.Unlock()
	if write {
		c.write([]string{shared})
	}
	return used + 1, reset, true
}

// start returns key's running window, which it reads from the table when
// the counter has none: the table's window, or a new one of the counter's
// own while it counts alone.
func (c *RequestCounter) start(key string, period time.Duration, limit int) *sharedWindow {
	c.mu.Lock()
	down := c.down || c.closed
	c.mu.Unlock()
	now := c.now()
	w := &sharedWindow{period: period, limit: limit, end: now.Add(period), synced: now}
	if !down {
		counts, err := c.table.count(context.Background(), []string{key}, []int32{0}, []float64{period.Seconds()}, c.offset())
		c.reached(err)
		if got, ok := counts[key]; ok {
			w.seen, w.end = got.used, got.end
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if other := c.windows[key]; other != nil && c.now().Before(other.end) {
		return other // another request of the key started it meanwhile
	}
	c.makeRoom()
	c.windows[key] = w
	return w
}

// Refund takes back a request of key's window that ends at reset.
func (c *RequestCounter) Refund(key string, reset time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if w := c.windows[budgetKey(key)]; w != nil && w.end.Equal(reset) {
		w.pending--
	}
}

// Peek returns where key's window stands without counting: the table's
// count, and what the counter holds unwritten of the same window; while
// the counter counts alone, what it sees.
func (c *RequestCounter) Peek(key string, period time.Duration) (used int, reset time.Time) {
	shared := budgetKey(key)
	c.mu.Lock()
	down := c.down || c.closed
	c.mu.Unlock()
	var got requestCount
	running := false
	if !down {
		var err error
		got, running, err = c.table.read(context.Background(), shared, c.offset())
		c.reached(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	w := c.windows[shared]
	switch {
	case w != nil && now.Before(w.end) && (!running || w.end.Equal(got.end)):
		return max(w.seen, got.used) + w.pending, w.end
	case running:
		return got.used, got.end
	}
	return 0, now.Add(period)
}

// Reset forgets every window that the counter keeps; the reset that calls
// it empties the table (Store.Empty).
func (c *RequestCounter) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.windows = make(map[string]*sharedWindow)
}

// makeRoom makes room for a new window at the bound, as RequestCounter
// says. c.mu must be held.
func (c *RequestCounter) makeRoom() {
	if len(c.windows) < maxRequestWindows {
		return
	}
	now := c.now()
	for key, w := range c.windows {
		if !now.Before(w.end) && !w.writing {
			delete(c.windows, key)
		}
	}
	for key := range c.windows {
		if len(c.windows) <= maxRequestWindows-maxRequestWindows/8 {
			break
		}
		delete(c.windows, key)
	}
}

// write writes the pending counts of keys' windows that no other write
// holds, and reads the table's counts back.
func (c *RequestCounter) write(keys []string) {
	type held struct {
		w *sharedWindow
		n int32
	}
	c.mu.Lock()
	var names []string
	var counts []int32
	var periods []float64
	taken := make(map[string]held)
	for _, key := range keys {
		w := c.windows[key]
		if w == nil || w.writing {
			continue
		}
		w.writing = true
		names, counts, periods = append(names, key), append(counts, int32(w.pending)), append(periods, w.period.Seconds())
		taken[key] = held{w, int32(w.pending)}
		w.pending = 0
	}
	c.mu.Unlock()
	if len(names) == 0 {
		return
	}
	got, err := c.table.count(context.Background(), names, counts, periods, c.offset())
	c.mu.Lock()
	for key, h := range taken {
		h.w.writing = false
		if err != nil {
			h.w.pending += int(h.n)
			continue
		}
		if g, ok := got[key]; ok {
			h.w.seen, h.w.end, h.w.synced = g.used, g.end, c.now()
		}
	}
	c.mu.Unlock()
	c.reached(err)
}

// sweep forgets the windows that have ended, writes the counts of those
// that counted since the last sweep, deletes the table's ended windows, and
// forgets every window after a reset through another Store. While the
// counter counts alone, the writes tell whether the database answers again.
func (c *RequestCounter) sweep() {
	c.mu.Lock()
	now := c.now()
	var keys []string
	for key, w := range c.windows {
		switch {
		case !now.Before(w.end) && !w.writing:
			delete(c.windows, key)
		case w.touched || w.pending != 0:
			w.touched = false
			keys = append(keys, key)
		}
	}
	c.mu.Unlock()
	c.write(keys)
	ctx := context.Background()
	err := c.table.forgetEnded(ctx, c.offset())
	if err == nil {
		err = c.readResets(ctx)
	}
	c.reached(err)
}

// reached records whether the database answered the counter: err is nil
// when it did. The counter counts alone when it did not, and logs a line
// when this changes.
func (c *RequestCounter) reached(err error) {
	c.mu.Lock()
	wasDown := c.down
	c.down = err != nil
	c.mu.Unlock()
	switch {
	case err != nil && !wasDown:
		c.log.Warn("pgstore: the shared rate limit cannot use the database: this server counts requests alone until it can",
			"error", err)
	case err == nil && wasDown:
		c.log.Info("pgstore: the shared rate limit uses the database again")
	}
}

// emptied forgets every window after the store was emptied, which makes
// resets the count of resets.
func (c *RequestCounter) emptied(resets int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.windows = make(map[string]*sharedWindow)
	c.resets = max(c.resets, resets)
}

// readResets reads the count of resets, and forgets every window if it
// counts a reset that c has not seen, through another Store on the
// database.
func (c *RequestCounter) readResets(ctx context.Context) error {
	resets, err := c.table.resets(ctx)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if sawReset(&c.resets, resets) {
		c.windows = make(map[string]*sharedWindow)
	}
	return nil
}

// Close stops the counter's background work and writes what it counted
// and has not written, waiting for the database at most the counter's
// bound for each statement. After Close, the counter counts alone. Close
// may be called more than once.
func (c *RequestCounter) Close() {
	c.closeOnce.Do(func() {
		c.deregister()
		c.stopSweep()
		<-c.swept
		c.mu.Lock()
		c.closed = true
		down := c.down
		var keys []string
		for key, w := range c.windows {
			if w.pending != 0 {
				keys = append(keys, key)
			}
		}
		c.mu.Unlock()
		if !down {
			c.write(keys)
		}
	})
}
