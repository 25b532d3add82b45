package memstore

import (
	"context"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
)

// UpdateValues calls change with a Snapshot of issue number of owner/name, as
// Snapshot reads it, and stores a copy of the values change returns as the
// issue's values, under a new version, as [issuefields.Store] describes. The
// Snapshot holds the store's own slices, which change must not modify.
//
// change runs without any of the store's locks, so a change that takes its
// time (one that reads a request's body, say) holds back no other request.
// The values are stored only if, under the store-wide lock and the issue's,
// the store still holds what the Snapshot shows: the same repository under
// the same name, the same fields, and the issue live there at the same
// version. Otherwise UpdateValues reads a new Snapshot and calls change
// again. When change returns an error, UpdateValues stores nothing and
// returns an error that wraps it.
func (s *Store) UpdateValues(ctx context.Context, owner, name string, number int64, change func(issuefields.Snapshot) ([]issuefields.Value, error)) (issuefields.Version, error) {
	for {
		snap, err := s.Snapshot(ctx, owner, name, number)
		if err != nil {
			return "", err
		}
		values, err := change(snap)
		if err != nil {
			return "", updateError(owner, name, number, err)
		}
		version, stored, err := s.storeValues(owner, name, number, &snap, values)
		if stored || err != nil {
			return version, err
		}
		if err := ctx.Err(); err != nil {
			return "", updateError(owner, name, number, unavailable(err))
		}
	}
}

// updateError returns err as UpdateValues returns it for issue number of
// owner/name. It is a function of its own so that the frame of UpdateValues,
// under which the handler reads a request's body, stays small.
func updateError(owner, name string, number int64, err error) error {
	return fmt.Errorf("memstore: issue %d of %q: %w", number, owner+"/"+name, err)
}

// unavailable returns the error of a write that gave up because of err, the
// error of its context.
func unavailable(err error) error {
	return fmt.Errorf("%w: %w", issuefields.ErrUnavailable, err)
}

// storeValues stores a copy of values as the values of issue number of
// owner/name if the store still holds what snap shows, and reports whether
// it did. It returns an error when snap shows no live issue there to store
// them on.
func (s *Store) storeValues(owner, name string, number int64, snap *issuefields.Snapshot, values []issuefields.Value) (issuefields.Version, bool, error) {
	key := issuefields.IssueKey{RepositoryID: snap.Repository.ID, Number: number}
	switch {
	case snap.IssueErr != nil:
		return "", false, snap.IssueErr
	case snap.Issue.Key() != key:
		return "", false, fmt.Errorf("memstore: %s was transferred to %s: %w", describe(key), describe(snap.Issue.Key()), issuefields.ErrNotFound)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, err := s.repository(owner, name)
	if err != nil || r.snapshot() != snap.Repository || !sameSlice(r.owner.fields, snap.Fields) {
		return "", false, nil
	}
	is, ok := s.issues[key]
	if !ok {
		return "", false, nil
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	if is.state != live || is.version != snap.Version {
		return "", false, nil
	}
	is.commit(clone.Values(values))
	return is.version, true, nil
}

// sameSlice reports whether a and b are the same slice of the store's: a
// store's fields are replaced, never changed in place, when they change.
func sameSlice(a, b []issuefields.Field) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
