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
// Empty is never taken for what the database holds after it. Emptying adds
// one to the count of resets, the store's epoch ([Store.Epoch]).
//
// Empty runs in one transaction, which locks every table first, so it waits
// for the operations in progress on them and the operations that follow
// wait for it; one that ends in a deadlock with it is retried, within the
// store's timeout. Then s forgets what it keeps in memory, and every
// [WriteLimiter] of s forgets its leases, at once; the other Stores on the
// database do so when they learn of the reset: at their next write or
// [Store.Epoch], and their WriteLimiters within a second (their sweep reads
// the count of resets). Empty does not empty the table of schema versions.
// [Store.Reload] empties and loads again in one transaction.
func (s *Store) Empty(ctx context.Context) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.emptyAnd(ctx, nil)
}

// emptyAnd empties the tables in one transaction, retried when emptying
// ends in a deadlock while ctx lasts, and then, unless then is nil, calls
// then with the transaction, which it commits only if then returns nil; an
// error of then is returned as it is. Once it has committed, s learns of the
// reset (saw).
func (s *Store) emptyAnd(ctx context.Context, then func(tx pgx.Tx) error) error {
	for {
		var resets int64
		var thenErr error
		err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) (err error) {
			if resets, err = empty(ctx, tx); err != nil || then == nil {
				return err
			}
			thenErr = then(tx)
			return thenErr
		})
		switch {
		case thenErr != nil:
			return thenErr
		case deadlocked(err) && ctx.Err() == nil:
			continue
		case err != nil:
			return wrap("empty the store", err)
		}
		s.saw(resets)
		return nil
	}
}

// empty empties the tables in tx, and returns how many times the store has
// been emptied, this time included.
func empty(ctx context.Context, tx pgx.Tx) (resets int64, err error) {
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
	return resets, tx.SendBatch(ctx, batch).Close()
}

// deadlocked reports whether err is PostgreSQL's deadlock_detected: the
// transaction was rolled back to break a cycle of lock waits.
func deadlocked(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "40P01"
}
