package pgstore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// databaseURL returns the address of the PostgreSQL database that the tests
// use, from DATABASE_URL. When it is not set, it skips t, or fails it
// when the environment variable CI is set.
func databaseURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("DATABASE_URL")
	if url == "" {
		skipOrFail := t.Skip
		if os.Getenv("CI") != "" {
			skipOrFail = t.Fatal // CI runs every test
		}
		skipOrFail("DATABASE_URL is not set, and this test needs a PostgreSQL database. " +
			"Run it with DATABASE_URL=postgres://user@host:port/database go test ./..., " +
			"or let the script start a throwaway server: bash ../.ci/postgres.sh -- go test ./... (from pgstore/)")
	}
	return url
}

// newSchema creates an empty schema of its own for t in the test database,
// which it drops, with everything in it, when t ends. It returns the name of
// the schema and the configuration of a pool whose connections work in it
// and name themselves after it.
func newSchema(t testing.TB) (string, *pgxpool.Config) {
	t.Helper()
	url := databaseURL(t)
	schema := fmt.Sprintf("t_%016x", rand.Uint64())
	admin(t, url, "CREATE SCHEMA "+schema)
	t.Cleanup(func() { admin(t, url, "DROP SCHEMA "+schema+" CASCADE") })
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	cfg.ConnConfig.RuntimeParams["application_name"] = schema
	return schema, cfg
}

// admin runs sql on a connection of its own to the database at url.
func admin(t testing.TB, url, sql string, args ...any) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// newPool returns a pool of cfg that is closed when t ends.
func newPool(t testing.TB, cfg *pgxpool.Config) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// newStore returns an empty, migrated store in a schema of its own, and its
// pool.
func newStore(t testing.TB) (*pgstore.Store, *pgxpool.Pool) {
	t.Helper()
	_, cfg := newSchema(t)
	pool := newPool(t, cfg)
	if err := pgstore.Migrate(context.Background(), pool); err != nil {
		t.Fatal(err)
	}
	return pgstore.New(pool), pool
}

// storedValues returns the values and version that the database of s holds
// on issue number of owner/repo, as a Snapshot of a new Store over s's pool
// reads them: one that keeps nothing in memory yet.
func storedValues(t testing.TB, s *pgstore.Store, owner, repo string, number int64) ([]issuefields.Value, issuefields.Version) {
	t.Helper()
	snap, err := pgstore.New(s.Pool()).Snapshot(context.Background(), owner, repo, number)
	if err == nil {
		err = snap.IssueErr
	}
	if err != nil {
		t.Fatalf("reading the values of issue %d of %s/%s: %v", number, owner, repo, err)
	}
	return snap.Issue.Values, snap.Issue.Version
}
