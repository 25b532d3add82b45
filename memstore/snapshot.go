package memstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/issuefields/issuefields"
)

// Snapshot finds the repository that owner/name names now or named before,
// case-insensitively, the fields of its owner, and the issue number in it,
// following transfers, as [issuefields.Store] describes. For an issue that
// is still where it was asked for, it adds the issue's ID, content and
// version: the store's own slices, which nobody may modify. It reads them
// under the store-wide lock and the issue's lock, so they are one state of
// the store, and it allocates nothing for them.
func (s *Store) Snapshot(_ context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, err := s.repository(owner, name)
	if err != nil {
		return issuefields.Snapshot{}, err
	}
	snap := issuefields.Snapshot{Repository: r.snapshot(), Fields: slices.Clip(r.owner.fields)}
	key := issuefields.IssueKey{RepositoryID: r.id, Number: number}
	is, ok := s.issues[key]
	if !ok {
		snap.IssueErr = noIssue(key)
		return snap, nil
	}
	for is.state == transferred {
		key = is.movedTo
		is = s.issues[key]
	}
	if is.state == deleted {
		snap.IssueErr = is.check(describe(key))
		return snap, nil
	}
	where := s.repos[key.RepositoryID].snapshot()
	if key.RepositoryID != r.id || key.Number != number {
		snap.Issue = issuefields.Issue{Repository: where, Number: key.Number}
		return snap, nil
	}
	is.mu.Lock()
	snap.Issue = is.record(where, key.Number)
	is.mu.Unlock()
	return snap, nil
}

// repository finds the repository that owner/name names now or named before.
// The caller holds s.mu.
func (s *Store) repository(owner, name string) (*repository, error) {
	r, ok := s.names[nameOf(owner, name)]
	if !ok {
		return nil, fmt.Errorf("memstore: repository %q: %w", owner+"/"+name, issuefields.ErrNotFound)
	}
	return r, nil
}
