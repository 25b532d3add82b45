package storetest_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/storetest"
)

func TestInProcessWriteLimiter(t *testing.T) {
	t.Parallel()
	storetest.RunWriteLimiter(t, func(_ *testing.T, limits issuefields.WriteLimits) issuefields.WriteLimiter {
		return issuefields.NewWriteLimiter(limits)
	})
}

// The limiters below each break one rule of the contract, on top of the
// in-process limiter.

// oneBudget counts the writes of every key against one budget.
type oneBudget struct{ issuefields.WriteLimiter }

func (l oneBudget) AllowWrite(ctx context.Context, _ string) (bool, time.Duration) {
	return l.WriteLimiter.AllowWrite(ctx, "everyone")
}

// truncatedKeys keeps the first 64 bytes of each key.
type truncatedKeys struct{ issuefields.WriteLimiter }

func (l truncatedKeys) AllowWrite(ctx context.Context, key string) (bool, time.Duration) {
	return l.WriteLimiter.AllowWrite(ctx, key[:min(len(key), 64)])
}

// noRetryAfter refuses with a retryAfter of zero.
type noRetryAfter struct{ issuefields.WriteLimiter }

func (l noRetryAfter) AllowWrite(ctx context.Context, key string) (bool, time.Duration) {
	ok, _ := l.WriteLimiter.AllowWrite(ctx, key)
	return ok, 0
}

// allowAll allows every write.
type allowAll struct{}

func (allowAll) AllowWrite(context.Context, string) (bool, time.Duration) { return true, 0 }

// penalizing refuses the next thousand writes of a key after refusing one,
// as if the refused write had been counted.
type penalizing struct {
	issuefields.WriteLimiter
	mu      sync.Mutex
	penalty map[string]int
}

func (l *penalizing) AllowWrite(ctx context.Context, key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.penalty[key] > 0 {
		l.penalty[key]--
		return false, time.Second
	}
	ok, retry := l.WriteLimiter.AllowWrite(ctx, key)
	if !ok {
		l.penalty[key] = 1000
	}
	return ok, retry
}

// checkThenCount allows the first writes of a key up to a limit, but reads
// and updates the key's count in two steps, which concurrent calls
// interleave.
type checkThenCount struct {
	limit  int
	mu     sync.Mutex
	counts map[string]int
}

func (l *checkThenCount) AllowWrite(_ context.Context, key string) (bool, time.Duration) {
	l.mu.Lock()
	n := l.counts[key]
	l.mu.Unlock()
	time.Sleep(100 * time.Microsecond) // lets concurrent calls read the same count
	l.mu.Lock()
	l.counts[key]++
	l.mu.Unlock()
	return n < l.limit, time.Second
}

func TestBrokenWriteLimitersFail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		limiter func(issuefields.WriteLimits) issuefields.WriteLimiter
		want    []string // cases that must fail, among others
	}{
		{"one budget for every key",
			func(l issuefields.WriteLimits) issuefields.WriteLimiter {
				return oneBudget{issuefields.NewWriteLimiter(l)}
			},
			[]string{"AllowWrite counts the writes of each key apart, whatever their length and bytes"}},
		{"keys truncated",
			func(l issuefields.WriteLimits) issuefields.WriteLimiter {
				return truncatedKeys{issuefields.NewWriteLimiter(l)}
			},
			[]string{"AllowWrite counts the writes of each key apart, whatever their length and bytes"}},
		{"no retryAfter",
			func(l issuefields.WriteLimits) issuefields.WriteLimiter {
				return noRetryAfter{issuefields.NewWriteLimiter(l)}
			},
			[]string{"AllowWrite allows as many writes at once as the per-minute count, then refuses with retryAfter at most the time one write takes to refill"}},
		{"no hourly limit",
			func(l issuefields.WriteLimits) issuefields.WriteLimiter {
				l.PerHour = -1
				return issuefields.NewWriteLimiter(l)
			},
			[]string{
				"AllowWrite allows as many writes at once as the per-hour count, then refuses with retryAfter at most the time one write takes to refill",
				"AllowWrite refuses until every limit allows a write, with retryAfter the time until then",
			}},
		{"no limit",
			func(issuefields.WriteLimits) issuefields.WriteLimiter { return allowAll{} },
			[]string{"AllowWrite with the zero WriteLimits allows 80 writes at once, then refuses"}},
		{"refused writes counted",
			func(l issuefields.WriteLimits) issuefields.WriteLimiter {
				return &penalizing{WriteLimiter: issuefields.NewWriteLimiter(l), penalty: map[string]int{}}
			},
			[]string{"AllowWrite counts a refused write against no limit, and allows a write again after retryAfter"}},
		{"counts without a lock",
			func(l issuefields.WriteLimits) issuefields.WriteLimiter {
				return &checkThenCount{limit: max(l.PerMinute, 0), counts: map[string]int{}}
			},
			[]string{"AllowWrite called concurrently for one key allows no more than the limit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := storetest.TestWriteLimiter(func(l issuefields.WriteLimits) (issuefields.WriteLimiter, error) {
				return tt.limiter(l), nil
			})
			if err == nil {
				t.Fatal("TestWriteLimiter = nil, want failures")
			}
			for _, name := range tt.want {
				if !strings.Contains(err.Error(), name+":\n") {
					t.Errorf("the case %q did not fail; TestWriteLimiter = %v", name, err)
				}
			}
		})
	}
}
