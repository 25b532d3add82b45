package compat

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// stores are the stores that eachStore runs a test on, by the name of its
// subtest: the example server's memstore, and pgstore in issuefields-postgres.
// Each starts a new server with testData, as startServer does.
var stores = []struct {
	name  string
	start func(t *testing.T) *server
}{
	{"memstore", func(t *testing.T) *server { return startServer(t) }},
	{"pgstore", startPostgresServer},
}

// eachStore runs test once for each of stores, as a subtest named by the
// store, with a server of its own on it.
func eachStore(t *testing.T, test func(t *testing.T, s *server)) {
	t.Helper()
	for _, store := range stores {
		t.Run(store.name, func(t *testing.T) { test(t, store.start(t)) })
	}
}

// startPostgresServer builds issuefields-postgres, the example server over
// pgstore, and starts it as startServer starts the example server, on an
// empty schema of its own in the database of DATABASE_URL, which it loads
// with testData. Without DATABASE_URL the test skips, or fails when CI is set.
func startPostgresServer(t *testing.T) *server {
	t.Helper()
	dsn := newDatabase(t)
	dir := t.TempDir()
	bin := build(t, dir, "../pgstore/cmd/issuefields-postgres", ".")
	return runServer(t, bin, dir, testData, "-postgres", dsn)
}

// newDatabase creates an empty schema for t in the database of DATABASE_URL,
// which it drops, with everything in it, when t ends, and returns a
// connection string whose connections work in that schema. Without
// DATABASE_URL it skips t, or fails it when the environment variable CI is
// set.
func newDatabase(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("DATABASE_URL")
	if dsn == "" {
		skipOrFail := t.Skip
		if os.Getenv("CI") != "" {
			skipOrFail = t.Fatal // CI runs every test
		}
		skipOrFail("DATABASE_URL is not set, and this test needs a PostgreSQL database. " +
			"Run it with DATABASE_URL=postgres://user@host:port/database go test ./..., " +
			"or let the script start a throwaway server: bash ../.ci/postgres.sh -- go test ./... (from compat/)")
	}
	schema := fmt.Sprintf("t_%016x", rand.Uint64())
	admin(t, dsn, "CREATE SCHEMA "+schema)
	t.Cleanup(func() { admin(t, dsn, "DROP SCHEMA "+schema+" CASCADE") })
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return dsn + " search_path=" + schema // a keyword/value connection string
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// admin runs sql on a connection of its own to the database at dsn.
func admin(t *testing.T, dsn, sql string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}
