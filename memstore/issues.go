package memstore

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
)

// AddIssue adds issue number, with no content but its ID, to the repository
// that owner/repo names now or named before. The issue gets the next of the
// store's issue IDs: 1, 2, 3 and so on in the order issues are added or
// created. It returns an error, and adds nothing, if there is no such
// repository, if number is not positive, or if the repository has or had an
// issue with that number (live, deleted or transferred).
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
	id, err := s.nextIssueID()
	if err != nil {
		return fmt.Errorf("memstore: %s: %w", what, err)
	}
	s.addIssue(key, newIssue(id))
	return nil
}

// errNoIssueIDsLeft reports that the store has given the largest issue ID
// there is, 2^31-1.
var errNoIssueIDsLeft = errors.New("no new issue IDs are left")

// nextIssueID returns the ID of the next issue. The caller holds s.mu for
// writing, and adds the issue.
func (s *Store) nextIssueID() (int64, error) {
	if s.lastIssueID == math.MaxInt32 {
		return 0, errNoIssueIDsLeft
	}
	s.lastIssueID++
	return s.lastIssueID, nil
}

// addIssue records is, a new live issue, under key, which no issue had. The
// caller holds s.mu for writing.
func (s *Store) addIssue(key issuefields.IssueKey, is *issue) {
	s.issues[key] = is
	s.byID[is.content.ID] = key
	r := s.repos[key.RepositoryID]
	i, _ := slices.BinarySearch(r.numbers, key.Number)
	r.numbers = slices.Insert(r.numbers, i, key.Number)
}

// DeleteIssue deletes issue number of the repository that owner/repo names
// now or named before, with its content. Afterwards Snapshot reports it as
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
	delete(s.byID, is.content.ID)
	is.state, is.content = deleted, issuefields.Issue{ID: is.content.ID}
	return nil
}

// TransferIssue moves issue number of owner/repo to issue toNumber of
// toOwner/toRepo, which it creates if it does not exist. The issue's ID and
// content move with it and replace those the destination had, under a new
// version of the destination. Afterwards Snapshot finds the old issue at its
// new place, following chains of transfers, and the old number is never
// used again. It returns an error, and changes nothing, if the source is not
// a live issue, if the destination is the source or an issue that was
// deleted or transferred, or if toNumber is not positive.
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
		dst = newIssue(src.content.ID)
		s.addIssue(to, dst)
	} else if err := dst.check(what); err != nil {
		return err
	}
	src.mu.Lock()
	defer src.mu.Unlock()
	dst.mu.Lock()
	defer dst.mu.Unlock()
	delete(s.byID, dst.content.ID)
	dst.content.ID = src.content.ID
	dst.commit(src.content)
	s.byID[dst.content.ID] = to
	src.state, src.movedTo, src.content = transferred, to, issuefields.Issue{ID: src.content.ID}
	return nil
}

// SetIssue replaces the content of issue issue.Number of owner/repo with a
// copy of issue's (everything but its Repository, Number, ID and Version:
// see [issuefields.Issue]) and gives the issue a new version, as an
// UpdateIssue would. It stores the content as given. It returns an error,
// and changes nothing, if there is no such live issue.
func (s *Store) SetIssue(owner, repo string, issue issuefields.Issue) error {
	return s.change(owner, repo, issue.Number, func(*issuefields.Issue) issuefields.Issue { return clone.Issue(issue) })
}

// SetValues replaces the values of issue number of owner/repo with a copy of
// values and gives the issue a new version, as an UpdateIssue would. It
// does not check values against the organization's fields: seed data must be
// valid, as the handler would have written it. It returns an error, and
// changes nothing, if there is no such live issue.
func (s *Store) SetValues(owner, repo string, number int64, values []issuefields.Value) error {
	values = clone.Values(values)
	return s.change(owner, repo, number, func(content *issuefields.Issue) issuefields.Issue {
		next := *content
		next.Values = values
		return next
	})
}

// change commits what next makes of the content of the live issue number of
// owner/repo.
func (s *Store) change(owner, repo string, number int64, next func(content *issuefields.Issue) issuefields.Issue) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, is, err := s.liveIssue(owner, repo, number)
	if err != nil {
		return err
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	is.commit(next(&is.content))
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
