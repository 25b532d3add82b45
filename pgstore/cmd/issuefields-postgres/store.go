package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/server"
	"github.com/issuefields/issuefields/pgstore"
)

// loadLockClass is the first key of the advisory lock that LoadIfEmpty and
// Reload take; the second is a hash of the schema they load.
const loadLockClass = 0x70676c64 // "pgld"

// loadBoundFactor is how many times the store's timeout the load lock's
// bound is: the wait for the lock, and what is done under it, end within
// it.
const loadBoundFactor = 12

// store is a pgstore.Store whose LoadIfEmpty lets one of the servers that
// start on a new database at once load the data file, all or nothing, and
// whose Reload makes the servers' resets take turns, each one transaction.
type store struct {
	*pgstore.Store
	// timeout is the store's bound on each operation (-store-timeout).
	timeout time.Duration
	// allowReset is -allow-reset: without it, Reload refuses.
	allowReset bool
}

// LoadIfEmpty calls load, if the store holds no data, with a Store that
// works in one transaction, which it commits once load returns nil
// (pgstore.Store.LoadIfEmpty), and reports whether it did. A load that
// fails, or a server killed while it loads, leaves the database empty, and
// the next start loads it again. It checks and loads under the load lock,
// so that servers that start together load the data once between them: the
// others wait, then find the store not empty. The wait for the lock ends
// within the lock's bound (see underLoadLock); load, each of whose
// statements the store's timeout bounds, may take longer.
func (s store) LoadIfEmpty(ctx context.Context, load func(ctx context.Context, into server.Store) error) (loaded bool, err error) {
	err = s.underLoadLock(ctx, func(context.Context) (err error) {
		loaded, err = s.Store.LoadIfEmpty(ctx, func(ctx context.Context, into *pgstore.Store) error { return load(ctx, served(into)) })
		return err
	})
	return loaded, err
}

// Reload empties the store and calls fill with a Store that works in the
// same transaction, which it commits once fill returns nil
// (pgstore.Store.Reload), so that every server on the database sees the
// data before the reset or after it, never a part. It refuses, with
// errResetNotAllowed, without -allow-reset. It runs under the load lock,
// so that resets through several servers at once, and servers that start
// meanwhile, take turns: each reset leaves the data file loaded once, and a
// server that starts after one finds the store not empty. The wait for the
// lock and the reload end within the lock's bound (see underLoadLock); a
// reset that does not end in time changes nothing.
func (s store) Reload(ctx context.Context, fill func(ctx context.Context, into server.Store) error) error {
	if !s.allowReset {
		return errResetNotAllowed
	}
	return s.underLoadLock(ctx, func(ctx context.Context) error {
		return s.Store.Reload(ctx, func(ctx context.Context, into *pgstore.Store) error { return fill(ctx, served(into)) })
	})
}

// served returns s, a Store of a load's transaction, as the server serves
// it: its data, and its hooks, which the load re-creates (-webhook) in the
// same transaction.
func served(s *pgstore.Store) server.Store {
	return server.Store{Data: s, Hooks: s.Hooks()}
}

// underLoadLock calls f under an advisory lock on the schema, held by a
// transaction of its own that changes nothing, and returns f's error. The
// lock ends with the transaction, even when the connection breaks.
//
// The wait for the lock and f have, in their context, the lock's bound:
// loadBoundFactor times the store's timeout, since another server's load
// may take longer than one operation. Past the bound, the error says so.
// An error that taking the lock meets, and any error past the bound, wrap
// issuefields.ErrUnavailable, as an operation of the store past its
// timeout or on a database that is down does.
func (s store) underLoadLock(ctx context.Context, f func(ctx context.Context) error) error {
	bound := loadBoundFactor * s.timeout
	deadline := time.Now().Add(bound)
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	tx, err := s.Pool().Begin(ctx)
	if err == nil {
		defer func() {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.timeout)
			defer cancel()
			_ = tx.Rollback(ctx)
		}()
		// The connection's timeouts are the store's. The database ends the
		// wait a timeout after the bound, should the context's end not
		// reach it.
		ms := (bound + s.timeout).Milliseconds()
		_, err = tx.Exec(ctx, fmt.Sprintf(`SET LOCAL statement_timeout = %d; SET LOCAL lock_timeout = %d`, ms, ms))
	}
	if err == nil {
		_, err = tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext(coalesce(current_schema(), '')))`, loadLockClass)
	}
	if err != nil {
		return s.unavailable("taking the database's load lock, which a reset or first load on another server may hold", err, deadline)
	}
	if err := f(ctx); err != nil {
		if time.Now().Before(deadline) {
			return err
		}
		return s.unavailable("under the database's load lock", err, deadline)
	}
	return nil
}

// unavailable returns err, an error of what was being done within the load
// lock's bound, which ends at deadline, wrapping issuefields.ErrUnavailable
// and saying that the bound passed if it did.
func (s store) unavailable(what string, err error, deadline time.Time) error {
	if !errors.Is(err, issuefields.ErrUnavailable) {
		err = fmt.Errorf("%w: %w", issuefields.ErrUnavailable, err)
	}
	if !time.Now().Before(deadline) {
		return fmt.Errorf("%s: not done within %v (%d times -store-timeout): %w", what, loadBoundFactor*s.timeout, loadBoundFactor, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}
