package pgstore

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
)

// A loading is the transaction of a load (LoadIfEmpty, Reload), and the
// load's context, which the seed methods, which take none, work with.
type loading struct {
	ctx context.Context
	tx  pgx.Tx
}

// within returns a Store that works in tx, the transaction of a load with
// ctx: every statement of its methods goes through tx, and sees what the
// load wrote before it. It keeps nothing in memory beyond the load, and is
// not safe for concurrent use, as tx is not.
func (s *Store) within(ctx context.Context, tx pgx.Tx) *Store {
	return &Store{pool: s.pool, db: tx, timeout: s.timeout, load: &loading{ctx: ctx, tx: tx}}
}

// errNotEmpty ends the transaction of a LoadIfEmpty that found data.
var errNotEmpty = errors.New("pgstore: the store is not empty")

// LoadIfEmpty calls load, if the store holds no data ([Store.IsEmpty]), with
// a Store that works in a transaction of its own, and commits the
// transaction once load returns nil. It reports whether it called load.
// Every Store on the database then sees the whole of what load wrote or, if
// load fails or the process dies part-way, none of it: a load killed
// half-way leaves the store empty, and the next start loads again.
//
// The transaction locks the accounts table (EXCLUSIVE) before it checks,
// so of the Stores that call LoadIfEmpty at once, one loads, and the others
// wait for it and then find the store not empty; readers do not wait. The
// wait for the lock is bounded by the store's timeout (the lock_timeout of
// the connections of [Open]), and load by ctx and, statement by statement,
// by the store's timeout. The Store that load gets serves the load only: use
// it from load's goroutine, and not after load returns.
func (s *Store) LoadIfEmpty(ctx context.Context, load func(ctx context.Context, into *Store) error) (loaded bool, err error) {
	var loadErr error
	err = pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `LOCK TABLE accounts IN EXCLUSIVE MODE`); err != nil {
			return err
		}
		var empty bool
		if err := tx.QueryRow(ctx, `SELECT NOT EXISTS (SELECT 1 FROM accounts)`).Scan(&empty); err != nil {
			return err
		}
		if !empty {
			return errNotEmpty
		}
		loaded = true
		loadErr = load(ctx, s.within(ctx, tx))
		return loadErr
	})
	switch {
	case errors.Is(err, errNotEmpty):
		return false, nil
	case loadErr != nil:
		return true, loadErr
	case err != nil:
		return loaded, wrap("load the empty store", err)
	}
	return true, nil
}

// Reload empties the store, as [Store.Empty] does, and calls load with a
// Store that works in the same transaction, which it commits once load
// returns nil. Every Store on the database sees the data as it was before
// the reload or as load left it, never a part: their operations wait for
// the transaction, which locks every table of the data first. If load fails,
// or the process dies part-way, the store is left as it was.
//
// It takes the locks as Empty does, trying again while ctx lasts; load is
// bounded by ctx and, statement by statement, by the store's timeout. The Store that load gets serves the
// load only: use it from load's goroutine, and not after load returns. Once
// the transaction has committed, s forgets what it keeps in memory and its
// WriteLimiters their leases, as after Empty.
func (s *Store) Reload(ctx context.Context, load func(ctx context.Context, into *Store) error) error {
	return s.emptyAnd(ctx, func(tx pgx.Tx) error { return load(ctx, s.within(ctx, tx)) })
}
