package memstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/issuefields/issuefields"
)

// Repository finds the repository that owner/name names now or named before,
// case-insensitively, and returns it under its current owner and name. It
// returns an error wrapping [issuefields.ErrNotFound] when no repository has
// or had that name.
func (s *Store) Repository(_ context.Context, owner, name string) (issuefields.Repository, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, err := s.repository(owner, name)
	if err != nil {
		return issuefields.Repository{}, err
	}
	return r.snapshot(), nil
}

// Issue finds issue number in repo, following transfers to the issue's
// current repository and number. It returns an error wrapping
// [issuefields.ErrIssueDeleted] for a deleted issue and one wrapping
// [issuefields.ErrNotFound] for a number that never was an issue of repo or a
// repository the store does not know.
func (s *Store) Issue(_ context.Context, repo issuefields.Repository, number int64) (issuefields.Issue, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	key := issuefields.IssueKey{RepositoryID: repo.ID, Number: number}
	is, ok := s.issues[key]
	if !ok {
		return issuefields.Issue{}, noIssue(key)
	}
	for is.state == transferred {
		key = is.movedTo
		is = s.issues[key]
	}
	if is.state == deleted {
		return issuefields.Issue{}, is.check(describe(key))
	}
	return issuefields.Issue{Repository: s.repos[key.RepositoryID].snapshot(), Number: key.Number}, nil
}

// Fields returns the issue fields of the organization that owns repo now, in
// the organization's order, as a snapshot shared with other callers that
// the caller must not modify. A repository owned by a user has no
// fields: Fields returns an empty slice. It returns an error wrapping
// [issuefields.ErrNotFound] for a repository the store does not know.
func (s *Store) Fields(_ context.Context, repo issuefields.Repository) ([]issuefields.Field, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.repos[repo.ID]
	if !ok {
		return nil, fmt.Errorf("memstore: repository %d: %w", repo.ID, issuefields.ErrNotFound)
	}
	return slices.Clip(r.owner.fields), nil
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
