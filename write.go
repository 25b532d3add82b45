package issuefields

import (
	"errors"
	"fmt"
)

// The write sequence of add, set and delete: the handler decides the write on
// a Snapshot, and the store stores the result only if it still holds what
// that Snapshot shows (Store.UpdateIssue, a compare-and-set). When it does
// not, the handler reads a new Snapshot and decides again. The body is read
// once, after authorization, and never again.

// maxFreshSnapshots bounds the Snapshots that a write reads from the store:
// when the store has changed again before each of them could be written
// from, the write gives up with 503.
const maxFreshSnapshots = 4

// A write is one add, set or delete of an issue's values, from the request
// to the state it stored.
type write struct {
	action Action
	// owner, name and number are the issue as the path names it, and at
	// its place.
	owner, name string
	number      int64
	at          place
	// suffix is what follows the issue's path in a redirect (the field's ID
	// for a delete), and fieldID the field whose value a delete removes.
	suffix  string
	fieldID int64
	// items are the items of an add or set body; allowArrays is set for an
	// add, whose items may write multi_select fields.
	items       [][]byte
	allowArrays bool
	// snap is the Snapshot the write is decided on; kept is set when it is
	// one the handler kept, which may be stale, rather than one read for
	// this write. fresh counts the Snapshots read for this write.
	snap  Snapshot
	kept  bool
	fresh int
	// fieldsSum is the sum of the fields of snap.
	fieldsSum uint64
	// before and after are the values before and after the write, as it
	// was last decided, and version the version of after.
	before, after []Value
	version       Version
}

// errUnchanged tells that a write leaves the values as they are, so there is
// nothing to store.
var errUnchanged = errors.New("the values stay as they are")

// commit applies w to the values of the issue that c's path names and tells
// the notifier when something changed. Its steps:
//
//  1. issuePath identifies the caller and checks the kind of its token.
//  2. start takes a Snapshot and locates the issue in it (authorization,
//     redirects, the secondary rate limit once a request).
//  3. An add or a set reads its body, once.
//  4. The write takes its place's turn (writeturns.go).
//  5. settle decides the write on the newest Snapshot (decide, values.go)
//     and stores it with Store.UpdateIssue, deciding again on a fresh
//     Snapshot when the store has changed since; it keeps the Snapshot that
//     the write made (keptsnapshots.go).
//  6. The turn is given back, and the notifier hears of the change.
func (h *Handler) commit(c *call, w *write) error {
	var err error
	if w.owner, w.name, w.number, err = h.issuePath(c); err != nil {
		return err
	}
	w.at = placeOf(w.owner, w.name, w.number)
	if err := h.start(c, w); err != nil {
		return err
	}
	if w.action != ActionDeleted {
		if w.items, err = readItems(c.w, c.r, h.maxBodyBytes); err != nil {
			return err
		}
	}
	switch err := h.settleInTurn(c, w); {
	case errors.Is(err, errUnchanged):
		return nil
	case err != nil:
		return err
	}
	if h.notifier != nil {
		h.notify(c, w)
	}
	return nil
}

// start gives w the Snapshot it starts from, the one kept for its place or
// else a fresh one, and locates the issue in it. A refusal decided on a kept
// Snapshot is not final: start then reads a fresh one and locates again.
func (h *Handler) start(c *call, w *write) error {
	if w.snap, w.kept = h.kept.get(w.at); w.kept && h.locate(c, &w.snap, w.owner, w.name, w.number, w.suffix) == nil {
		return nil
	}
	return h.readFresh(c, w)
}

// readFresh gives w a Snapshot read from the store, and locates the issue in
// it. It refuses with 503 once the write has read maxFreshSnapshots.
func (h *Handler) readFresh(c *call, w *write) error {
	if w.fresh == maxFreshSnapshots {
		return fmt.Errorf("%w: could not commit the write after %d attempts", ErrUnavailable, w.fresh)
	}
	w.fresh++
	var err error
	if w.snap, err = h.store.Snapshot(c.ctx(), w.owner, w.name, w.number); err != nil {
		return err
	}
	w.kept = false
	return h.locate(c, &w.snap, w.owner, w.name, w.number, w.suffix)
}

// settleInTurn settles w with the turn of its place, which it gives back
// however settle ends, a panic included.
func (h *Handler) settleInTurn(c *call, w *write) error {
	tr, err := h.turns.take(c.ctx(), w.at)
	if err != nil {
		return err
	}
	defer h.turns.release(w.at, tr)
	return h.settle(c, w)
}

// settle decides w and stores what it decided, with the turn of its place.
// It first takes the Snapshot that another writer of this process kept while
// w waited, when it shows the repository as w's does. Each time the store has
// changed since the Snapshot, or a kept Snapshot refused the write, it reads
// a fresh Snapshot, locates the issue again and decides again; a refusal
// decided on a fresh Snapshot is final. The Snapshot that a stored write makes
// is kept for the place.
func (h *Handler) settle(c *call, w *write) error {
	if newer, ok := h.kept.get(w.at); ok && newer.Issue.Version != w.snap.Issue.Version && newer.Repository == w.snap.Repository {
		w.snap, w.kept = newer, true
	}
	for {
		next, err := h.decide(c, w)
		switch {
		case err == nil:
			if err = h.storeDecided(c, w, next); !errors.Is(err, ErrChanged) {
				return err
			}
			h.kept.forget(w.at)
		case !w.kept:
			return err
		}
		if err := h.readFresh(c, w); err != nil {
			return err
		}
	}
}

// storeDecided stores the issue of w.snap with values, which w decided on
// it, with one Store.UpdateIssue, and keeps the Snapshot that the write
// makes.
func (h *Handler) storeDecided(c *call, w *write, values []Value) error {
	next := w.snap.Issue
	next.Values = values
	version, err := h.store.UpdateIssue(c.ctx(), w.snap, next)
	if err != nil {
		return err
	}
	w.version, next.Version = version, version
	made := w.snap
	made.Issue = next
	h.kept.put(w.at, made)
	return nil
}
