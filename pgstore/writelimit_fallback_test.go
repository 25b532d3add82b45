package pgstore_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A logBuffer is a log that a limiter's goroutines write to while a test
// reads it.
type logBuffer struct {
	mu    sync.Mutex
	lines []string
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.lines = append(b.lines, string(p))
	return len(p), nil
}

// count returns how many lines hold s.
func (b *logBuffer) count(s string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, line := range b.lines {
		if strings.Contains(line, s) {
			n++
		}
	}
	return n
}

// await waits up to 10 s for a line that holds s, and fails t if none
// comes.
func (b *logBuffer) await(t *testing.T, s, when string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); b.count(s) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			b.mu.Lock()
			defer b.mu.Unlock()
			t.Fatalf("%s: no log line says %q within 10 s; the log: %q", when, s, b.lines)
		}
	}
}

// The messages of a limiter's log lines.
const (
	fallsBack = "the shared write limit cannot use the database"
	recovered = "the shared write limit uses the database again"
)

// TestWriteLimitFallsBack stalls the database while a limiter over a store
// with the default Timeout (5 s) limits: its connections freeze, as when the
// database's process stops or the network drops packets, or another session
// holds its table locked. Every write must be decided within a second, by
// the in-process limit once the database has not answered within 250 ms,
// with one log line; once the database answers again the limiter uses it
// again, with one more line.
func TestWriteLimitFallsBack(t *testing.T) {
	tests := []struct {
		name string
		// stall stalls the database of cfg, reached through p, and returns
		// the function that ends the stall.
		stall func(t *testing.T, cfg *pgxpool.Config, p *proxy) (end func())
	}{
		{"connections frozen", func(_ *testing.T, _ *pgxpool.Config, p *proxy) func() {
			p.freeze()
			return p.thaw
		}},
		{"table locked", func(t *testing.T, cfg *pgxpool.Config, _ *proxy) func() {
			ctx := context.Background()
			tx, err := newPool(t, cfg).Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Exec(ctx, `LOCK TABLE write_budgets`); err != nil {
				t.Fatal(err)
			}
			return func() { _ = tx.Rollback(ctx) }
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, cfg := newSchema(t)
			if err := pgstore.Migrate(context.Background(), newPool(t, cfg)); err != nil {
				t.Fatal(err)
			}
			p, proxied := newProxy(t, cfg)
			logs := new(logBuffer)
			l := openStore(t, proxied).WriteLimiter(issuefields.WriteLimits{PerMinute: 5, PerHour: -1}, slog.New(slog.NewTextHandler(logs, nil)))
			t.Cleanup(l.Close)
			ctx := context.Background()
			// within allows key n times, each within bound, and then
			// refuses it.
			within := func(when, key string, n int, bound time.Duration) {
				t.Helper()
				for i := range n + 1 {
					start := time.Now()
					ok, _ := l.AllowWrite(ctx, key)
					if took := time.Since(start); took > bound {
						t.Errorf("%s: write %d of %s took %v, more than %v", when, i+1, key, took, bound)
					}
					if ok != (i < n) {
						t.Errorf("%s: write %d of %s: allowed %t, want %t", when, i+1, key, ok, i < n)
					}
				}
			}
			within("before the stall", "app:a", 5, time.Second)

			end := tt.stall(t, cfg, p)
			var wg sync.WaitGroup
			for k := range 16 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					within("as the database stalled", fmt.Sprint("app:stalled-", k), 5, time.Second)
				}()
			}
			wg.Wait()
			within("while the database is stalled", "app:b", 5, 100*time.Millisecond)
			logs.await(t, fallsBack, "while the database is stalled")

			end()
			logs.await(t, recovered, "after the stall")
			within("after the stall", "app:c", 5, time.Second)
			var rows int
			if err := newPool(t, cfg).QueryRow(ctx, `SELECT count(*) FROM write_budgets WHERE key = 'app:c'`).Scan(&rows); err != nil || rows != 1 {
				t.Errorf("after the stall, the table holds %d rows of app:c (%v), want 1", rows, err)
			}
			if n, m := logs.count(fallsBack), logs.count(recovered); n != 1 || m != 1 {
				t.Errorf("%d log lines say %q and %d %q, want 1 each", n, fallsBack, m, recovered)
			}
		})
	}
}
