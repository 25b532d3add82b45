package memstore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/reponame"
)

// OrganizationFields returns the fields of the organization org, in the
// organization's order: the store's own slice, which nobody may modify. It
// returns an error that wraps [issuefields.ErrNotFound] when org is not an
// organization of the store.
func (s *Store) OrganizationFields(_ context.Context, org string) ([]issuefields.Field, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	a, err := s.organization(org)
	if err != nil {
		return nil, err
	}
	return slices.Clip(a.fields), nil
}

// ChangeFields replaces the fields of the organization org with a copy of
// those that change returns, and returns them as stored, as
// [issuefields.FieldManager] describes. It calls change once, with the
// store's own slice, which change must not modify; change must not change the
// organization's fields itself.
//
// Changes of one organization's fields take turns on a lock of the
// organization, which ChangeFields holds while it calls change; the
// store-wide lock is taken only to put the new slice in place, so change
// holds up no other organization and no request. Each field and option with
// ID 0 gets the next of the organization's IDs: one above the largest ID that
// a field or an option of the organization ever had, seeded or given. The
// values of issues are left as they are, those of removed fields and options
// included, under the same versions.
func (s *Store) ChangeFields(_ context.Context, org string, change func(current []issuefields.Field) ([]issuefields.Field, error)) ([]issuefields.Field, error) {
	a, err := s.lockFields(org)
	if err != nil {
		return nil, err
	}
	defer a.fieldsMu.Unlock()
	next, err := change(slices.Clip(a.fields))
	if err != nil {
		return nil, fmt.Errorf("memstore: fields of organization %q: %w", a.login, err)
	}
	next = cloneFields(next)
	lastID, err := assignIDs(next, a.lastID)
	if err != nil {
		return nil, fmt.Errorf("memstore: fields of organization %q: %w", a.login, err)
	}
	s.mu.Lock()
	a.fields = next
	s.mu.Unlock()
	a.lastID = lastID
	return slices.Clip(next), nil
}

// lockFields finds the organization org and locks its fieldsMu. It returns
// an error that wraps [issuefields.ErrNotFound], and locks nothing, when org
// is not an organization of the store.
func (s *Store) lockFields(org string) (*account, error) {
	s.mu.RLock()
	a, err := s.organization(org)
	s.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	a.fieldsMu.Lock()
	return a, nil
}

// organization returns the organization login. The caller holds s.mu.
func (s *Store) organization(login string) (*account, error) {
	a, ok := s.accounts[reponame.Key(login)]
	switch {
	case !ok:
		return nil, fmt.Errorf("memstore: organization %q: %w", login, issuefields.ErrNotFound)
	case !a.org:
		return nil, fmt.Errorf("memstore: %q is a user, not an organization: %w", a.login, issuefields.ErrNotFound)
	}
	return a, nil
}

// errNoIDsLeft reports that an organization has had a field or an option
// with the largest ID there is, so no new ID is left.
var errNoIDsLeft = errors.New("no new IDs are left")

// assignIDs gives each field of fields that has ID 0, and then each of its
// options that has ID 0, the next ID above last and every other ID of fields,
// in order, and returns the largest ID of fields.
func assignIDs(fields []issuefields.Field, last int64) (int64, error) {
	last = max(last, largestID(fields))
	next := func(id *int64) error {
		if *id != 0 {
			return nil
		}
		if last == math.MaxInt64 {
			return errNoIDsLeft
		}
		last++
		*id = last
		return nil
	}
	for i := range fields {
		f := &fields[i]
		if err := next(&f.ID); err != nil {
			return 0, err
		}
		for j := range f.Options {
			if err := next(&f.Options[j].ID); err != nil {
				return 0, err
			}
		}
	}
	return last, nil
}

// largestID returns the largest ID of fields and their options, or 0.
func largestID(fields []issuefields.Field) int64 {
	var id int64
	for _, f := range fields {
		id = max(id, f.ID)
		for _, o := range f.Options {
			id = max(id, o.ID)
		}
	}
	return id
}

// cloneFields returns a copy of fields that shares no memory with it.
func cloneFields(fields []issuefields.Field) []issuefields.Field {
	out := slices.Clone(fields)
	for i := range out {
		out[i].Options = slices.Clone(out[i].Options)
	}
	return out
}
