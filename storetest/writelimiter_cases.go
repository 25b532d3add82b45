package storetest

import (
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/issuefields/issuefields"
)

// limiterCases check a WriteLimiter against the contract in the
// documentation of issuefields.WriteLimiter and issuefields.WriteLimits.
var limiterCases = []limiterCase{
	{"AllowWrite allows as many writes at once as the per-minute count, then refuses with retryAfter at most the time one write takes to refill", perMinuteBurst},
	{"AllowWrite allows as many writes at once as the per-hour count, then refuses with retryAfter at most the time one write takes to refill", perHourBurst},
	{"AllowWrite with the zero WriteLimits allows 80 writes at once, then refuses", defaultBurst},
	{"AllowWrite allows every write when both counts are negative", limitsOff},
	{"AllowWrite refuses until every limit allows a write, with retryAfter the time until then", everyLimit},
	{"AllowWrite counts the writes of each key apart, whatever their length and bytes", keysApart},
	{"AllowWrite counts a refused write against no limit, and allows a write again after retryAfter", refusedCountsNothing},
	{"AllowWrite called concurrently for one key allows no more than the limit", concurrentWrites},
}

func perMinuteBurst(e *limiterEnv) {
	l := e.newLimiter(issuefields.WriteLimits{PerMinute: 10, PerHour: -1})
	e.allow(l, "app:octocat", 10)
	if retry := e.refused(l, "app:octocat", "write 11 of a limit of 10 a minute"); retry > 6*time.Second {
		e.r.Errorf("retryAfter %v, want at most 6s, the time a limit of 10 a minute takes to refill one write", retry)
	}
}

func perHourBurst(e *limiterEnv) {
	l := e.newLimiter(issuefields.WriteLimits{PerMinute: -1, PerHour: 20})
	e.allow(l, "app:octocat", 20)
	if retry := e.refused(l, "app:octocat", "write 21 of a limit of 20 an hour"); retry > 3*time.Minute {
		e.r.Errorf("retryAfter %v, want at most 3m, the time a limit of 20 an hour takes to refill one write", retry)
	}
}

func defaultBurst(e *limiterEnv) {
	l := e.newLimiter(issuefields.WriteLimits{})
	e.allow(l, "app:octocat", 80)
	if retry := e.refused(l, "app:octocat", "write 81 of the default limits"); retry > 750*time.Millisecond {
		e.r.Errorf("retryAfter %v, want at most 750ms, the time the default limit of 80 a minute takes to refill one write", retry)
	}
}

func limitsOff(e *limiterEnv) {
	l := e.newLimiter(issuefields.WriteLimits{PerMinute: -1, PerHour: -1})
	e.allow(l, "app:octocat", 1000)
}

func everyLimit(e *limiterEnv) {
	// Both limits are spent at once: the minute's refills a write every
	// second, the hour's every minute.
	l := e.newLimiter(issuefields.WriteLimits{PerMinute: 60, PerHour: 60})
	e.allow(l, "app:octocat", 60)
	if retry := e.refused(l, "app:octocat", "write 61 of limits of 60 a minute and 60 an hour"); retry <= 30*time.Second || retry > time.Minute {
		e.r.Errorf("retryAfter %v, want about a minute, until the hourly limit refills a write", retry)
	}
}

func keysApart(e *limiterEnv) {
	l := e.newLimiter(issuefields.WriteLimits{PerMinute: 3, PerHour: -1})
	long := "app:" + strings.Repeat("x", 300)
	keys := []string{"app:a", "app:b", "user:a", long, long + "y", strings.Repeat("x", 300) + ":app", "app:\x00", "app:\xff", ""}
	for _, key := range keys {
		e.allow(l, key, 3)
		e.refused(l, key, "write 4 of a limit of 3 a minute")
	}
}

func refusedCountsNothing(e *limiterEnv) {
	// The minute's limit refills a write every half second; the hour's
	// holds only a few more writes than the minute's, fewer than the
	// refused writes.
	l := e.newLimiter(issuefields.WriteLimits{PerMinute: 120, PerHour: 130})
	const key = "app:octocat"
	allowed := 0
	for allowed < 130 {
		if ok, _ := l.AllowWrite(e.ctx, key); !ok {
			break
		}
		allowed++
	}
	if allowed < 120 || allowed > 125 {
		e.r.Errorf("allowed %d writes at once, want 120 (and a few more if the limit refilled meanwhile)", allowed)
	}
	first := e.refused(l, key, "the write after the limit of 120 a minute")
	if first > 500*time.Millisecond {
		e.r.Errorf("retryAfter %v, want at most 500ms, the time a limit of 120 a minute takes to refill one write", first)
	}
	last := first
	for i := range 200 {
		retry := e.refused(l, key, "a write while the limit is spent")
		if retry > last {
			e.r.Errorf("refused write %d: retryAfter %v, after %v: refused writes are counted", i+1, retry, last)
			return
		}
		last = retry
	}
	time.Sleep(last + 50*time.Millisecond)
	if ok, retry := l.AllowWrite(e.ctx, key); !ok {
		e.r.Errorf("a write after retryAfter: refused (retryAfter %v); the refused writes were counted against a limit", retry)
	}
}

func concurrentWrites(e *limiterEnv) {
	const (
		limit      = 50
		goroutines = 16
		calls      = 10
	)
	l := e.newLimiter(issuefields.WriteLimits{PerMinute: limit, PerHour: -1})
	var allowed, badRetry atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range calls {
				ok, retry := l.AllowWrite(e.ctx, "app:octocat")
				switch {
				case ok:
					allowed.Add(1)
				case retry <= 0:
					badRetry.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	refilled := int64(time.Since(start).Seconds()*limit/60) + 1
	if n := allowed.Load(); n < limit || n > limit+refilled {
		e.r.Errorf("%d concurrent calls allowed %d writes, want %d (and at most %d more that refilled meanwhile)",
			goroutines*calls, n, limit, refilled)
	}
	if n := badRetry.Load(); n > 0 {
		e.r.Errorf("%d refused writes had a retryAfter that is not positive", n)
	}
}
