package memstore

import (
	"context"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
)

// UpdateIssue stores a copy of next's content as the content of the issue
// that snap shows live in its repository, under a new version, as
// [issuefields.Store] describes: under the store-wide lock and the issue's,
// if the store still holds what snap shows (the same repository, the same
// slice of its owner's fields, and the issue live there at the same
// version). Otherwise it stores nothing and returns an error that wraps
// [issuefields.ErrChanged]. It holds each lock only while it checks and
// stores, so it never waits for a write of another issue.
func (s *Store) UpdateIssue(_ context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	key := snap.Issue.Key()
	if snap.IssueErr != nil || key.RepositoryID != snap.Repository.ID {
		return "", changed(key)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.repos[key.RepositoryID]
	if !ok || r.snapshot() != snap.Repository || !sameSlice(r.owner.fields, snap.Fields) {
		return "", changed(key)
	}
	is, ok := s.issues[key]
	if !ok {
		return "", changed(key)
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	if is.state != live || is.version != snap.Issue.Version {
		return "", changed(key)
	}
	is.commit(clone.Issue(next))
	return is.version, nil
}

// changed returns the error of an UpdateIssue of key from a Snapshot that
// the store no longer holds. It is a function of its own so that the frame
// of UpdateIssue stays small.
func changed(key issuefields.IssueKey) error {
	return fmt.Errorf("memstore: %s: %w", describe(key), issuefields.ErrChanged)
}

// sameSlice reports whether a and b are the same slice of the store's: a
// store's fields are replaced, never changed in place, when they change.
func sameSlice(a, b []issuefields.Field) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
