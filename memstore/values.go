package memstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
)

// Values returns the values stored on the issue, in the order they were last
// written, and their version. The values are a snapshot shared with other
// callers that the caller must not modify. It returns an error wrapping
// [issuefields.ErrIssueDeleted] for a deleted issue, and one wrapping
// [issuefields.ErrNotFound] for an issue that does not exist or that was
// transferred away (its values moved with it).
func (s *Store) Values(_ context.Context, key issuefields.IssueKey) ([]issuefields.Value, issuefields.Version, error) {
	is, err := s.issue(key)
	if err != nil {
		return nil, "", err
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	if is.state != live {
		return nil, "", is.check(describe(key))
	}
	return slices.Clip(is.values), is.version, nil
}

// CompareAndSwap replaces the issue's values with a copy of values if the
// issue's version is still expected, and returns the new version. Otherwise it
// changes nothing and returns an error wrapping
// [issuefields.ErrVersionConflict]. It returns the errors of [Store.Values]
// for an issue that is deleted, transferred or unknown. It holds only the
// issue's own lock while it compares and swaps.
func (s *Store) CompareAndSwap(_ context.Context, key issuefields.IssueKey, expected issuefields.Version, values []issuefields.Value) (issuefields.Version, error) {
	is, err := s.issue(key)
	if err != nil {
		return "", err
	}
	values = clone.Values(values)
	is.mu.Lock()
	defer is.mu.Unlock()
	if is.state != live {
		return "", is.check(describe(key))
	}
	if expected != is.version {
		return "", fmt.Errorf("memstore: %s: expected version %q, have %q: %w", describe(key), expected, is.version, issuefields.ErrVersionConflict)
	}
	is.commit(values)
	return is.version, nil
}

// issue returns the record of the issue that key identifies, live or not.
func (s *Store) issue(key issuefields.IssueKey) (*issue, error) {
	s.mu.RLock()
	is, ok := s.issues[key]
	s.mu.RUnlock()
	if !ok {
		return nil, noIssue(key)
	}
	return is, nil
}
