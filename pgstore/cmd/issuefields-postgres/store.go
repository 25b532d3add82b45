package main

import (
	"context"

	"github.com/issuefields/issuefields/pgstore"
)

// loadLockClass is the first key of the advisory lock that LoadIfEmpty
// takes; the second is a hash of the schema it loads.
const loadLockClass = 0x70676c64 // "pgld"

// store is a pgstore.Store whose LoadIfEmpty lets one of the servers that
// start on a new database at once load the data file.
type store struct {
	*pgstore.Store
}

// LoadIfEmpty calls load if the store holds no data, and reports whether it
// did. It checks and loads under an advisory lock on the schema, held by a
// transaction of its own that changes nothing, so that servers that start
// together load the data once between them: the others wait, then find the
// store not empty. The lock ends with the transaction, even when the
// connection breaks.
func (s store) LoadIfEmpty(ctx context.Context, load func() error) (bool, error) {
	tx, err := s.Pool().Begin(ctx)
	if err != nil {
		return false, err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	// Another server's load may take longer than the store's timeout.
	_, err = tx.Exec(ctx, `SET LOCAL lock_timeout = 0`)
	if err != nil {
		return false, err
	}
	_, err = tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext(coalesce(current_schema(), '')))`, loadLockClass)
	if err != nil {
		return false, err
	}
	empty, err := s.IsEmpty(ctx)
	if err != nil || !empty {
		return false, err
	}
	return true, load()
}
