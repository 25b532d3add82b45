package memstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
)

// UpdateValues calls change once with the issue's values and version, and
// replaces the values with a copy of those change returns, under a new
// version, as [issuefields.Store] describes. current is the store's own
// slice, which change must not modify. It holds only the issue's lock while it
// calls change, so writes to different issues never wait for each other, and
// change must not call the Store for the same issue. When change returns an
// error, UpdateValues changes nothing and returns an error that wraps it. For
// an issue that was deleted it returns an error that wraps
// [issuefields.ErrIssueDeleted], and for one that was transferred away or
// never was, one that wraps [issuefields.ErrNotFound], without calling change.
func (s *Store) UpdateValues(_ context.Context, key issuefields.IssueKey, change func(current []issuefields.Value, version issuefields.Version) ([]issuefields.Value, error)) (issuefields.Version, error) {
	is, err := s.issue(key)
	if err != nil {
		return "", err
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	if is.state != live {
		return "", is.check(describe(key))
	}
	values, err := change(slices.Clip(is.values), is.version)
	if err != nil {
		return "", fmt.Errorf("memstore: %s: %w", describe(key), err)
	}
	is.commit(clone.Values(values))
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
