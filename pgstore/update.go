package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
	"github.com/jackc/pgx/v5"
)

// Update reads the issue's values with its row locked, calls change with
// them, and stores what change returns, in one transaction of two round
// trips: BEGIN with the locking read, then the UPDATE with COMMIT. Writers of
// the issue on other servers wait for the row lock, those of this process
// for their turn, so that concurrent writers take turns instead of losing
// compare-and-sets. It does not store a value of a field or an option that
// the organization has deleted: change was validated against the fields its
// request read, which a change of the fields may have outdated meanwhile.
// When this process wrote or read the issue last, Update
// first applies change to the values it kept and stores the result with a
// compare-and-set, one round trip, and locks the row only when that fails. When change returns an error, Update rolls back and
// returns an error that wraps it. It returns the errors of [Store.Values] for
// an issue that is deleted, transferred or unknown.
func (s *Store) Update(ctx context.Context, key issuefields.IssueKey, change func([]issuefields.Value, issuefields.Version) ([]issuefields.Value, error)) (issuefields.Version, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	what := "write the values of " + describe(key)
	release, err := s.turns.take(ctx, key)
	if err != nil {
		return "", wrap("wait for the turn to write "+describe(key), err)
	}
	defer release()
	if r, ok := s.recent.get(key); ok {
		// change may refuse kept values that are older than the database's,
		// which the locked read then tells.
		if next, err := change(r.values, formatVersion(r.version)); err == nil {
			version, err := s.swap(ctx, key, &r.version, next)
			if !errors.Is(err, issuefields.ErrVersionConflict) {
				return version, err
			}
		}
	}
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
	// The fields' version is read by a statement of its own, after the row
	// is locked, so it sees a change of the fields that committed while
	// this one waited for the lock.
	const owner = `
		SELECT a.id, a.fields_version
		FROM repositories r JOIN accounts a ON a.id = r.owner_id
		WHERE r.id = $1`
	var st issueState
	var version, account, fieldsVersion int64
	var data []byte
	batch := &pgx.Batch{}
	batch.Queue("BEGIN")
	batch.Queue(read, key.RepositoryID, key.Number).QueryRow(func(row pgx.Row) error {
		return row.Scan(&st.state, &st.movedToRepository, &st.movedToNumber, &version, &data)
	})
	batch.Queue(owner, key.RepositoryID).QueryRow(func(row pgx.Row) error {
		return row.Scan(&account, &fieldsVersion)
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
	// change was validated against the fields the request read; those that
	// were deleted since are not stored.
	fields, err := s.fields.of(ctx, conn, account, fieldsVersion)
	if err != nil {
		return "", err
	}
	next, _ = issuefields.PruneValues(next, fields)
	if data, err = encodeValues(next); err != nil {
		return "", fmt.Errorf("pgstore: %s: %w", what, err)
	}

	const write = `
		UPDATE issues SET field_values = $3, version = version + 1
		WHERE repository_id = $1 AND number = $2
		RETURNING version`
	batch = &pgx.Batch{}
	batch.Queue(write, key.RepositoryID, key.Number, data).QueryRow(func(row pgx.Row) error {
		return row.Scan(&version)
	})
	batch.Queue("COMMIT")
	if err := conn.SendBatch(ctx, batch).Close(); err != nil {
		return "", wrap(what, err)
	}
	committed = true
	s.recent.put(key, version, clone.Values(next))
	return formatVersion(version), nil
}
