package issuefields

import (
	"context"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// limitClock is a clock that moves only when told to.
type limitClock struct {
	mu sync.Mutex
	t  time.Time
}

func newLimitClock() *limitClock {
	return &limitClock{t: time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)}
}

func (c *limitClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *limitClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// allowN calls l.AllowWrite(context.Background(), key) n times and fails the test unless every call is
// allowed.
func allowN(t *testing.T, l *writeLimiter, key string, n int) {
	t.Helper()
	for i := range n {
		if ok, retry := l.AllowWrite(context.Background(), key); !ok {
			t.Fatalf("write %d of %d for %q: refused, retry after %v; want allowed", i+1, n, key, retry)
		}
	}
}

// refused calls l.AllowWrite(context.Background(), key) once, fails the test if the call is allowed, and
// returns the retry-after duration.
func refused(t *testing.T, l *writeLimiter, key string) time.Duration {
	t.Helper()
	ok, retry := l.AllowWrite(context.Background(), key)
	if ok {
		t.Fatalf("write for %q: allowed; want refused", key)
	}
	if retry <= 0 {
		t.Fatalf("write for %q: refused with retry after %v; want a positive duration", key, retry)
	}
	return retry
}

// checkNear fails the test unless got is within a microsecond of want: the
// limiter computes with floating-point rates, rounded to whole nanoseconds.
func checkNear(t *testing.T, what string, got, want time.Duration) {
	t.Helper()
	if diff := got - want; diff < -time.Microsecond || diff > time.Microsecond {
		t.Errorf("%s = %v; want %v", what, got, want)
	}
}

// tokens returns the tokens left in key's limiter for period i.
func tokens(t *testing.T, l *writeLimiter, key string, i int, now time.Time) float64 {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.byKey[key]
	if !ok {
		t.Fatalf("key %q is not tracked", key)
	}
	return e.Value.(*writeBucket).limiters[i].TokensAt(now)
}

// trackedKeys returns how many keys l holds, checking that its list and its
// map agree.
func trackedKeys(t *testing.T, l *writeLimiter) int {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lru.Len() != len(l.byKey) {
		t.Fatalf("the LRU list holds %d keys and the map %d", l.lru.Len(), len(l.byKey))
	}
	return l.lru.Len()
}

func TestWriteLimitDefaults(t *testing.T) {
	l := newWriteLimiter(WriteLimits{})
	if l.maxKeys != defaultWriteLimitKeys {
		t.Errorf("maxKeys = %d; want %d", l.maxKeys, defaultWriteLimitKeys)
	}
	if l.now == nil {
		t.Error("now is nil; want time.Now")
	}
	want := []struct {
		every time.Duration
		burst int
	}{
		{time.Minute / defaultWritesPerMinute, defaultWritesPerMinute},
		{time.Hour / defaultWritesPerHour, defaultWritesPerHour},
	}
	if len(l.periods) != len(want) {
		t.Fatalf("%d limits are on; want %d", len(l.periods), len(want))
	}
	for i, w := range want {
		p := l.periods[i]
		if r := rate.Every(w.every); math.Abs(float64(p.limit-r)) > 1e-12*float64(r) {
			t.Errorf("limit %d refills at %v a second; want rate.Every(%v) = %v", i, p.limit, w.every, r)
		}
		if p.burst != w.burst {
			t.Errorf("limit %d has a burst of %d; want %d", i, p.burst, w.burst)
		}
	}
}

func TestWriteLimitPerMinute(t *testing.T) {
	clock := newLimitClock()
	l := limiterWithClock(WriteLimits{}, clock.Now)

	allowN(t, l, "octocat", 80)
	retry := refused(t, l, "octocat")
	checkNear(t, "retry after the 81st write", retry, 750*time.Millisecond)
	if got := retryAfterSeconds(retry); got != "1" {
		t.Errorf("Retry-After = %q; want %q", got, "1")
	}

	// The bucket refills one write every 750ms.
	clock.Advance(retry - 1)
	refused(t, l, "octocat")
	clock.Advance(1)
	allowN(t, l, "octocat", 1)
	refused(t, l, "octocat")
	clock.Advance(3 * time.Second)
	allowN(t, l, "octocat", 4)
	refused(t, l, "octocat")

	// A quiet minute refills the whole burst, and no more.
	clock.Advance(time.Minute)
	allowN(t, l, "octocat", 80)
	refused(t, l, "octocat")
}

func TestWriteLimitPerHour(t *testing.T) {
	t.Run("burst", func(t *testing.T) {
		// A per-minute limit above 500 lets 500 writes through at once,
		// so that only the per-hour limit counts.
		clock := newLimitClock()
		l := limiterWithClock(WriteLimits{PerMinute: 1000}, clock.Now)

		allowN(t, l, "octocat", 500)
		retry := refused(t, l, "octocat")
		checkNear(t, "retry after the 501st write", retry, 7200*time.Millisecond)
		if got := retryAfterSeconds(retry); got != "8" {
			t.Errorf("Retry-After = %q; want %q", got, "8")
		}
		clock.Advance(retry)
		allowN(t, l, "octocat", 1)
		refused(t, l, "octocat")
	})

	t.Run("paced", func(t *testing.T) {
		// With the default limits, 80 writes at once and then one a
		// second never trip the per-minute limit, which refills one
		// every 750ms. The per-hour limit refills one every 7.2s, so it
		// refuses the j-th write after the first 80 once
		// 420 - (j-1) + j/7.2 < 1: j = 488, the 568th write, when
		// 0.78 of a token is left and 0.22 more takes 1.6s.
		clock := newLimitClock()
		l := limiterWithClock(WriteLimits{}, clock.Now)

		allowN(t, l, "octocat", 80)
		for range 487 {
			clock.Advance(time.Second)
			allowN(t, l, "octocat", 1)
		}
		clock.Advance(time.Second)
		retry := refused(t, l, "octocat")
		checkNear(t, "retry after the 568th write", retry, 1600*time.Millisecond)
		if got := tokens(t, l, "octocat", 0, clock.Now()); got < 1 {
			t.Errorf("the per-minute limit has %v tokens left; want at least 1, so that only the per-hour limit refused", got)
		}
	})
}

func TestWriteLimitRefusalConsumesNothing(t *testing.T) {
	t.Run("refusals", func(t *testing.T) {
		clock := newLimitClock()
		l := limiterWithClock(WriteLimits{}, clock.Now)

		allowN(t, l, "octocat", 80)
		retry := refused(t, l, "octocat")
		for range 1000 {
			if got := refused(t, l, "octocat"); got != retry {
				t.Fatalf("retry after a repeated refusal = %v; want %v, unchanged", got, retry)
			}
		}
		clock.Advance(retry)
		allowN(t, l, "octocat", 1)
		refused(t, l, "octocat")
	})

	t.Run("per-hour refusal spares the minute", func(t *testing.T) {
		clock := newLimitClock()
		l := limiterWithClock(WriteLimits{PerMinute: 80, PerHour: 10}, clock.Now)

		allowN(t, l, "octocat", 10)
		for range 100 {
			refused(t, l, "octocat")
		}
		if got := tokens(t, l, "octocat", 0, clock.Now()); got != 70 {
			t.Errorf("the per-minute limit has %v tokens left; want 70", got)
		}
	})

	t.Run("per-minute refusal spares the hour", func(t *testing.T) {
		clock := newLimitClock()
		l := limiterWithClock(WriteLimits{PerMinute: 10, PerHour: 500}, clock.Now)

		allowN(t, l, "octocat", 10)
		for range 100 {
			refused(t, l, "octocat")
		}
		if got := tokens(t, l, "octocat", 1, clock.Now()); got != 490 {
			t.Errorf("the per-hour limit has %v tokens left; want 490", got)
		}
	})

	t.Run("retry after waits for both", func(t *testing.T) {
		// Both limits are empty; the per-hour one takes longer.
		clock := newLimitClock()
		l := limiterWithClock(WriteLimits{PerMinute: 10, PerHour: 10}, clock.Now)

		allowN(t, l, "octocat", 10)
		retry := refused(t, l, "octocat")
		checkNear(t, "retry after", retry, 6*time.Minute)
		clock.Advance(retry - 1)
		refused(t, l, "octocat")
		clock.Advance(1)
		allowN(t, l, "octocat", 1)
		refused(t, l, "octocat")
	})
}

func TestWriteLimitKeysSeparate(t *testing.T) {
	clock := newLimitClock()
	l := limiterWithClock(WriteLimits{}, clock.Now)

	allowN(t, l, "octocat", 80)
	refused(t, l, "octocat")
	allowN(t, l, "hubot", 80)
	refused(t, l, "hubot")
	refused(t, l, "octocat")
}

func TestWriteLimitOff(t *testing.T) {
	t.Run("per-minute off", func(t *testing.T) {
		clock := newLimitClock()
		l := limiterWithClock(WriteLimits{PerMinute: -1}, clock.Now)

		allowN(t, l, "octocat", 500)
		checkNear(t, "retry after", refused(t, l, "octocat"), 7200*time.Millisecond)
	})

	t.Run("per-hour off", func(t *testing.T) {
		clock := newLimitClock()
		l := limiterWithClock(WriteLimits{PerHour: -1}, clock.Now)

		// 80 a minute for two hours: 9,600 writes, far over 500 an hour.
		for range 120 {
			allowN(t, l, "octocat", 80)
			checkNear(t, "retry after", refused(t, l, "octocat"), 750*time.Millisecond)
			clock.Advance(time.Minute)
		}
	})

	t.Run("both off", func(t *testing.T) {
		clock := newLimitClock()
		l := limiterWithClock(WriteLimits{PerMinute: -1, PerHour: -1}, clock.Now)

		for i := range 100000 {
			if ok, retry := l.AllowWrite(context.Background(), "octocat"); !ok || retry != 0 {
				t.Fatalf("write %d: allow = %v, %v; want true, 0", i+1, ok, retry)
			}
		}
		for i := range 1000 {
			allowN(t, l, strconv.Itoa(i), 1)
		}
		if n := trackedKeys(t, l); n != 0 {
			t.Errorf("%d keys tracked; want none when every limit is off", n)
		}
	})
}

func TestWriteLimitMemoryBounded(t *testing.T) {
	for _, tc := range []struct {
		name    string
		maxKeys int
		want    int
	}{
		{"default", 0, defaultWriteLimitKeys},
		{"negative", -1, defaultWriteLimitKeys},
		{"1000", 1000, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := newLimitClock()
			l := limiterWithClock(WriteLimits{MaxKeys: tc.maxKeys}, clock.Now)
			for i := range 100000 {
				allowN(t, l, "principal-"+strconv.Itoa(i), 1)
			}
			if n := trackedKeys(t, l); n != tc.want {
				t.Errorf("%d keys tracked after 100,000 distinct keys; want %d", n, tc.want)
			}
		})
	}
}

// TestWriteLimitLongKeys checks that the limiter holds at most maxKeyBytes of
// each key however long the logins, and still tells long keys apart: each
// long login has its own allowance, and the same login shares one.
func TestWriteLimitLongKeys(t *testing.T) {
	clock := newLimitClock()
	l := limiterWithClock(WriteLimits{PerMinute: 1, PerHour: -1, MaxKeys: 100}, clock.Now)
	long := func(i int) string { return strings.Repeat("x", 64<<10) + strconv.Itoa(i) }
	for i := range 1000 {
		allowN(t, l, long(i), 1)
	}
	refused(t, l, long(999))
	refused(t, l, long(998))
	l.mu.Lock()
	held := 0
	for key := range l.byKey {
		held += len(key)
	}
	l.mu.Unlock()
	if held > 100*maxKeyBytes {
		t.Errorf("the limiter holds %d bytes of keys for 100 keys; want at most %d", held, 100*maxKeyBytes)
	}
}

// BenchmarkWriteLimitLongKeys reports the heap that the limiter keeps after
// defaultWriteLimitKeys principals with 64 KiB logins have written: without
// bounded keys that is about 700 MB.
func BenchmarkWriteLimitLongKeys(b *testing.B) {
	login := strings.Repeat("x", 64<<10)
	for range b.N {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		l := newWriteLimiter(WriteLimits{})
		for i := range defaultWriteLimitKeys {
			l.AllowWrite(context.Background(), login+strconv.Itoa(i))
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc)-float64(before.HeapAlloc), "retained-B")
		runtime.KeepAlive(l)
	}
}

func TestWriteLimitEvictsLeastRecentlyUsed(t *testing.T) {
	clock := newLimitClock()
	l := limiterWithClock(WriteLimits{PerMinute: 1, PerHour: -1, MaxKeys: 3}, clock.Now)

	allowN(t, l, "a", 1)
	allowN(t, l, "b", 1)
	allowN(t, l, "c", 1)
	refused(t, l, "a") // a is now the most recently used, b the least
	allowN(t, l, "d", 1)
	if n := trackedKeys(t, l); n != 3 {
		t.Fatalf("%d keys tracked; want 3", n)
	}
	refused(t, l, "a") // still tracked, still empty
	refused(t, l, "c")
	refused(t, l, "d")
	allowN(t, l, "b", 1) // forgotten, so it starts again with a full bucket
}

func TestWriteLimitConcurrent(t *testing.T) {
	clock := newLimitClock()
	l := limiterWithClock(WriteLimits{}, clock.Now)

	var allowed atomic.Int64
	var wg sync.WaitGroup
	for g := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if ok, _ := l.AllowWrite(context.Background(), "octocat"); ok {
					allowed.Add(1)
				}
				// Other keys contend for the same lock and evict
				// nothing: far fewer than defaultWriteLimitKeys.
				l.AllowWrite(context.Background(), "other-"+strconv.Itoa(g))
			}
		}()
	}
	wg.Wait()
	if n := allowed.Load(); n != 80 {
		t.Errorf("%d of 6,400 concurrent writes allowed at one instant; want the burst, 80", n)
	}
}

func TestWriteLimitRetryAfterSeconds(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{-time.Second, "1"},
		{0, "1"},
		{time.Nanosecond, "1"},
		{750 * time.Millisecond, "1"},
		{time.Second, "1"},
		{time.Second + time.Nanosecond, "2"},
		{7200 * time.Millisecond, "8"},
		{time.Hour, "3600"},
		{math.MaxInt64, "9223372037"},
	} {
		if got := retryAfterSeconds(tc.d); got != tc.want {
			t.Errorf("retryAfterSeconds(%v) = %q; want %q", tc.d, got, tc.want)
		}
	}
}

func BenchmarkWriteLimiterAllow(b *testing.B) {
	b.Run("hot key allowed", func(b *testing.B) {
		// Ten seconds between calls refill both limits.
		clock := newLimitClock()
		l := limiterWithClock(WriteLimits{}, clock.Now)
		b.ReportAllocs()
		for b.Loop() {
			clock.Advance(10 * time.Second)
			if ok, _ := l.AllowWrite(context.Background(), "octocat"); !ok {
				b.Fatal("refused")
			}
		}
	})

	b.Run("hot key refused", func(b *testing.B) {
		clock := newLimitClock()
		l := limiterWithClock(WriteLimits{}, clock.Now)
		for range defaultWritesPerMinute {
			l.AllowWrite(context.Background(), "octocat")
		}
		b.ReportAllocs()
		for b.Loop() {
			if ok, _ := l.AllowWrite(context.Background(), "octocat"); ok {
				b.Fatal("allowed")
			}
		}
	})

	b.Run("hot key parallel", func(b *testing.B) {
		l := newWriteLimiter(WriteLimits{})
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				l.AllowWrite(context.Background(), "octocat")
			}
		})
	})

	keys := make([]string, 100000)
	for i := range keys {
		keys[i] = "principal-" + strconv.Itoa(i)
	}

	b.Run("many keys tracked", func(b *testing.B) {
		// 10,000 keys, all held: every call finds its key.
		clock := newLimitClock()
		l := limiterWithClock(WriteLimits{}, clock.Now)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			clock.Advance(time.Millisecond)
			l.AllowWrite(context.Background(), keys[i%defaultWriteLimitKeys])
			i++
		}
	})

	b.Run("many keys evicting", func(b *testing.B) {
		// 100,000 keys in turn through 10,000 places: every call
		// evicts a key and starts a new one.
		l := newWriteLimiter(WriteLimits{})
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			l.AllowWrite(context.Background(), keys[i%len(keys)])
			i++
		}
	})
}

// limiterWithClock returns the limiter of c that reads the time from now.
func limiterWithClock(c WriteLimits, now func() time.Time) *writeLimiter {
	l := newWriteLimiter(c)
	l.now = now
	return l
}
