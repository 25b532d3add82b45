package pgstore

import (
	"context"
	_ "embed"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// resetsSQL is schema step 9: the sequence of issues' first versions, and
// the count of resets.
//
//go:embed migrations/009_resets.sql
var resetsSQL string

// dataTables are the tables that Empty empties: all but schema_migrations
// and resets. accounts comes first, as in the seed methods' transactions,
// which lock it first.
const dataTables = `accounts, fields, field_options, repositories, repository_names, issues, hooks, hook_deliveries, write_budgets`

// Empty drops everything the store holds, for every Store on the database:
// organizations and their fields, repositories, issues and their values,
// hooks and their deliveries, and the budgets of the shared write limit.
// The seed methods then fill it as they fill a new database: repositories
// get the IDs 1, 2, 3 and so on again, and a field or an option that
// [Store.ChangeFields] creates gets an ID above those of the organization's
// seeded fields. The other counters go on where they were: hook and
// delivery IDs, the database's own IDs of accounts, the versions of fields,
// and the versions of issues, which a new issue takes above every version
// that an issue had before.
// So an ETag taken before Empty never matches the values of an issue seeded
// after it, on any server, and what a Store keeps in memory from before
// Empty is never taken for what the database holds after it.
//
// Empty runs in one transaction, which locks every table first, so it waits
// for the operations in progress on them and the operations that follow
// wait for it; one that ends in a deadlock with it is retried, within the
// store's timeout. Then s forgets what it keeps in memory, and every
// [WriteLimiter] of s forgets its leases, at once; the other Stores on the
// database use no hook that Empty dropped a second after it, and their
// WriteLimiters forget their leases within a second (their sweep reads the
// count of resets). Empty does not empty the table of schema versions.
func (s *Store) Empty(ctx context.Context) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	for {
		resets, err := s.empty(ctx)
		if deadlocked(err) && ctx.Err() == nil {
			continue
		}
		if err != nil {
			return wrap("empty the store", err)
		}
		s.recent.forgetAll()
		s.fields.forgetAll()
		s.hooks.forget()
		s.limiters.emptied(resets)
		return nil
	}
}

// empty empties the tables in one transaction, and returns how many times
// the store has been emptied, this time included.
func (s *Store) empty(ctx context.Context) (resets int64, err error) {
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		batch := &pgx.Batch{}
		batch.Queue(`LOCK TABLE ` + dataTables + ` IN ACCESS EXCLUSIVE MODE`)
		// The issues are locked, so no write moves a version past the
		// one read here before the rows go.
		batch.Queue(`SELECT setval('issue_versions', greatest(last_value, (SELECT coalesce(max(version), 0) FROM issues)))
			FROM issue_versions`)
		batch.Queue(`TRUNCATE ` + dataTables)
		batch.Queue(`UPDATE resets SET count = count + 1 RETURNING count`).QueryRow(func(row pgx.Row) error {
			return row.Scan(&resets)
		})
		return tx.SendBatch(ctx, batch).Close()
	})
	return resets, err
}

// deadlocked reports whether err is PostgreSQL's deadlock_detected: the
// transaction was rolled back to break a cycle of lock waits.
func deadlocked(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "40P01"
}
