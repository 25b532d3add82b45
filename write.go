package issuefields

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// The write sequence of an issue: the handler decides the write on a
// Snapshot, and the store stores the result only if it still holds what
// that Snapshot shows (Store.UpdateIssue, a compare-and-set). When it does
// not, the handler reads a new Snapshot and decides again. The body is read
// once, after authorization, and never again. The values routes' add, set
// and delete run it (commit), and so do a host's routes (Call.UpdateIssue,
// call.go), which decide with a function of their own.

// maxFreshSnapshots bounds the Snapshots that a write reads from the store:
// when the store has changed again before each of them could be written
// from, the write gives up with 503.
const maxFreshSnapshots = 4

// A write is one change of an issue, from the request to the state it
// stored: an add, a set or a delete of its values, or a host route's change.
type write struct {
	action Action
	// owner, name and number are the issue as the path names it, and at
	// its place.
	owner, name string
	number      int64
	at          place
	// fieldID is the field whose value a delete removes.
	fieldID int64
	// items are the items of an add or set body; allowArrays is set for an
	// add, whose items may write multi_select fields.
	items       [][]byte
	allowArrays bool
	// change decides a host route's write (Call.UpdateIssue); it is nil for
	// the values routes, whose writes decideValues decides.
	change func(Snapshot) (Issue, error)
	// snap is the Snapshot the write is decided on; kept is set when it is
	// one the handler kept, which may be stale, rather than one read for
	// this write. fresh counts the Snapshots read for this write.
	snap  Snapshot
	kept  bool
	fresh int
	// fieldsSum is the sum of the fields of snap.
	fieldsSum uint64
	// before and after are the values that the fields show before and
	// after the write, as it was last decided, and stored the issue as the
	// write left it, with its version.
	before, after []Value
	stored        Issue
}

// errUnchanged tells that a write leaves the issue as it is, so there is
// nothing to store.
var errUnchanged = errors.New("the issue stays as it is")

// commit applies w to the values of the issue that c's path names and tells
// the notifier when something changed. Its steps:
//
//  1. issuePath identifies the caller and checks the kind of its token.
//  2. start takes a Snapshot and locates the issue in it (authorization,
//     redirects, the secondary rate limit once a request).
//  3. An add or a set reads its body, once.
//  4. The write takes its place's turn (writeturns.go).
//  5. settle decides the write on the newest Snapshot (decide) and stores
//     it with Store.UpdateIssue, deciding again on a fresh Snapshot when
//     the store has changed since; it keeps the Snapshot that the write
//     made (keptsnapshots.go).
//  6. The turn is given back, and the notifier hears of the change.
//
// Call.UpdateIssue runs steps 2, 4, 5 and 6 for a host's route.
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
	return h.settleAndNotify(c, w)
}

// settleAndNotify settles w in its turn, and tells the notifier when the
// values changed.
func (h *Handler) settleAndNotify(c *call, w *write) error {
	switch err := h.settleInTurn(c, w); {
	case errors.Is(err, errUnchanged):
		return nil
	case err != nil:
		return err
	}
	if h.notifier != nil && !sameValues(w.before, w.after) {
		h.notify(c, w)
	}
	return nil
}

// start gives w the Snapshot it starts from, the one kept for its place or
// else a fresh one, and locates the issue in it. A refusal decided on a kept
// Snapshot is not final: start then reads a fresh one and locates again.
func (h *Handler) start(c *call, w *write) error {
	if w.snap, w.kept = h.kept.get(w.at); w.kept && h.locate(c, &w.snap, w.owner, w.name, w.number) == nil {
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
	return h.locate(c, &w.snap, w.owner, w.name, w.number)
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
		err := h.decide(c, w)
		switch {
		case err == nil:
			if err = h.storeDecided(c, w); !errors.Is(err, ErrChanged) {
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

// decide decides w on w.snap: it sets w.before, w.after and w.stored, the
// issue to store, or returns the error that refuses the write (errUnchanged
// when the issue stays as it is). The write works on the values that the
// fields show: a value of a field or an option that is gone no longer
// counts, and is not kept. A change of the issue's content gives it
// UpdatedAt now, whatever the route's change said of it.
func (h *Handler) decide(c *call, w *write) error {
	w.fieldsSum = h.fieldSums.of(w.snap.Fields)
	w.before = shownValues(w.snap.Issue.Values, w.snap.Fields)
	if w.change == nil {
		return h.decideValues(c, w)
	}
	shown := w.snap
	shown.Issue.Values = w.before
	next, err := w.change(shown)
	if err != nil {
		return err
	}
	if h.ifMatchFails(c, w) {
		return errPreconditionFailed
	}
	next.Repository, next.Number, next.ID, next.Version = shown.Issue.Repository, shown.Issue.Number, shown.Issue.ID, shown.Issue.Version
	next.UpdatedAt = shown.Issue.UpdatedAt
	w.after, w.stored = next.Values, next
	if sameContent(&shown.Issue, &next) {
		return errUnchanged
	}
	w.stored.UpdatedAt = now()
	return nil
}

// ifMatchFails reports whether the request of c has an If-Match that does
// not name the ETag of w.snap, so that a client can read, modify and write
// back without losing a concurrent change.
func (h *Handler) ifMatchFails(c *call, w *write) bool {
	ifMatch := headerList(c.r, "If-Match")
	return ifMatch != "" && !etagListMatches(ifMatch, formatETag(etagSumOf(w.snap.Issue.Key(), w.snap.Issue.Version, w.fieldsSum)), false)
}

// storeDecided stores w.stored, which w decided on w.snap, with one
// Store.UpdateIssue, and keeps the Snapshot that the write makes.
func (h *Handler) storeDecided(c *call, w *write) error {
	version, err := h.store.UpdateIssue(c.ctx(), w.snap, w.stored)
	if err != nil {
		return err
	}
	w.stored.Version = version
	made := w.snap
	made.Issue = w.stored
	h.kept.put(w.at, made)
	return nil
}

// now returns the time of a change as an issue records it: in UTC, to the
// second.
func now() time.Time { return time.Now().UTC().Truncate(time.Second) }

// sameContent reports whether a and b have the same content (see Issue),
// UpdatedAt aside.
func sameContent(a, b *Issue) bool {
	return a.Title == b.Title && a.Body == b.Body && a.State == b.State && a.StateReason == b.StateReason &&
		slices.Equal(a.Labels, b.Labels) && slices.Equal(a.Assignees, b.Assignees) && a.Author == b.Author &&
		a.CreatedAt.Equal(b.CreatedAt) && a.ClosedAt.Equal(b.ClosedAt) && sameValues(a.Values, b.Values)
}
