package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
	"github.com/jackc/pgx/v5"
)

// Values returns the values stored on the issue, in the order they were last
// written, and their version. It returns an error wrapping
// [issuefields.ErrIssueDeleted] for a deleted issue, and one wrapping
// [issuefields.ErrNotFound] for an issue that does not exist or that was
// transferred away (its values moved with it).
func (s *Store) Values(ctx context.Context, key issuefields.IssueKey) ([]issuefields.Value, issuefields.Version, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	const query = `
		SELECT state, moved_to_repository_id, moved_to_number, version, field_values
		FROM issues WHERE repository_id = $1 AND number = $2`
	var st issueState
	var version int64
	var data []byte
	err := s.pool.QueryRow(ctx, query, key.RepositoryID, key.Number).
		Scan(&st.state, &st.movedToRepository, &st.movedToNumber, &version, &data)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, "", noIssue(key)
	case err != nil:
		return nil, "", wrap("read the values of "+describe(key), err)
	}
	if err := st.check(describe(key)); err != nil {
		return nil, "", err
	}
	values, err := s.decode(key, version, data)
	if err != nil {
		return nil, "", err
	}
	return values, formatVersion(version), nil
}

// CompareAndSwap replaces the issue's values with values if the issue's
// version is still expected, and returns the new version. Otherwise it
// changes nothing and returns an error wrapping
// [issuefields.ErrVersionConflict]. It returns the errors of [Store.Values]
// for an issue that is deleted, transferred or unknown.
//
// The comparison and the replacement are one UPDATE statement, which
// PostgreSQL applies to the issue's row under the row's lock: of several
// writers with the same expected version, on one server or on several, exactly
// one succeeds. Writers to other issues lock other rows and do not wait.
// Writers of one issue in this process take turns before they take a
// connection.
func (s *Store) CompareAndSwap(ctx context.Context, key issuefields.IssueKey, expected issuefields.Version, values []issuefields.Value) (issuefields.Version, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	release, err := s.turns.take(ctx, key)
	if err != nil {
		return "", wrap("wait for the turn to write "+describe(key), err)
	}
	defer release()
	want := parseVersion(expected)
	if r, ok := s.recent.get(key); ok && want != nil && r.version > *want {
		// This process saw a newer version in the database.
		return "", conflict(key, expected)
	}
	return s.swap(ctx, key, want, values)
}

// swap is the compare-and-set of [Store.CompareAndSwap] in the database,
// with expected as a number (nil matches no version). The caller has the
// issue's turn.
func (s *Store) swap(ctx context.Context, key issuefields.IssueKey, expected *int64, values []issuefields.Value) (issuefields.Version, error) {
	data, err := encodeValues(values)
	if err != nil {
		return "", fmt.Errorf("pgstore: write the values of %s: %w", describe(key), err)
	}
	// When the UPDATE changes no row, the SELECT tells why: no such issue, an
	// issue that is not live, or else a version that is no longer current. It
	// sees the row as it was when the statement began, so an issue it sees live
	// may have been deleted since; the conflict reported then sends the
	// handler back to Values, which tells.
	const query = `
		WITH swapped AS (
			UPDATE issues SET field_values = $4, version = version + 1
			WHERE repository_id = $1 AND number = $2 AND state = 'live' AND version = $3
			RETURNING version
		)
		SELECT (SELECT version FROM swapped), state, moved_to_repository_id, moved_to_number
		FROM issues WHERE repository_id = $1 AND number = $2`
	var swapped *int64
	var st issueState
	err = s.pool.QueryRow(ctx, query, key.RepositoryID, key.Number, expected, data).
		Scan(&swapped, &st.state, &st.movedToRepository, &st.movedToNumber)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", noIssue(key)
	case err != nil:
		return "", wrap("write the values of "+describe(key), err)
	case swapped != nil:
		s.recent.put(key, *swapped, clone.Values(values))
		return formatVersion(*swapped), nil
	}
	if err := st.check(describe(key)); err != nil {
		return "", err
	}
	v := issuefields.Version("none")
	if expected != nil {
		v = formatVersion(*expected)
	}
	return "", conflict(key, v)
}

// conflict returns the error of a compare-and-set of key whose expected
// version is no longer current.
func conflict(key issuefields.IssueKey, expected issuefields.Version) error {
	return fmt.Errorf("pgstore: %s: version %q is no longer current: %w", describe(key), expected, issuefields.ErrVersionConflict)
}

// formatVersion returns the version of an issue whose version column holds n.
func formatVersion(n int64) issuefields.Version {
	return issuefields.Version(strconv.FormatInt(n, 10))
}

// parseVersion returns the number in the version column that v stands for,
// or nil, which matches no issue, if the store never hands out v.
func parseVersion(v issuefields.Version) *int64 {
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil || formatVersion(n) != v {
		return nil
	}
	return &n
}
