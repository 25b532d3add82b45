package main

import (
	"context"

	"github.com/issuefields/issuefields/pgstore"
)

// loadLockClass is the first key of the advisory lock that LoadIfEmpty and
// Reload take; the second is a hash of the schema they load.
const loadLockClass = 0x70676c64 // "pgld"

// store is a pgstore.Store whose LoadIfEmpty lets one of the servers that
// start on a new database at once load the data file, and whose Reload
// makes the servers' resets take turns.
type store struct {
	*pgstore.Store
}

// LoadIfEmpty calls load if the store holds no data, and reports whether it
// did. It checks and loads under the load lock, so that servers that start
// together load the data once between them: the others wait, then find the
// store not empty.
func (s store) LoadIfEmpty(ctx context.Context, load func() error) (loaded bool, err error) {
	err = s.underLoadLock(ctx, func() error {
		empty, err := s.IsEmpty(ctx)
		if err != nil || !empty {
			return err
		}
		loaded = true
		return load()
	})
	return loaded, err
}

// Reload calls reload, which empties the store and loads it again, under
// the load lock, so that resets through several servers at once, and
// servers that start meanwhile, take turns: each reset leaves the data
// file loaded once, and a server that starts after one finds the store
// not empty.
func (s store) Reload(ctx context.Context, reload func() error) error {
	return s.underLoadLock(ctx, reload)
}

// underLoadLock calls f under an advisory lock on the schema, held by a
// transaction of its own that changes nothing, and returns f's error. The
// lock ends with the transaction, even when the connection breaks.
func (s store) underLoadLock(ctx context.Context, f func() error) error {
	tx, err := s.Pool().Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	// Another server's load may take longer than the store's timeout.
	_, err = tx.Exec(ctx, `SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0`)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext(coalesce(current_schema(), '')))`, loadLockClass)
	if err != nil {
		return err
	}
	return f()
}
