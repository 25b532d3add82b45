package pgstore_test

import (
	"context"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// TestMigrateConcurrently starts several servers on an empty schema at once,
// each with a pool of its own, and checks that every Migrate succeeds and
// that each step is applied and recorded once.
func TestMigrateConcurrently(t *testing.T) {
	ctx := context.Background()
	_, cfg := newSchema(t)
	const servers = 8
	pools := make([]*pgxpool.Pool, servers)
	for i := range pools {
		pools[i] = newPool(t, cfg.Copy())
	}
	errs := make([]error, servers)
	var wg sync.WaitGroup
	for i, pool := range pools {
		wg.Go(func() { errs[i] = pgstore.Migrate(ctx, pool) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("server %d: Migrate: %v", i, err)
		}
	}
	want := migrationFiles(t)
	if got := appliedVersions(t, pools[0]); !slices.Equal(got, want) {
		t.Errorf("schema_migrations holds the versions %v, want %v", got, want)
	}
	// The store works, and a later Migrate keeps its data.
	s := pgstore.New(pools[1])
	if err := s.AddOrganization("octo-org"); err != nil {
		t.Fatal(err)
	}
	if err := pgstore.Migrate(ctx, pools[2]); err != nil {
		t.Fatalf("Migrate of a current schema: %v", err)
	}
	if empty, err := s.IsEmpty(ctx); err != nil || empty {
		t.Errorf("after a second Migrate, IsEmpty = %t, %v; want false", empty, err)
	}
	if got := appliedVersions(t, pools[0]); !slices.Equal(got, want) {
		t.Errorf("after a second Migrate, schema_migrations holds the versions %v, want %v", got, want)
	}
}

// TestMigrateRefusesNewerSchema checks that Migrate refuses a database that a
// newer version of the package migrated.
func TestMigrateRefusesNewerSchema(t *testing.T) {
	ctx := context.Background()
	_, pool := newStore(t)
	if _, err := pool.Exec(ctx, `INSERT INTO schema_migrations (version, description) VALUES (1000, 'from the future')`); err != nil {
		t.Fatal(err)
	}
	err := pgstore.Migrate(ctx, pool)
	if err == nil || !strings.Contains(err.Error(), "schema version 1000, newer than") {
		t.Errorf("Migrate of a newer schema = %v, want an error that says the schema is newer", err)
	}
	if errors.Is(err, issuefields.ErrUnavailable) {
		t.Errorf("Migrate of a newer schema = %v, which wraps ErrUnavailable", err)
	}
}

// appliedVersions returns the versions that schema_migrations records.
func appliedVersions(t *testing.T, pool *pgxpool.Pool) []int {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT version FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	versions, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		t.Fatal(err)
	}
	return versions
}

// migrationFiles returns the versions of the files in migrations/, in order:
// the number that starts each name.
func migrationFiles(t *testing.T) []int {
	t.Helper()
	entries, err := os.ReadDir("migrations")
	if err != nil {
		t.Fatal(err)
	}
	var versions []int
	for _, e := range entries {
		n, err := strconv.Atoi(strings.SplitN(e.Name(), "_", 2)[0])
		if err != nil {
			t.Fatalf("migration file %s does not start with its version", e.Name())
		}
		versions = append(versions, n)
	}
	return versions
}
