package issuefields

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// maxCommitAttempts bounds how often a write reads the issue's values again
// after losing a compare-and-set to a concurrent write, before it answers 503.
const maxCommitAttempts = 12

// mutation computes an issue's new values from its current ones. It must not
// modify current.
type mutation func(current []Value) ([]Value, error)

// merge is add (POST): each value in updates replaces the value of its field,
// other fields keep theirs. No updates at all clears every value.
func merge(updates []Value) mutation {
	return func(current []Value) ([]Value, error) {
		if len(updates) == 0 {
			return nil, nil
		}
		next := make([]Value, 0, len(current)+len(updates))
		for _, v := range current {
			if _, replaced := valueOf(updates, v.FieldID); !replaced {
				next = append(next, v)
			}
		}
		return append(next, updates...), nil
	}
}

// replaceAll is set (PUT): afterwards the issue holds exactly updates.
func replaceAll(updates []Value) mutation {
	return func([]Value) ([]Value, error) { return updates, nil }
}

// removeField is delete: the value of field id goes; when there is none, it is
// ErrNotFound.
func removeField(id int64) mutation {
	return func(current []Value) ([]Value, error) {
		i := slices.IndexFunc(current, func(v Value) bool { return v.FieldID == id })
		if i < 0 {
			return nil, ErrNotFound
		}
		return slices.Delete(slices.Clone(current), i, i+1), nil
	}
}

// commitResult is what a write did to an issue's values.
type commitResult struct {
	before, after []Value
	// version is the store's version of after.
	version Version
	// changed is false when the write left the values as they were and so
	// was not stored.
	changed bool
}

// commit applies m to the issue's values with the store's compare-and-set,
// reading and applying again when a concurrent write got there first, at most
// maxCommitAttempts times. When ifMatch (an If-Match header) is not empty, the
// values must still have one of its entity tags, rendered with fields; the
// check and the write are one compare-and-set, so a client can read, modify
// and write back without losing a concurrent change.
func (h *Handler) commit(ctx context.Context, key IssueKey, fields []Field, ifMatch string, m mutation) (commitResult, error) {
	for attempt := 0; ; attempt++ {
		current, version, err := h.store.Values(ctx, key)
		if err != nil {
			return commitResult{}, err
		}
		if ifMatch != "" && !etagListMatches(ifMatch, etagOf(key, version, fields), false) {
			return commitResult{}, errPreconditionFailed
		}
		next, err := m(current)
		if err != nil {
			return commitResult{}, err
		}
		if sameValues(current, next) {
			return commitResult{before: current, after: current, version: version}, nil
		}
		newVersion, err := h.store.CompareAndSwap(ctx, key, version, next)
		if err == nil {
			return commitResult{before: current, after: next, version: newVersion, changed: true}, nil
		}
		if !errors.Is(err, ErrVersionConflict) {
			return commitResult{}, err
		}
		if attempt+1 == maxCommitAttempts {
			return commitResult{}, fmt.Errorf("lost the compare-and-set %d times: %w", maxCommitAttempts, err)
		}
		if err := backOff(ctx, attempt); err != nil {
			return commitResult{}, err
		}
	}
}

// backOff waits a random time that grows with attempt, so that writers racing
// for one issue spread out instead of colliding again.
func backOff(ctx context.Context, attempt int) error {
	limit := min(50*time.Microsecond<<attempt, 20*time.Millisecond)
	t := time.NewTimer(rand.N(limit) + 1)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sameValues reports whether a and b hold the same value for every field,
// whatever their order.
func sameValues(a, b []Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		w, ok := valueOf(b, a[i].FieldID)
		if !ok || !sameValue(&a[i], w) {
			return false
		}
	}
	return true
}

// sameValue reports whether a and b are the same value.
func sameValue(a, b *Value) bool {
	return a.FieldID == b.FieldID && a.Text == b.Text && a.Number == b.Number &&
		a.Date == b.Date && slices.Equal(a.OptionIDs, b.OptionIDs)
}
