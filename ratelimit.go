package issuefields

import (
	"container/list"
	"context"
	"crypto/sha256"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// WriteLimits configures the secondary rate limit on writes (add, set and
// delete), counted per principal. A principal may write only while both the
// per-minute and the per-hour limit allow it. Each limit is a token bucket
// whose burst equals its count and which refills evenly over its period: 80 a
// minute allows 80 writes at once and then one every 750ms. The zero value
// selects the defaults: 80 writes a minute and 500 an hour.
type WriteLimits struct {
	// PerMinute is the most writes a principal may make in a minute. The
	// zero value means 80; a negative value turns the per-minute limit off.
	PerMinute int

	// PerHour is the most writes a principal may make in an hour. The zero
	// value means 500; a negative value turns the per-hour limit off.
	PerHour int

	// MaxKeys is how many principals are tracked at once. When one more
	// appears, the least recently seen is forgotten, and starts again with
	// its full allowance if it comes back; so MaxKeys should exceed the
	// number of principals that write within an hour. A zero or negative
	// value means 10,000.
	MaxKeys int
}

// WithDefaults returns l with each zero value replaced by its default, and
// a zero or negative MaxKeys by 10,000: the limits that a WriteLimiter
// enforces. A negative PerMinute or PerHour stays negative, and so off.
func (l WriteLimits) WithDefaults() WriteLimits {
	if l.PerMinute == 0 {
		l.PerMinute = defaultWritesPerMinute
	}
	if l.PerHour == 0 {
		l.PerHour = defaultWritesPerHour
	}
	if l.MaxKeys <= 0 {
		l.MaxKeys = defaultWriteLimitKeys
	}
	return l
}

// A WriteLimiter decides the secondary rate limit on writes. The handler asks
// it once for every write request that passed authorization, before it reads
// the request's body, with a key that names the principal, and refuses the
// write (422, with Retry-After) when it says no.
//
// AllowWrite reports whether the principal named key may make one more
// write now and, if so, counts the write; a write it refuses counts against
// nothing, and retryAfter says how long until one would be allowed. It is
// called from many goroutines at once, with the request's context, and must
// answer quickly: a limiter that consults something outside the process
// bounds that wait itself, and decides locally when it cannot. Its memory
// must stay bounded however many keys it sees.
//
// NewWriteLimiter gives the in-process limiter, the default; pgstore offers
// one that several servers sharing a database share.
type WriteLimiter interface {
	AllowWrite(ctx context.Context, key string) (ok bool, retryAfter time.Duration)
}

// NewWriteLimiter returns the in-process WriteLimiter that enforces limits:
// a pair of token buckets (golang.org/x/time/rate) per key, the keys held in
// a bounded least-recently-used list. It is what the handler uses when
// Config.WriteLimiter is nil.
func NewWriteLimiter(limits WriteLimits) WriteLimiter { return newWriteLimiter(limits) }

// writeLimiter enforces WriteLimits: a keyed pair of token buckets, the keys
// held in a bounded LRU so that memory stays bounded however many keys
// appear. It has no background goroutine: buckets refill lazily, computed
// from the clock when a key is checked. It is safe for concurrent use.
type writeLimiter struct {
	periods []writePeriod // the limits that are on; empty when all are off
	maxKeys int
	// now is the clock; tests set another. It is called with the lock
	// held.
	now func() time.Time

	mu    sync.Mutex
	lru   *list.List               // of *writeBucket, most recently used first
	byKey map[string]*list.Element // its elements, by key
}

// writePeriod is one limit that is on: count writes per period.
type writePeriod struct {
	limit rate.Limit
	burst int
}

// writeBucket is the state of one key: one limiter per writePeriod, in the
// same order.
type writeBucket struct {
	key      string
	limiters []*rate.Limiter
}

// newWriteLimiter returns a writeLimiter enforcing c, with the defaults
// applied.
func newWriteLimiter(c WriteLimits) *writeLimiter {
	c = c.WithDefaults()
	l := &writeLimiter{
		maxKeys: c.MaxKeys,
		now:     time.Now,
		lru:     list.New(),
		byKey:   make(map[string]*list.Element),
	}
	l.addPeriod(c.PerMinute, time.Minute)
	l.addPeriod(c.PerHour, time.Hour)
	return l
}

// addPeriod turns on a limit of count writes per period, unless count is
// negative. A limit that is off has no limiter at all, since a rate.Limiter
// with a zero rate would refuse everything once its burst is spent. The rate
// is count/period per second, which is rate.Every(period/count) without
// rounding period/count to whole nanoseconds.
func (l *writeLimiter) addPeriod(count int, period time.Duration) {
	if count < 0 {
		return
	}
	l.periods = append(l.periods, writePeriod{
		limit: rate.Limit(float64(count) / period.Seconds()),
		burst: count,
	})
}

// limits reports whether any limit is on; AllowWrite lets every write
// through when none is.
func (l *writeLimiter) limits() bool { return len(l.periods) > 0 }

// AllowWrite reports whether key may write now and, if so, counts the write
// against every limit that is on. A refused write counts against none of
// them; retryAfter is then how long until every limit would allow one more.
func (l *writeLimiter) AllowWrite(_ context.Context, key string) (ok bool, retryAfter time.Duration) {
	if !l.limits() {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.bucket(boundedKey(key))
	// All the limiters are checked before any is charged, so that one
	// limit's refusal leaves the others untouched. The lock makes the check
	// and the charge one step: TokensAt(now) >= 1 means AllowN(now, 1)
	// succeeds.
	refused := false
	for _, lim := range b.limiters {
		if lim.TokensAt(now) < 1 {
			refused = true
			retryAfter = max(retryAfter, untilOneToken(lim, now))
		}
	}
	if refused {
		return false, retryAfter
	}
	for _, lim := range b.limiters {
		lim.AllowN(now, 1)
	}
	return true, 0
}

// maxKeyBytes is the longest key the limiter keeps as it is. A longer one is
// kept as its SHA-256, so that the limiter's memory is bounded in bytes, not
// only in keys, however long the logins that come.
const maxKeyBytes = 64

// boundedKey returns the key the limiter keeps for key: key itself, or its
// hash when it is longer than maxKeyBytes.
func boundedKey(key string) string {
	if len(key) <= maxKeyBytes {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return "sha256:" + string(sum[:])
}

// bucket returns key's bucket, marked most recently used, creating it with
// every limit's full burst if key is not tracked and forgetting the least
// recently used key if the limiter is full. l.mu must be held.
func (l *writeLimiter) bucket(key string) *writeBucket {
	if e, ok := l.byKey[key]; ok {
		l.lru.MoveToFront(e)
		return e.Value.(*writeBucket)
	}
	var e *list.Element
	if l.lru.Len() < l.maxKeys {
		e = l.lru.PushFront(&writeBucket{limiters: make([]*rate.Limiter, len(l.periods))})
	} else {
		e = l.lru.Back()
		delete(l.byKey, e.Value.(*writeBucket).key)
		l.lru.MoveToFront(e)
	}
	b := e.Value.(*writeBucket)
	b.key = key
	for i, p := range l.periods {
		b.limiters[i] = rate.NewLimiter(p.limit, p.burst)
	}
	l.byKey[key] = e
	return b
}

// untilOneToken returns how long after now lim has a whole token: the least
// number of nanoseconds that makes TokensAt at least 1, or 0 if it already is.
func untilOneToken(lim *rate.Limiter, now time.Time) time.Duration {
	missing := 1 - lim.TokensAt(now)
	if missing <= 0 {
		return 0
	}
	d := time.Duration(missing / float64(lim.Limit()) * float64(time.Second))
	// The division may round either way; settle on the exact nanosecond,
	// as the limiter itself computes it.
	for d > 0 && lim.TokensAt(now.Add(d-1)) >= 1 {
		d--
	}
	for lim.TokensAt(now.Add(d)) < 1 {
		d++
	}
	return d
}

// retryAfterSeconds renders d as the value of a Retry-After header: whole
// seconds, rounded up, and at least 1.
func retryAfterSeconds(d time.Duration) string {
	s := d / time.Second
	if d%time.Second > 0 {
		s++
	}
	return strconv.FormatInt(int64(max(s, 1)), 10)
}
