package memstore

import (
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/reponame"
)

// AddRepository adds the repository owner/name and returns it. Its owner is
// an organization if AddOrganization added one called owner, and a user
// otherwise; the store creates a user on first use, spelt as it is first
// given. Repositories get the IDs 1, 2, 3 and so on in the order they are
// added. A name that another repository had before passes to the new
// repository, and no longer finds the old one. AddRepository returns an
// error, and adds nothing, if owner or name is empty or contains a slash, or
// if a repository is called owner/name now.
func (s *Store) AddRepository(owner, name string, private bool) (issuefields.Repository, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.claim(nil, owner, name); err != nil {
		return issuefields.Repository{}, err
	}
	r := &repository{id: s.lastID + 1, owner: s.account(owner), name: name, private: private}
	s.lastID = r.id
	s.repos[r.id] = r
	s.names[r.current()] = r
	return r.snapshot(), nil
}

// RenameRepository renames the repository that owner/name names now or named
// before to newName. The repository keeps its ID, its issues and their
// values, and is still found by every name it had. It returns an error, and
// changes nothing, if there is no such repository, if newName is empty or
// contains a slash, or if another repository of the owner is called newName
// now.
func (s *Store) RenameRepository(owner, name, newName string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.repository(owner, name)
	if err != nil {
		return err
	}
	if err := s.claim(r, r.owner.login, newName); err != nil {
		return err
	}
	r.name = newName
	s.names[r.current()] = r
	return nil
}

// TransferRepository gives the repository that owner/name names now or named
// before to the account newOwner: an organization if AddOrganization added it,
// and a user otherwise. The repository keeps its ID, its issues and their
// values, and is still found by every owner and name it had; its fields are
// now those of the new owner. It returns an error, and changes nothing, if
// there is no such repository, if newOwner is empty or contains a slash, or if
// newOwner has a repository of the same name now.
func (s *Store) TransferRepository(owner, name, newOwner string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.repository(owner, name)
	if err != nil {
		return err
	}
	if err := s.claim(r, newOwner, r.name); err != nil {
		return err
	}
	r.owner = s.account(newOwner)
	s.names[r.current()] = r
	return nil
}

// claim returns an error unless repository r (nil for a new one) may be
// called owner/name: both must be non-empty without a slash, and no other
// repository may be called so now. The caller holds s.mu for writing.
func (s *Store) claim(r *repository, owner, name string) error {
	if err := reponame.Check(owner, name); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	key := nameOf(owner, name)
	if other, ok := s.names[key]; ok && other != r && other.current() == key {
		return fmt.Errorf("memstore: repository %q already exists", other.owner.login+"/"+other.name)
	}
	return nil
}
