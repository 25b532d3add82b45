package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
	"github.com/jackc/pgx/v5"
)

// updateLocked reads the issue's values with its row locked, calls change
// with them, and stores what change returns, in one transaction of two round
// trips: BEGIN with the locking read, then the UPDATE with COMMIT. Writers of
// the issue on other servers wait for the row's lock meanwhile. When change
// returns an error, updateLocked rolls back and returns an error that wraps
// it. For an issue that is deleted, transferred or unknown, it returns an
// error wrapping [issuefields.ErrIssueDeleted] or [issuefields.ErrNotFound]
// without calling change. The caller has the issue's turn.
func (s *Store) updateLocked(ctx context.Context, key issuefields.IssueKey, change func([]issuefields.Value, issuefields.Version) ([]issuefields.Value, error)) (issuefields.Version, error) {
	what := "write the values of " + describe(key)
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return "", wrap(what, err)
	}
	defer conn.Release()
	committed := false
	defer func() {
		if !committed {
			// A connection left in a transaction is closed when released;
			// one that rolls back in time is kept.
			_, _ = conn.Exec(ctx, "ROLLBACK")
		}
	}()

	const read = `
		SELECT state, moved_to_repository_id, moved_to_number, version, field_values
		FROM issues WHERE repository_id = $1 AND number = $2
		FOR UPDATE`
	var st issueState
	var version int64
	var data []byte
	batch := &pgx.Batch{}
	batch.Queue("BEGIN")
	batch.Queue(read, key.RepositoryID, key.Number).QueryRow(func(row pgx.Row) error {
		return row.Scan(&st.state, &st.movedToRepository, &st.movedToNumber, &version, &data)
	})
	err = conn.SendBatch(ctx, batch).Close()
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", noIssue(key)
	case err != nil:
		return "", wrap(what, err)
	}
	if err := st.check(describe(key)); err != nil {
		return "", err
	}
	current, err := s.decode(key, version, data)
	if err != nil {
		return "", err
	}
	next, err := change(current, formatVersion(version))
	if err != nil {
		return "", fmt.Errorf("pgstore: %s: %w", what, err)
	}
	if data, err = encodeValues(next); err != nil {
		return "", fmt.Errorf("pgstore: %s: %w", what, err)
	}

	const write = `
		UPDATE issues SET field_values = $3, version = version + 1
		WHERE repository_id = $1 AND number = $2`
	batch = &pgx.Batch{}
	batch.Queue(write, key.RepositoryID, key.Number, data)
	batch.Queue("COMMIT")
	if err := conn.SendBatch(ctx, batch).Close(); err != nil {
		return "", wrap(what, err)
	}
	committed = true
	// The row was locked at version, so it has the next one now.
	s.recent.put(key, version+1, clone.Values(next))
	return formatVersion(version + 1), nil
}
