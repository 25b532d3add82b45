package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/conformance"
)

// RunWriteLimiter runs every case of the suite of [issuefields.WriteLimiter]
// as a subtest of t named with the sentence of the contract it enforces. A
// case calls newLimiter for a limiter that enforces limits and has counted
// no write yet; the limiter is the case's alone, and newLimiter may register
// its cleanup with t. The cases take a few seconds in all: some wait for a
// limit to refill.
func RunWriteLimiter(t *testing.T, newLimiter func(t *testing.T, limits issuefields.WriteLimits) issuefields.WriteLimiter) {
	conformance.Run(t, limiterCases, func(t *testing.T) *limiterEnv {
		return &limiterEnv{r: t, ctx: context.Background(),
			newLimiter: func(limits issuefields.WriteLimits) issuefields.WriteLimiter { return newLimiter(t, limits) }}
	})
}

// TestWriteLimiter runs every case of the suite of [issuefields.WriteLimiter]
// without a [testing.T], calling newLimiter as [RunWriteLimiter] does. If a
// case fails, or newLimiter returns an error, or a limiter panics,
// TestWriteLimiter returns an error for each failed case, combined with
// [errors.Join], in the form of [TestStore]'s.
func TestWriteLimiter(newLimiter func(limits issuefields.WriteLimits) (issuefields.WriteLimiter, error)) error {
	return conformance.Record(limiterCases, func(r conformance.Reporter) *limiterEnv {
		return &limiterEnv{r: r, ctx: context.Background(), newLimiter: func(limits issuefields.WriteLimits) issuefields.WriteLimiter {
			l, err := newLimiter(limits)
			if err != nil {
				r.Fatalf("new limiter with %+v: %v", limits, err)
			}
			return l
		}}
	})
}

// A limiterCase is one case of the suite of WriteLimiter.
type limiterCase struct {
	Name string // the sentence of the contract that the case enforces
	Run  func(e *limiterEnv)
}

// A limiterEnv is what a case of the suite of WriteLimiter runs with: the
// reporter of failures and the function that makes the limiters under test.
type limiterEnv struct {
	r          conformance.Reporter
	ctx        context.Context
	newLimiter func(issuefields.WriteLimits) issuefields.WriteLimiter
}

// allow calls l.AllowWrite for key n times, and reports each call that
// refuses the write.
func (e *limiterEnv) allow(l issuefields.WriteLimiter, key string, n int) {
	e.r.Helper()
	for i := range n {
		if ok, retry := l.AllowWrite(e.ctx, key); !ok {
			e.r.Errorf("write %d of %d of %q: refused (retryAfter %v), want allowed", i+1, n, shortKey(key), retry)
			return
		}
	}
}

// refused calls l.AllowWrite for key once, reports the call if it allows
// the write or gives a retryAfter that is not positive, and returns the
// retryAfter.
func (e *limiterEnv) refused(l issuefields.WriteLimiter, key string, what string) time.Duration {
	e.r.Helper()
	ok, retry := l.AllowWrite(e.ctx, key)
	switch {
	case ok:
		e.r.Errorf("%s of %q: allowed, want refused", what, shortKey(key))
	case retry <= 0:
		e.r.Errorf("%s of %q: refused with retryAfter %v, want a positive duration", what, shortKey(key), retry)
	}
	return retry
}

// shortKey returns key, or its beginning and length when it is long, for a
// failure's message.
func shortKey(key string) string {
	if len(key) <= 40 {
		return key
	}
	return fmt.Sprintf("%s… (%d bytes)", key[:40], len(key))
}
