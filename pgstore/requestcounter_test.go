package pgstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/issuefields/issuefields/pgstore"
)

// newCounters returns n RequestCounters of servers that share one new
// database, each with a Store of its own; they close when t ends.
func newCounters(t *testing.T, n int) ([]*pgstore.RequestCounter, []*pgstore.Store) {
	t.Helper()
	_, pool := newStore(t)
	counters := make([]*pgstore.RequestCounter, n)
	stores := make([]*pgstore.Store, n)
	for i := range n {
		stores[i] = pgstore.New(pool, pgstore.Timeout(patientTimeout))
		counters[i] = stores[i].RequestCounter(quietLog(t))
		t.Cleanup(counters[i].Close)
	}
	return counters, stores
}

const budgetKey = "core/fine_grained_pat:octocat"

func TestRequestCounterSharesABudgetWithinTheSlack(t *testing.T) {
	const limit, slack = 200, 50 // the slack of 200: 50, more than a hundredth
	c, _ := newCounters(t, 2)
	accepted := 0
	for i := 0; i < 2*limit; i++ {
		used, reset, ok := c[i%2].Spend(budgetKey, time.Hour, limit)
		if ok {
			accepted++
		}
		if off := accepted - used; ok && (off < 0 || off > slack) {
			t.Fatalf("request %d: the server sees %d used of %d accepted, off by more than %d", i, used, accepted, slack)
		}
		if until := time.Until(reset); until <= 0 || until > time.Hour {
			t.Fatalf("request %d: the window ends in %v, want within the hour", i, until)
		}
	}
	if accepted < limit || accepted > limit+slack {
		t.Errorf("the two servers accepted %d requests of a budget of %d, want %d to %d", accepted, limit, limit, limit+slack)
	}
}

func TestRequestCounterShowsAnotherServersCounts(t *testing.T) {
	c, _ := newCounters(t, 2)
	for range 10 {
		c[0].Spend(budgetKey, time.Hour, 100)
	}
	pgstore.SweepRequestCounter(c[0])
	if used, _ := c[1].Peek(budgetKey, time.Hour); used != 10 {
		t.Errorf("the other server's Peek: %d used, want 10", used)
	}
	if used, _, ok := c[1].Spend(budgetKey, time.Hour, 100); !ok || used != 11 {
		t.Errorf("the other server's Spend: %d used (%v), want 11", used, ok)
	}
	// A closed counter writes what it counted.
	c[1].Spend(budgetKey, time.Hour, 100)
	c[1].Close()
	pgstore.SweepRequestCounter(c[0])
	if used, _ := c[0].Peek(budgetKey, time.Hour); used != 12 {
		t.Errorf("after the other server closed: %d used, want 12", used)
	}
}

func TestRequestCounterWindowsEndByTheClock(t *testing.T) {
	c, _ := newCounters(t, 1)
	if _, _, ok := c[0].Spend(budgetKey, time.Hour, 1); !ok {
		t.Fatal("the first request is refused")
	}
	if _, _, ok := c[0].Spend(budgetKey, time.Hour, 1); ok {
		t.Fatal("the second request of a budget of 1 is accepted")
	}
	pgstore.SetRequestCounterClock(c[0], time.Hour+time.Second)
	pgstore.SweepRequestCounter(c[0])
	used, reset, ok := c[0].Spend(budgetKey, time.Hour, 1)
	if !ok || used != 1 {
		t.Errorf("after the window: %d used (%v), want 1 accepted", used, ok)
	}
	if until := time.Until(reset); until < time.Hour || until > 2*time.Hour+time.Second {
		t.Errorf("the new window ends in %v, want an hour after the moved clock", until)
	}
}

func TestRequestCounterRefundsAndEmptying(t *testing.T) {
	c, stores := newCounters(t, 2)
	_, reset, _ := c[0].Spend(budgetKey, time.Hour, 2)
	c[0].Refund(budgetKey, reset)
	c[0].Spend(budgetKey, time.Hour, 2)
	if _, _, ok := c[0].Spend(budgetKey, time.Hour, 2); !ok {
		t.Fatal("a refunded request still counts")
	}
	pgstore.SweepRequestCounter(c[0])
	if _, _, ok := c[1].Spend(budgetKey, time.Hour, 2); ok {
		t.Fatal("the other server accepts a request of a spent budget")
	}
	if err := stores[0].Empty(context.Background()); err != nil {
		t.Fatal(err)
	}
	c[0].Reset()
	pgstore.SweepRequestCounter(c[1]) // reads the count of resets
	for i, counter := range c {
		if used, _, ok := counter.Spend(budgetKey, time.Hour, 2); !ok || used != 1 {
			t.Errorf("server %d after emptying: %d used (%v), want 1 accepted", i, used, ok)
		}
	}
}
