package pgstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
)

// TestWriteBudgetsBounded has 100,000 principals write once each, a
// thousand a second by the test's clock, at the default limits: the table
// of budgets keeps only the keys of the last seconds, whose budgets are not
// full yet, the limiter keeps at most MaxKeys leases, and an hour later the
// table is empty.
func TestWriteBudgetsBounded(t *testing.T) {
	const (
		keys      = 100000
		perSecond = 1000
		workers   = 4
	)
	_, pool := newStore(t)
	l := pgstore.New(pool, pgstore.Timeout(patientTimeout)).WriteLimiter(issuefields.WriteLimits{}, quietLog(t))
	t.Cleanup(l.Close)
	ctx := context.Background()
	count := func() int {
		t.Helper()
		var n int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM write_budgets`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	most := 0
	for second := range keys / perSecond {
		pgstore.SetWriteLimiterClock(l, time.Duration(second)*time.Second)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < perSecond; i += workers {
					key := fmt.Sprintf("app:login-%d-%d", second, i)
					if ok, retry := l.AllowWrite(ctx, key); !ok {
						t.Errorf("the first write of %s: refused (retry after %v)", key, retry)
					}
				}
			}()
		}
		wg.Wait()
		pgstore.SweepWriteLimiter(l)
		most = max(most, count())
		if n := pgstore.WriteLimiterKeys(l); n > 10000 {
			t.Fatalf("after %d s, the limiter keeps %d leases, more than MaxKeys", second+1, n)
		}
	}
	t.Logf("the table held at most %d rows", most)
	if most > 15*perSecond {
		t.Errorf("the table held %d rows, more than the keys of the last 15 s", most)
	}
	pgstore.SetWriteLimiterClock(l, time.Duration(keys/perSecond)*time.Second+time.Hour)
	pgstore.SweepWriteLimiter(l)
	pgstore.SweepWriteLimiter(l)
	if n := count(); n != 0 {
		t.Errorf("an hour after the last write, the table holds %d rows, want none", n)
	}
}
