package pgstore_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/time/rate"
)

// A cluster is servers over one database, each with a store, a pool and a
// shared write limiter of its own, whose clocks a test drives.
type cluster struct {
	cfg    *pgxpool.Config
	limits issuefields.WriteLimits
	clock  time.Duration // how far the test moved the clocks

	stores   []*pgstore.Store
	limiters []*pgstore.WriteLimiter
	handlers []http.Handler
}

// newCluster returns n servers over the database of cfg, each limiting
// writes to limits; they stop when t ends.
func newCluster(t *testing.T, cfg *pgxpool.Config, n int, limits issuefields.WriteLimits) *cluster {
	c := &cluster{cfg: cfg, limits: limits,
		stores: make([]*pgstore.Store, n), limiters: make([]*pgstore.WriteLimiter, n), handlers: make([]http.Handler, n)}
	for i := range n {
		c.start(t, i)
	}
	return c
}

// start starts server i with a new store, limiter and handler, as a restart
// does.
func (c *cluster) start(t *testing.T, i int) {
	s, err := pgstore.Open(context.Background(), c.cfg, pgstore.PoolSize(4), pgstore.Timeout(patientTimeout))
	if err != nil {
		t.Fatal(err)
	}
	l := s.WriteLimiter(c.limits, quietLog(t))
	t.Cleanup(func() {
		l.Close()
		s.Close()
	})
	pgstore.SetWriteLimiterClock(l, c.clock)
	c.stores[i], c.limiters[i], c.handlers[i] = s, l, newLimitedHandler(t, s, l)
}

// restart stops server i and starts it again. A server that dies closes
// its connections before its limiter, which gives back nothing.
func (c *cluster) restart(t *testing.T, i int, dies bool) {
	if dies {
		c.stores[i].Close()
	}
	c.limiters[i].Close()
	c.stores[i].Close()
	c.start(t, i)
}

// advance moves the clocks of every server and of the database to d after
// the start.
func (c *cluster) advance(d time.Duration) {
	c.clock = d
	for _, l := range c.limiters {
		pgstore.SetWriteLimiterClock(l, d)
	}
}

// sweep runs the background work of every server once.
func (c *cluster) sweep() {
	for _, l := range c.limiters {
		pgstore.SweepWriteLimiter(l)
	}
}

// inProcess counts, by the test's clock, the writes that one server with the
// in-process limiter's buckets would accept of a stream: a bucket per limit,
// with a burst of its count, refilling evenly over its period.
type inProcess struct {
	start    time.Time
	limiters []*rate.Limiter
}

func newInProcess(limits issuefields.WriteLimits) *inProcess {
	p := &inProcess{start: time.Now()}
	for _, l := range []struct {
		count  int
		period time.Duration
	}{{limits.PerMinute, time.Minute}, {limits.PerHour, time.Hour}} {
		if l.count > 0 {
			p.limiters = append(p.limiters, rate.NewLimiter(rate.Limit(float64(l.count)/l.period.Seconds()), l.count))
		}
	}
	return p
}

// allow reports whether the server would accept a write at d after the
// start, and counts it if so.
func (p *inProcess) allow(d time.Duration) bool {
	at := p.start.Add(d)
	for _, l := range p.limiters {
		if l.TokensAt(at) < 1 {
			return false
		}
	}
	for _, l := range p.limiters {
		l.AllowN(at, 1)
	}
	return true
}

// TestWriteLimitAcrossServers sends one principal's stream of writes
// round-robin to three servers over one database, one of them restarted
// half-way, gracefully or as a crash: the servers together may accept no more
// of it than one server alone with the in-process limiter, plus the stated
// slack of a lease per server, and at most 10% more; nor may they accept
// much less. The minute's stream goes through the handlers, 300 writes over
// a minute as the issue measured; the hour's, 3,600 writes over two hours,
// through the limiters.
func TestWriteLimitAcrossServers(t *testing.T) {
	databaseURL(t)
	tests := []struct {
		name          string
		limits        issuefields.WriteLimits
		writes        int
		every         time.Duration
		throughServer bool
		dies          bool
	}{
		{"a minute, restart", issuefields.WriteLimits{PerMinute: 80, PerHour: 500}, 300, 200 * time.Millisecond, true, false},
		{"a minute, crash", issuefields.WriteLimits{PerMinute: 80, PerHour: 500}, 300, 200 * time.Millisecond, true, true},
		{"two hours, restart", issuefields.WriteLimits{PerMinute: -1, PerHour: 500}, 3600, 2 * time.Second, false, false},
		{"two hours, crash", issuefields.WriteLimits{PerMinute: -1, PerHour: 500}, 3600, 2 * time.Second, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, seed := newBoundedStore(t, 1, 1)
			const servers = 3
			c := newCluster(t, cfg, servers, tt.limits)
			path := valuesPath("octo-org", "hello-world", 1)
			alone := newInProcess(tt.limits)
			var accepted, acceptedAlone int
			for i := range tt.writes {
				at := time.Duration(i) * tt.every
				c.advance(at)
				if at%(time.Second) == 0 {
					c.sweep()
				}
				if i == tt.writes/2 {
					c.restart(t, 1, tt.dies)
				}
				if alone.allow(at) {
					acceptedAlone++
				}
				server := i % servers
				if !tt.throughServer {
					if ok, _ := c.limiters[server].AllowWrite(context.Background(), writerKey); ok {
						accepted++
					}
					continue
				}
				switch rec := serve(c.handlers[server], "POST", path, textBody(1, fmt.Sprint("write ", i))); rec.Code {
				case http.StatusOK:
					accepted++
				case http.StatusUnprocessableEntity:
					if s, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || s < 1 ||
						!strings.Contains(rec.Body.String(), "secondary rate limit") {
						t.Fatalf("write %d: 422 with Retry-After %q: %s; want the secondary rate limit and a Retry-After of at least 1",
							i, rec.Header().Get("Retry-After"), rec.Body)
					}
				default:
					t.Fatalf("write %d: status %d: %s", i, rec.Code, rec.Body)
				}
			}
			slack := servers * pgstore.WriteLimiterLease(c.limiters[0])
			t.Logf("of %d writes, %d servers accepted %d, one server alone %d; the slack is %d", tt.writes, servers, accepted, acceptedAlone, slack)
			if accepted > acceptedAlone+slack || accepted*10 > acceptedAlone*11 {
				t.Errorf("%d servers accepted %d writes, one alone %d: more than the slack of %d, or than 10%%", servers, accepted, acceptedAlone, slack)
			}
			if lost := 2 * slack; accepted < acceptedAlone-lost {
				t.Errorf("%d servers accepted %d writes, one alone %d: fewer by more than %d", servers, accepted, acceptedAlone, lost)
			}
			if tt.throughServer {
				if values, _ := storedValues(t, seed, "octo-org", "hello-world", 1); len(values) != 1 {
					t.Errorf("issue 1 holds %+v, want the last accepted write", values)
				}
			}
		})
	}
}

// TestWriteLimitRestart checks that a server's restart neither resets nor
// doubles a budget: of a limit of 80 an hour, a server spends 79 and stops;
// the server started in its place may make the one write left if the first
// gave back its lease as it stopped, and none if it died holding it.
func TestWriteLimitRestart(t *testing.T) {
	databaseURL(t)
	for _, tt := range []struct {
		name string
		dies bool
		left int
	}{{"graceful", false, 1}, {"crash", true, 0}} {
		t.Run(tt.name, func(t *testing.T) {
			_, cfg := newSchema(t)
			if err := pgstore.Migrate(context.Background(), newPool(t, cfg)); err != nil {
				t.Fatal(err)
			}
			c := newCluster(t, cfg, 1, issuefields.WriteLimits{PerMinute: -1, PerHour: 80})
			for i := range 79 {
				if ok, retry := c.limiters[0].AllowWrite(context.Background(), writerKey); !ok {
					t.Fatalf("write %d of 79: refused (retry after %v)", i+1, retry)
				}
			}
			c.restart(t, 0, tt.dies)
			allowed := 0
			for range 5 {
				if ok, _ := c.limiters[0].AllowWrite(context.Background(), writerKey); ok {
					allowed++
				}
			}
			if allowed != tt.left {
				t.Errorf("after the restart, %d writes allowed, want %d", allowed, tt.left)
			}
		})
	}
}
