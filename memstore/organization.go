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
// store, or if [issuefields.ValidateFields] refuses the organization's fields
// with f appended: f.ID must be positive and f.Name non-empty, both unique
// among the organization's fields; f.DataType must be valid; a single_select
// or multi_select field needs at least one option, each with a positive ID
// and a non-empty name, both unique within the field, and one of the eight
// colors; a field of another data type has no options. AddField takes its
// turn with the organization's ChangeFields, and the IDs of f and its options
// count among those that ChangeFields never gives.
func (s *Store) AddField(org string, f issuefields.Field) error {
	a, err := s.lockFields(org)
	if err != nil {
		return err
	}
	defer a.fieldsMu.Unlock()
	f.Options = slices.Clone(f.Options)
	fields := append(slices.Clip(a.fields), f)
	if err := issuefields.ValidateFields(fields); err != nil {
		return fmt.Errorf("memstore: field %d of organization %q: %w", f.ID, a.login, err)
	}
	s.mu.Lock()
	a.fields = fields
	s.mu.Unlock()
	a.lastID = max(a.lastID, largestID(fields))
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
