package pgstore_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/issuefields/issuefields/pgstore"
	"github.com/jackc/pgx/v5"
)

// roundTrips counts the round trips that a pool's connections make: a query
// is one, a batch of queries sent together is one, and so is preparing a
// statement.
type roundTrips struct{ n atomic.Int64 }

func (r *roundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	r.n.Add(1)
	return ctx
}

func (r *roundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (r *roundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	r.n.Add(1)
	return ctx
}

func (r *roundTrips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (r *roundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

func (r *roundTrips) TracePrepareStart(ctx context.Context, _ *pgx.Conn, _ pgx.TracePrepareStartData) context.Context {
	r.n.Add(1)
	return ctx
}

func (r *roundTrips) TracePrepareEnd(context.Context, *pgx.Conn, pgx.TracePrepareEndData) {}

// TestRoundTrips checks that, once its connection has prepared its
// statements, the handler over a Store answers a list with one round trip to
// the database (the Snapshot); a write of an issue that the handler wrote
// last with one (the UPDATE that stores what the write decided on the
// Snapshot that the handler kept, if the database still holds what it
// shows), lists in between or not; a write that changes nothing with one
// (the Snapshot that confirms it); and a write of an issue that the handler
// has not written with two (the Snapshot, and the UPDATE).
func TestRoundTrips(t *testing.T) {
	cfg, _ := newBoundedStore(t, 2, 2)
	trips := &roundTrips{}
	cfg.ConnConfig.Tracer = trips
	h := newHandler(t, openStore(t, cfg, pgstore.PoolSize(1)))
	path := valuesPath("octo-org", "hello-world", 1)
	requests := []struct {
		name, method, path, body string
		header                   []string
		status, most             int
	}{
		{"list", "GET", path, "", nil, http.StatusOK, 1},
		{"add after a list", "POST", path, textBody(1, "a"), nil, http.StatusOK, 1},
		{"add of the same value", "POST", path, textBody(1, "a"), nil, http.StatusOK, 1},
		{"set after a write", "PUT", path, textBody(2, "b"), nil, http.StatusOK, 1},
		{"delete after a write", "DELETE", path + "/2", "", nil, http.StatusNoContent, 1},
		{"list, not modified", "GET", path, "", []string{"If-None-Match", "*"}, http.StatusNotModified, 1},
		{"list of a page", "GET", path + "?per_page=1&page=2", "", nil, http.StatusOK, 1},
	}
	for round := range 2 {
		for _, r := range requests {
			before := trips.n.Load()
			rec := serve(h, r.method, r.path, r.body, r.header...)
			n := trips.n.Load() - before
			if rec.Code != r.status {
				t.Fatalf("%s: status %d, want %d: %s", r.name, rec.Code, r.status, rec.Body)
			}
			// The first round prepares the statements.
			if round == 0 {
				continue
			}
			t.Logf("%s: %d round trips", r.name, n)
			if n > int64(r.most) {
				t.Errorf("%s: %d round trips to the database, want at most %d", r.name, n, r.most)
			}
		}
	}
	before := trips.n.Load()
	if rec := serve(h, "POST", valuesPath("octo-org", "hello-world", 2), textBody(1, "a")); rec.Code != http.StatusOK {
		t.Fatalf("add to an issue not read before: status %d, want %d: %s", rec.Code, http.StatusOK, rec.Body)
	}
	if n := trips.n.Load() - before; n > 2 {
		t.Errorf("add to an issue not read before: %d round trips to the database, want at most 2", n)
	}
}
