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

// commit applies m to the issue of c with the store's compare-and-set. When a
// concurrent write got there first, it applies m again with the store's
// Updater, which locks the issue, if the store has one; otherwise it reads
// and applies again, at most maxCommitAttempts times. When the request has an
// If-Match header, the values must still have one of its entity tags,
// rendered with fields; the check and the write are one step, so a client can
// read, modify and write back without losing a concurrent change.
//
// Fields read apart from the values are checked again after each read of
// the values: a change of the fields that the values already show (it
// removed values) would otherwise pass unseen, and one that they do not show
// yet gives the issue a new version, which the compare-and-set refuses.
func (h *Handler) commit(c *call, fields []Field, m mutation) (commitResult, error) {
	ctx, key, ifMatch := c.ctx(), c.issue.Key(), headerList(c.r, "If-Match")
	apply := func(current []Value, version Version) (commitResult, error) {
		if ifMatch != "" && !etagListMatches(ifMatch, etagOf(key, version, h.fieldSums.of(fields)), false) {
			return commitResult{}, errPreconditionFailed
		}
		next, err := m(current)
		if err != nil {
			return commitResult{}, err
		}
		if sameValues(current, next) {
			return commitResult{before: current, after: current, version: version}, nil
		}
		return commitResult{before: current, after: next, version: version, changed: true}, nil
	}
	current, version, err := h.values(c)
	if err == nil && h.snapshots == nil {
		err = h.checkFields(c, fields)
	}
	for attempt := 0; ; attempt++ {
		if err != nil {
			return commitResult{}, err
		}
		result, err := apply(current, version)
		if err != nil || !result.changed {
			if err == nil && c.keptCheck != nil {
				// Values from memory that the write leaves as they are
				// may be stale: the answer is decided again.
				err = errKeptSnapshotStale
			}
			return result, err
		}
		if c.keptCheck != nil {
			result.version, err = h.kept.SwapIfCurrent(ctx, c.keptCheck, result.after)
			if errors.Is(err, ErrVersionConflict) {
				err = errKeptSnapshotStale
			}
			return result, err
		}
		result.version, err = h.store.CompareAndSwap(ctx, key, version, result.after)
		if err == nil {
			return result, nil
		}
		if !errors.Is(err, ErrVersionConflict) {
			return commitResult{}, err
		}
		if err := h.checkFields(c, fields); err != nil {
			return commitResult{}, err
		}
		if h.updater != nil {
			return h.update(ctx, key, apply)
		}
		if attempt+1 == maxCommitAttempts {
			return commitResult{}, fmt.Errorf("lost the compare-and-set %d times: %w", maxCommitAttempts, err)
		}
		if err := backOff(ctx, attempt); err != nil {
			return commitResult{}, err
		}
		if current, version, err = h.store.Values(ctx, key); err == nil {
			err = h.checkFields(c, fields)
		}
	}
}

// errKeptSnapshotStale reports that a write prepared from a snapshot that the
// store kept in memory did not commit, because the store no longer holds what
// that snapshot shows or the write changes nothing: the request is served
// again from a fresh snapshot.
var errKeptSnapshotStale = errors.New("the kept snapshot may be stale")

// fieldsChanged reports that the fields of an issue's organization are no
// longer those that a write was validated against: the write is validated
// again with these. It is a version conflict to the status table.
type fieldsChanged struct{ fields []Field }

func (e *fieldsChanged) Error() string {
	return "the organization's fields changed while the write was being committed"
}

func (e *fieldsChanged) Unwrap() error { return ErrVersionConflict }

// checkFields returns a *fieldsChanged when the store can change fields
// (FieldManager) and the fields of c's issue are no longer fields, which a
// write lost its compare-and-set to, perhaps because a change of the fields
// removed values.
func (h *Handler) checkFields(c *call, fields []Field) error {
	if h.fieldManager == nil {
		return nil
	}
	current, err := h.store.Fields(c.ctx(), c.issue.Repository)
	if err != nil {
		return err
	}
	if h.fieldSums.of(current) != h.fieldSums.of(fields) {
		return &fieldsChanged{fields: current}
	}
	return nil
}

// errUnchanged tells the store's Updater that a write leaves the values as
// they are, so there is nothing to store.
var errUnchanged = errors.New("the values stay as they are")

// update applies the write with the store's Updater, with the issue locked
// against other writers.
func (h *Handler) update(ctx context.Context, key IssueKey, apply func([]Value, Version) (commitResult, error)) (commitResult, error) {
	var result commitResult
	version, err := h.updater.Update(ctx, key, func(current []Value, version Version) ([]Value, error) {
		var err error
		if result, err = apply(current, version); err == nil && !result.changed {
			err = errUnchanged
		}
		return result.after, err
	})
	switch {
	case errors.Is(err, errUnchanged):
		return result, nil
	case err != nil:
		return commitResult{}, err
	}
	result.version = version
	return result, nil
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
