package memstore

import (
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
)

// AddIssue adds issue number, with no values, to the repository that
// owner/repo names now or named before. It returns an error, and adds
// nothing, if there is no such repository, if number is not positive, or if
// the repository has or had an issue with that number (live, deleted or
// transferred).
func (s *Store) AddIssue(owner, repo string, number int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	key, what, err := s.issueKey(owner, repo, number)
	if err != nil {
		return err
	}
	if _, ok := s.issues[key]; ok {
		return fmt.Errorf("memstore: %s already exists", what)
	}
	s.issues[key] = newIssue()
	return nil
}

// DeleteIssue deletes issue number of the repository that owner/repo names
// now or named before, with its values. Afterwards Snapshot reports it as
// deleted ([issuefields.ErrIssueDeleted]), and its number is never used
// again. It returns an error, and changes nothing, if there is no such live
// issue.
func (s *Store) DeleteIssue(owner, repo string, number int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, is, err := s.liveIssue(owner, repo, number)
	if err != nil {
		return err
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	is.state, is.values = deleted, nil
	return nil
}

// TransferIssue moves issue number of owner/repo to issue toNumber of
// toOwner/toRepo, which it creates if it does not exist. The issue's values
// move with it and replace any the destination had, under a new version of
// the destination. Afterwards Snapshot finds the old issue at its new place,
// following chains of transfers, and the old number is never used again. It
// returns an error, and changes nothing, if the source is not a live issue, if
// the destination is the source or an issue that was deleted or transferred,
// or if toNumber is not positive.
func (s *Store) TransferIssue(owner, repo string, number int64, toOwner, toRepo string, toNumber int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	from, src, err := s.liveIssue(owner, repo, number)
	if err != nil {
		return err
	}
	to, what, err := s.issueKey(toOwner, toRepo, toNumber)
	if err != nil {
		return err
	}
	if to == from {
		return fmt.Errorf("memstore: cannot transfer %s to itself", what)
	}
	dst, ok := s.issues[to]
	if !ok {
		dst = newIssue()
	} else if err := dst.check(what); err != nil {
		return err
	}
	src.mu.Lock()
	defer src.mu.Unlock()
	dst.mu.Lock()
	defer dst.mu.Unlock()
	dst.commit(src.values)
	src.state, src.movedTo, src.values = transferred, to, nil
	s.issues[to] = dst
	return nil
}

// SetValues replaces the values of issue number of owner/repo with a copy of
// values and gives the issue a new version, as an UpdateIssue would. It
// does not check values against the organization's fields: seed data must be
// valid, as the handler would have written it. It returns an error, and
// changes nothing, if there is no such live issue.
func (s *Store) SetValues(owner, repo string, number int64, values []issuefields.Value) error {
	values = clone.Values(values)
	s.mu.Lock()
	defer s.mu.Unlock()
	_, is, err := s.liveIssue(owner, repo, number)
	if err != nil {
		return err
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	is.commit(values)
	return nil
}

// issueKey returns the key of issue number in the repository that owner/repo
// names now or named before, and a description of the issue for error
// messages. It returns an error if there is no such repository or number is
// not positive. The caller holds s.mu.
func (s *Store) issueKey(owner, repo string, number int64) (issuefields.IssueKey, string, error) {
	what := fmt.Sprintf("issue %d of %q", number, owner+"/"+repo)
	r, err := s.repository(owner, repo)
	if err != nil {
		return issuefields.IssueKey{}, what, err
	}
	if number <= 0 {
		return issuefields.IssueKey{}, what, fmt.Errorf("memstore: %s: number is not positive", what)
	}
	return issuefields.IssueKey{RepositoryID: r.id, Number: number}, what, nil
}

// liveIssue returns the key and record of issue number of owner/repo. It
// returns an error if there is no such issue, or if it was deleted or
// transferred. The caller holds s.mu.
func (s *Store) liveIssue(owner, repo string, number int64) (issuefields.IssueKey, *issue, error) {
	key, what, err := s.issueKey(owner, repo, number)
	if err != nil {
		return key, nil, err
	}
	is, ok := s.issues[key]
	if !ok {
		return key, nil, fmt.Errorf("memstore: %s: %w", what, issuefields.ErrNotFound)
	}
	return key, is, is.check(what)
}
