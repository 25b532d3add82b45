package pgstore

import (
	"context"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
)

// UpdateValues calls change with the issue's current values and their
// version, and stores what change returns under a new version, as
// [issuefields.Store] describes.
//
// Writers of the issue in this process take turns first, before they take a
// connection of the pool. When this process keeps the issue's values at some
// version (a Snapshot or a write kept them), UpdateValues calls change with
// them and stores the result with one UPDATE that changes the row only if
// the issue is still live at that version: one round trip. When the row has
// moved on, or change refused the kept values (which may be older than the
// database's), it writes in a transaction that locks the issue's row, calls
// change again with the values it finds there, and stores the result or rolls
// back: two round trips, whose row lock makes writers of the issue on other
// servers wait for their turn. An error of change is returned only from that
// last call, made with the current values. For an issue that was deleted or
// transferred, UpdateValues returns the error without calling change, unless
// a Store of another server deleted or transferred it while this one kept its
// values: change then gets the values kept, and nothing is stored.
func (s *Store) UpdateValues(ctx context.Context, key issuefields.IssueKey, change func(current []issuefields.Value, version issuefields.Version) ([]issuefields.Value, error)) (issuefields.Version, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	release, err := s.turns.take(ctx, key)
	if err != nil {
		return "", wrap("wait for the turn to write "+describe(key), err)
	}
	defer release()
	if kept, ok := s.recent.get(key); ok {
		if next, err := change(kept.values, formatVersion(kept.version)); err == nil {
			version, stored, err := s.swap(ctx, key, kept.version, next)
			if stored || err != nil {
				return version, err
			}
		}
	}
	return s.updateLocked(ctx, key, change)
}

// swap stores values as the values of the issue key if the issue is live and
// its version is still expected, in one UPDATE statement, which PostgreSQL
// applies under the row's lock. It reports whether it stored them, and
// returns the new version when it did. The caller has the issue's turn.
func (s *Store) swap(ctx context.Context, key issuefields.IssueKey, expected int64, values []issuefields.Value) (issuefields.Version, bool, error) {
	what := "write the values of " + describe(key)
	data, err := encodeValues(values)
	if err != nil {
		return "", false, fmt.Errorf("pgstore: %s: %w", what, err)
	}
	const query = `
		UPDATE issues SET field_values = $4, version = version + 1
		WHERE repository_id = $1 AND number = $2 AND state = 'live' AND version = $3`
	tag, err := s.pool.Exec(ctx, query, key.RepositoryID, key.Number, expected, data)
	switch {
	case err != nil:
		return "", false, wrap(what, err)
	case tag.RowsAffected() == 0:
		return "", false, nil
	}
	// The row had version expected, so it has the next one now.
	s.recent.put(key, expected+1, clone.Values(values))
	return formatVersion(expected + 1), true, nil
}
