package memstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/reponame"
)

var _ issuefields.FieldManager = (*Store)(nil)

// OrganizationFields returns the fields of the organization org, in the
// organization's order, as a snapshot shared with other callers that the
// caller must not modify. It returns an error wrapping
// [issuefields.ErrNotFound] when org is not an organization of the store.
func (s *Store) OrganizationFields(_ context.Context, org string) ([]issuefields.Field, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	a, err := s.organization(org)
	if err != nil {
		return nil, err
	}
	return slices.Clip(a.fields), nil
}

// ChangeFields replaces the fields of the organization org with those that
// change returns, as [issuefields.FieldManager] describes. It holds the
// store-wide lock while it calls change and stores the result, so changes of
// fields apply one at a time and every request that begins afterwards sees
// them. When a field or an option goes, it removes the values that used it and
// gives every live issue of the organization's repositories a new version.
func (s *Store) ChangeFields(_ context.Context, org string, change func(current []issuefields.Field) ([]issuefields.Field, error)) ([]issuefields.Field, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, err := s.organization(org)
	if err != nil {
		return nil, err
	}
	next, err := change(slices.Clip(a.fields))
	if err != nil {
		return nil, err
	}
	plan, err := issuefields.PlanFieldChange(a.fields, next, a.lastID)
	if err != nil {
		return nil, fmt.Errorf("memstore: fields of organization %q: %w", a.login, err)
	}
	a.fields, a.lastID = plan.Fields, plan.LastID
	if plan.Removes {
		s.pruneValues(a)
	}
	return slices.Clip(a.fields), nil
}

// pruneValues removes the values that the fields of a no longer define from
// the issues of a's repositories, and gives each live one a new version. The
// caller holds s.mu for writing.
func (s *Store) pruneValues(a *account) {
	for key, is := range s.issues {
		if s.repos[key.RepositoryID].owner != a {
			continue
		}
		is.mu.Lock()
		if is.state == live {
			values, _ := issuefields.PruneValues(is.values, a.fields)
			is.commit(values)
		}
		is.mu.Unlock()
	}
}

// organization returns the organization login. The caller holds s.mu.
func (s *Store) organization(login string) (*account, error) {
	a, ok := s.accounts[reponame.Key(login)]
	if !ok || !a.org {
		return nil, fmt.Errorf("memstore: organization %q: %w", login, issuefields.ErrNotFound)
	}
	return a, nil
}
