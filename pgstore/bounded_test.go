package pgstore_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// testTimeout is the store's Timeout in the tests of bounded waits: short,
// so that they run fast, and far from the bounds they check, which are
// generous.
const testTimeout = time.Second

// newBoundedStore returns an empty, migrated schema of its own, the pool
// configuration of its connections, and a seeded store in it: organization
// octo-org with text fields 1 to fields, repository hello-world and its
// issues 1 to issues.
func newBoundedStore(t *testing.T, fields, issues int) (*pgxpool.Config, *pgstore.Store) {
	t.Helper()
	_, cfg := newSchema(t)
	pool := newPool(t, cfg.Copy())
	if err := pgstore.Migrate(context.Background(), pool); err != nil {
		t.Fatal(err)
	}
	seed := pgstore.New(pool)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(seed.AddOrganization("octo-org"))
	for id := int64(1); id <= int64(fields); id++ {
		must(seed.AddField("octo-org", issuefields.Field{ID: id, Name: fmt.Sprint("Field ", id), DataType: issuefields.DataTypeText}))
	}
	_, err := seed.AddRepository("octo-org", "hello-world", false)
	must(err)
	for n := int64(1); n <= int64(issues); n++ {
		must(seed.AddIssue("octo-org", "hello-world", n))
	}
	return cfg, seed
}

// openStore returns a store of pgstore.Open over cfg, closed when t ends.
func openStore(t *testing.T, cfg *pgxpool.Config, opts ...pgstore.Option) *pgstore.Store {
	t.Helper()
	s, err := pgstore.Open(context.Background(), cfg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// TestLockedIssueHoldsBackNoOtherRequest holds the row of issue 1 locked in
// a transaction of its own, as a slow writer or a psql session would, for up
// to 20 s, while many clients write to issue 1 and others read and write
// issues 2 and 3 through a handler with a pool of four connections. The
// writes to issue 1 must answer 503 with Retry-After while the lock is still
// held; every request for the other issues must answer 200, also while the
// lock is held.
func TestLockedIssueHoldsBackNoOtherRequest(t *testing.T) {
	cfg, seed := newBoundedStore(t, 2, 3)
	h := newHandler(t, openStore(t, cfg, pgstore.Timeout(testTimeout), pgstore.PoolSize(4)))
	ctx := context.Background()

	locker, err := pgx.ConnectConfig(ctx, cfg.ConnConfig.Copy())
	if err != nil {
		t.Fatal(err)
	}
	defer locker.Close(ctx)
	tx, err := locker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT 1 FROM issues WHERE number = 1 FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	var released atomic.Bool
	release := sync.OnceFunc(func() {
		released.Store(true)
		_ = tx.Rollback(ctx)
	})
	timer := time.AfterFunc(20*time.Second, release)
	defer timer.Stop()
	defer release()

	var wg sync.WaitGroup
	for w := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := serve(h, "POST", valuesPath("octo-org", "hello-world", 1), textBody(1, fmt.Sprint("locked ", w)))
			if released.Load() {
				t.Errorf("a POST to the locked issue answered %d only after the lock was released", rec.Code)
			} else if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
				t.Errorf("POST to the locked issue: status %d, Retry-After %q; want 503 with Retry-After: %s",
					rec.Code, rec.Header().Get("Retry-After"), rec.Body)
			}
		}()
	}
	for w := range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := valuesPath("octo-org", "hello-world", int64(2+w%2))
			method, body := "GET", ""
			if w%4 < 2 {
				method, body = "POST", textBody(2, fmt.Sprint("free ", w))
			}
			rec := serve(h, method, path, body)
			if released.Load() {
				t.Errorf("%s %s answered only after the lock on issue 1 was released", method, path)
			} else if rec.Code != http.StatusOK {
				t.Errorf("%s %s while issue 1 is locked: status %d, want 200: %s", method, path, rec.Code, rec.Body)
			}
		}()
	}
	wg.Wait()
	release()
	if rec := serve(h, "POST", valuesPath("octo-org", "hello-world", 1), textBody(1, "after")); rec.Code != http.StatusOK {
		t.Errorf("POST to issue 1 after the lock was released: status %d: %s", rec.Code, rec.Body)
	}
	if values, _ := storedValues(t, seed, "octo-org", "hello-world", 1); len(values) != 1 || values[0].Text != "after" {
		t.Errorf("issue 1 holds %+v; want only the write made after the lock was released", values)
	}
}

// TestFrozenDatabase freezes the connections between the handler and the
// database, as a stopped database process or a partition would: every
// request must answer 503 with Retry-After, none may hang or answer 500, and
// once the database answers again the handler serves again without a
// restart.
func TestFrozenDatabase(t *testing.T) {
	cfg, _ := newBoundedStore(t, 1, 4)
	p, proxied := newProxy(t, cfg)
	h := newHandler(t, openStore(t, proxied, pgstore.Timeout(testTimeout), pgstore.PoolSize(4)))
	o := &outage{proxy: p, handler: h, direct: pgstore.New(newPool(t, cfg)), path: valuesPath("octo-org", "hello-world", 1)}
	o.wantServing(t, "before the freeze")

	p.freeze()
	var wg sync.WaitGroup
	done := make(chan struct{})
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := valuesPath("octo-org", "hello-world", int64(1+w%4))
			method, body := "GET", ""
			if w%2 == 0 {
				method, body = "POST", textBody(1, fmt.Sprint("frozen ", w))
			}
			o.want503(t, method, path, body)
		}()
	}
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("requests still unanswered 30 s after the database froze, with a timeout of %v", testTimeout)
	}
	p.thaw()
	o.waitServing(t, "after the thaw")
	o.wantServing(t, "after the thaw")
}

// TestHotIssueWriters has 32 clients add values to one issue at once, each
// to a field of its own, as fast as they can: at most 1% of the writes may
// answer 503, and the issue must end with every client's last value.
func TestHotIssueWriters(t *testing.T) {
	const clients, writes = 32, 20
	cfg, _ := newBoundedStore(t, clients, 1)
	h := newHandler(t, openStore(t, cfg))
	path := valuesPath("octo-org", "hello-world", 1)
	var unavailable, failed atomic.Int64
	last := make([]string, clients)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range writes {
				value := fmt.Sprintf("client %d, write %d", c, n)
				switch rec := serve(h, "POST", path, textBody(int64(c+1), value)); rec.Code {
				case http.StatusOK:
					last[c] = value
				case http.StatusServiceUnavailable:
					unavailable.Add(1)
				default:
					failed.Add(1)
					t.Errorf("POST: status %d: %s", rec.Code, rec.Body)
				}
			}
		}()
	}
	wg.Wait()
	if n := unavailable.Load(); n*100 > clients*writes {
		t.Errorf("%d of %d writes answered 503, more than 1%%", n, clients*writes)
	}
	got := listAll(t, h, path)
	for c, want := range last {
		if want != "" && got[int64(c+1)] != want {
			t.Errorf("field %d holds %v, want the last value written, %q", c+1, got[int64(c+1)], want)
		}
	}
}

// TestReadModifyWriteLosesNothing has 32 clients increment one number each
// through GET and POST with If-Match, retrying on 412: every increment that
// was answered 200 must be in the final value.
func TestReadModifyWriteLosesNothing(t *testing.T) {
	const clients, increments = 32, 5
	cfg, _ := newBoundedStore(t, 1, 1)
	h := newHandler(t, openStore(t, cfg))
	path := valuesPath("octo-org", "hello-world", 1)
	var succeeded, unavailable atomic.Int64
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for done := 0; done < increments; {
				got := serve(h, "GET", path, "")
				n := 0
				if v, ok := decodeList(t, got)[1].(string); ok {
					if _, err := fmt.Sscan(v, &n); err != nil {
						t.Errorf("the value %q is not a number", v)
						return
					}
				}
				req := textBody(1, fmt.Sprint(n+1))
				rec := serve(h, "POST", path, req, "If-Match", got.Header().Get("ETag"))
				switch rec.Code {
				case http.StatusOK:
					succeeded.Add(1)
					done++
				case http.StatusPreconditionFailed:
				case http.StatusServiceUnavailable:
					unavailable.Add(1)
				default:
					t.Errorf("POST with If-Match: status %d: %s", rec.Code, rec.Body)
					return
				}
			}
		}()
	}
	wg.Wait()
	if got := decodeList(t, serve(h, "GET", path, ""))[1]; got != fmt.Sprint(succeeded.Load()) {
		t.Errorf("after %d increments answered 200, the value is %v", succeeded.Load(), got)
	}
	if n := unavailable.Load(); n*100 > succeeded.Load() {
		t.Errorf("%d writes answered 503, more than 1%% of %d", n, succeeded.Load())
	}
}
