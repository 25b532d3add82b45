package pgstore

import (
	"context"
	_ "embed"
	"errors"
	"strconv"
	"time"

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
const dataTables = `accounts, fields, field_options, repositories, repository_names, issues, hooks, hook_deliveries, write_budgets, request_budgets`

// Empty drops everything the store holds, as [seed.Emptier] says, for every
// Store on the database: organizations and their fields, repositories,
// issues and their values, the hooks of [Store.Hooks] and their deliveries,
// and the budgets of the shared write limit and of the RequestCounter. The
// seed methods then fill it as they fill a new database: repositories get
// the IDs 1, 2, 3 and so on again, and so do issues, each repository's issue numbers start again,
// and a field or an option that [Store.ChangeFields] creates gets an
// ID above those of the organization's seeded fields. The other counters go
// on where they were: hook and delivery IDs, the database's own IDs of
// accounts, the versions of fields, and the versions of issues, which a new
// issue takes above every version that an issue had before, so that no
// server takes what it keeps in memory from before Empty for what the
// database holds after it. Emptying adds one to the count of resets, the
// store's epoch ([Store.Epoch]).
//
// Empty runs in one transaction, which locks every table first, so it waits
// for the operations in progress on them and the operations that follow
// wait for it. It waits at most lockWait for the locks: an operation that
// holds one of the tables and waits for another that Empty has locked would
// otherwise deadlock with it, and one of the two would fail only once the
// database's deadlock_timeout (a second) has passed. Then it gives them up,
// so that such an operation goes on, and tries again, within the store's
// timeout. Then s forgets what it keeps in memory, and every
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

// lockWait bounds each wait for the locks of the tables that emptying takes,
// and lockRetryWait is the pause before it tries again.
const (
	lockWait      = 100 * time.Millisecond
	lockRetryWait = 10 * time.Millisecond
)

// emptyAnd empties the tables in one transaction, tried again while ctx
// lasts when it does not get the locks within lockWait, and then, unless
// then is nil, calls then with the transaction, which it commits only if
// then returns nil; an error of then is returned as it is. Once it has
// committed, s learns of the reset (saw).
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
		case notLocked(err) && ctx.Err() == nil:
			time.Sleep(lockRetryWait)
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
	batch.Queue(`SET LOCAL lock_timeout = ` + strconv.FormatInt(lockWait.Milliseconds(), 10))
	batch.Queue(`LOCK TABLE ` + dataTables + ` IN ACCESS EXCLUSIVE MODE`)
	batch.Queue(`SET LOCAL lock_timeout TO DEFAULT`)
	// The issues are locked, so no write moves a version past the
	// one read here before the rows go.
	batch.Queue(`SELECT setval('issue_versions', greatest(last_value, (SELECT coalesce(max(version), 0) FROM issues)))
		FROM issue_versions`)
	batch.Queue(`TRUNCATE ` + dataTables)
	// The issues added after this get the IDs 1, 2, 3 and so on again.
	batch.Queue(`ALTER SEQUENCE issue_ids RESTART`)
	batch.Queue(`UPDATE resets SET count = count + 1 RETURNING count`).QueryRow(func(row pgx.Row) error {
		return row.Scan(&resets)
	})
	return resets, tx.SendBatch(ctx, batch).Close()
}

// notLocked reports whether err is PostgreSQL's lock_not_available, past the
// lock_timeout, or deadlock_detected: the transaction did not get its locks.
func notLocked(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "55P03" || pgErr.Code == "40P01")
}
