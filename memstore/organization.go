package memstore

import (
	"errors"
	"fmt"
	"slices"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/reponame"
)

// AddOrganization adds the organization login. Repositories that
// AddRepository or TransferRepository give to it are owned by an
// organization, and have the fields that AddField gives it. It returns an
// error if login is empty or already names an account of the store, be it an
// organization or a user that owns a repository.
func (s *Store) AddOrganization(login string) error {
	if login == "" {
		return errors.New("memstore: empty organization login")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if a, ok := s.accounts[reponame.Key(login)]; ok {
		return fmt.Errorf("memstore: organization %q: account %q already exists", login, a.login)
	}
	s.accounts[reponame.Key(login)] = &account{login: login, org: true}
	return nil
}

// AddField appends a copy of f to the fields of the organization org. It
// returns an error, and adds nothing, if org is not an organization of the
// store or f is not a well-formed field of it: f.ID must be positive and
// f.Name non-empty, both unique among the organization's fields; f.DataType
// must be valid; a single_select or multi_select field needs at least one
// option, each with a positive ID and a non-empty name that are unique within
// the field; a field of another data type has no options.
func (s *Store) AddField(org string, f issuefields.Field) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.accounts[reponame.Key(org)]
	switch {
	case !ok:
		return fmt.Errorf("memstore: organization %q: %w", org, issuefields.ErrNotFound)
	case !a.org:
		return fmt.Errorf("memstore: %q is a user, not an organization", a.login)
	}
	if err := issuefields.ValidateField(a.fields, f); err != nil {
		return fmt.Errorf("memstore: field %d of organization %q: %w", f.ID, a.login, err)
	}
	f.Options = slices.Clone(f.Options)
	a.fields = append(a.fields, f)
	return nil
}

// account returns the account login, which it creates as a user account if
// the store does not have it yet. The caller holds s.mu for writing.
func (s *Store) account(login string) *account {
	key := reponame.Key(login)
	a, ok := s.accounts[key]
	if !ok {
		a = &account{login: login}
		s.accounts[key] = a
	}
	return a
}
