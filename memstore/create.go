package memstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
)

// CreateIssue stores a copy of issue's content as a new live issue of
// snap.Repository, as [issuefields.IssueStore] describes: under the
// store-wide lock, held for writing, if the store still holds the
// repository as snap shows it and the same slice of its owner's fields. The
// issue gets the number above the largest the repository has had, and the
// next of the store's issue IDs; otherwise CreateIssue returns an error that
// wraps [issuefields.ErrChanged], and uses neither.
func (s *Store) CreateIssue(_ context.Context, snap issuefields.Snapshot, issue issuefields.Issue) (issuefields.Issue, error) {
	issue = clone.Issue(issue)
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.repos[snap.Repository.ID]
	if !ok || r.snapshot() != snap.Repository || !sameSlice(r.owner.fields, snap.Fields) {
		return issuefields.Issue{}, fmt.Errorf("memstore: create an issue in repository %d: %w", snap.Repository.ID, issuefields.ErrChanged)
	}
	id, err := s.nextIssueID()
	if err != nil {
		return issuefields.Issue{}, fmt.Errorf("memstore: create an issue in repository %d: %w", r.id, err)
	}
	key := issuefields.IssueKey{RepositoryID: r.id, Number: 1}
	if n := len(r.numbers); n > 0 {
		key.Number = r.numbers[n-1] + 1
	}
	is := newIssue(id)
	is.commit(issue)
	s.addIssue(key, is)
	return is.record(r.snapshot(), key.Number), nil
}

// Issues returns the live issues that q names, ordered by repository ID and
// number, with the store's own slices, which nobody may modify. Its cost
// grows with the issues of q's repositories and with q's IDs, not with the
// store's other issues.
func (s *Store) Issues(_ context.Context, q issuefields.IssueQuery) ([]issuefields.Issue, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var keys []issuefields.IssueKey
	for _, id := range q.Repositories {
		if r, ok := s.repos[id]; ok {
			for _, n := range r.numbers {
				keys = append(keys, issuefields.IssueKey{RepositoryID: id, Number: n})
			}
		}
	}
	for _, id := range q.IDs {
		if key, ok := s.byID[id]; ok {
			keys = append(keys, key)
		}
	}
	slices.SortFunc(keys, func(a, b issuefields.IssueKey) int {
		return cmp.Or(cmp.Compare(a.RepositoryID, b.RepositoryID), cmp.Compare(a.Number, b.Number))
	})
	var out []issuefields.Issue
	for _, key := range slices.Compact(keys) {
		is := s.issues[key]
		if is.state != live {
			continue
		}
		is.mu.Lock()
		out = append(out, is.record(s.repos[key.RepositoryID].snapshot(), key.Number))
		is.mu.Unlock()
	}
	return out, nil
}

// Repositories returns every repository of the store, by ID.
func (s *Store) Repositories(context.Context) ([]issuefields.Repository, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]issuefields.Repository, 0, len(s.repos))
	for _, r := range s.repos {
		out = append(out, r.snapshot())
	}
	slices.SortFunc(out, func(a, b issuefields.Repository) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}
