package webhook_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// blockingReceiver is a receiver that holds every request until the test
// releases it, and tells of each one whose sender gave up meanwhile.
type blockingReceiver struct {
	*receiver
	release   chan struct{}
	cancelled chan struct{}
}

// newBlockingReceiver starts a blockingReceiver, which the end of the test
// releases.
func newBlockingReceiver(t *testing.T) *blockingReceiver {
	t.Helper()
	b := &blockingReceiver{release: make(chan struct{}), cancelled: make(chan struct{}, 1024)}
	b.receiver = newReceiver(t, func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-b.release:
		case <-r.Context().Done():
			b.cancelled <- struct{}{}
		}
	})
	t.Cleanup(b.free)
	return b
}

// free answers the requests held and those to come.
func (b *blockingReceiver) free() {
	select {
	case <-b.release:
	default:
		close(b.release)
	}
}

// awaitCancelled waits until the sender of n held requests has given up,
// or fails the test.
func (b *blockingReceiver) awaitCancelled(t *testing.T, n int) {
	t.Helper()
	for i := range n {
		select {
		case <-b.cancelled:
		case <-time.After(waitBound):
			t.Fatalf("after %v, the sender had given up %d of the %d requests under way, want all", waitBound, i, n)
		}
	}
}

// resetWithin runs n.Reset, or fails the test when it does not return
// within waitBound.
func resetWithin(t *testing.T, n *webhook.Notifier) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		n.Reset()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(waitBound):
		t.Fatalf("Reset did not return within %v", waitBound)
	}
}

// droppedAtReset sums the counts of the log lines about events dropped by a
// reset.
func droppedAtReset(log *logRecorder) int {
	total := 0
	for _, line := range log.withMessage("webhook: dropped events") {
		if line["reason"] == "reset" {
			total += int(line["count"].(float64))
		}
	}
	return total
}

// TestResetDropsTheOldDeliveries checks that Reset cancels the delivery
// under way and drops those queued: none of them is sent or recorded after
// it, each is counted as dropped and logged with the reason "reset", and an
// event given after it is delivered.
func TestResetDropsTheOldDeliveries(t *testing.T) {
	const events = 5
	w := newWorld(t)
	rc := newBlockingReceiver(t)
	h := w.addHook(t, orgScope("octo-org"), rc.URL)
	log, logger := newLogRecorder()
	n := newNotifier(t, webhook.Options{Store: w.hooks, Workers: 1, Logger: logger})
	for range events {
		notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("before the reset")))
	}
	rc.next(t) // the first is under way, the others queued
	resetWithin(t, n)
	rc.awaitCancelled(t, 1)
	if got, want := n.Stats(), (webhook.Stats{Dropped: events}); got != want {
		t.Errorf("after Reset, Stats() = %+v, want %+v", got, want)
	}
	if q := n.Queued(); q != 0 {
		t.Errorf("after Reset, %d jobs are queued, want none", q)
	}

	rc.free()
	notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("after the reset")))
	closeNotifier(t, n)
	got := rc.received()
	if len(got) != 1 || member(got[0].payload(t), "issue_field_value", "value") != "after the reset" {
		t.Errorf("after Reset, the receiver got %d requests, want the one event given after it", len(got))
	}
	if ds := deliveriesOf(t, w, h.ID); len(ds) != 1 || ds[0].StatusCode != http.StatusOK {
		t.Errorf("recorded %s, want only the delivery of the event given after Reset", brief(ds...))
	}
	if got, want := n.Stats(), (webhook.Stats{Delivered: 1, Dropped: events}); got != want {
		t.Errorf("Stats() = %+v, want %+v", got, want)
	}
	if d := droppedAtReset(log); d != events {
		t.Errorf("the log counts %d events dropped by the reset, want %d", d, events)
	}
}

// blockedRecords is a Store whose AddDelivery waits until its context is
// cancelled, as a record does whose row a reset's transaction has locked:
// its time bound passing does not end the wait, which then lasts until the
// test ends.
type blockedRecords struct {
	*recordingStore
	waiting, testEnded chan struct{}
}

func (s blockedRecords) AddDelivery(ctx context.Context, d webhook.Delivery) (webhook.Delivery, error) {
	s.waiting <- struct{}{}
	<-ctx.Done()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		<-s.testEnded
	}
	return webhook.Delivery{}, ctx.Err()
}

// TestResetDoesNotWaitForAHeldRecord checks that Reset cancels a record
// that the Store holds up, as a reset that has locked the Store's tables
// would, rather than waiting for it.
func TestResetDoesNotWaitForAHeldRecord(t *testing.T) {
	w := newWorld(t)
	rc := newReceiver(t, nil)
	w.addHook(t, orgScope("octo-org"), rc.URL)
	store := blockedRecords{recordingStore: w.hooks, waiting: make(chan struct{}, 1), testEnded: make(chan struct{})}
	defer close(store.testEnded)
	n := newNotifier(t, webhook.Options{Store: store, Workers: 1})
	notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("before the reset")))
	select {
	case <-store.waiting:
	case <-time.After(waitBound):
		t.Fatalf("no record began within %v", waitBound)
	}
	resetWithin(t, n)
}

// epochs is a webhook.Epochs whose epoch the test moves, as a reset through
// another server would.
type epochs struct{ epoch atomic.Int64 }

func (e *epochs) Epoch(context.Context) (int64, error) { return e.epoch.Load(), nil }

// notifyIn gives n the event e of a write that the Store made in epoch.
func notifyIn(t *testing.T, n *webhook.Notifier, epoch int64, e issuefields.Event) {
	t.Helper()
	ctx := webhook.WithEpochMark(context.Background())
	webhook.MarkEpoch(ctx, epoch)
	if err := n.Notify(ctx, e); err != nil {
		t.Fatalf("Notify: %v", err)
	}
}

// TestAnotherServersReset checks, with Options.Epochs, that a reset through
// another server, which moves the Store's epoch, cancels the delivery under
// way without recording it and drops those queued; that the event of a
// write made before it is dropped even when given after it; and that the
// events of writes made after it, and one without a mark once the Notifier
// has seen the new epoch, are delivered.
func TestAnotherServersReset(t *testing.T) {
	w := newWorld(t)
	rc := newBlockingReceiver(t)
	h := w.addHook(t, orgScope("octo-org"), rc.URL)
	e := new(epochs)
	e.epoch.Store(3)
	n := newNotifier(t, webhook.Options{Store: w.hooks, Epochs: e, Workers: 1})
	for range 4 {
		notifyIn(t, n, 3, newEvent(w.helloWorld, 1, octocat, setNotes("before the reset")))
	}
	rc.next(t)

	e.epoch.Store(4)
	rc.awaitCancelled(t, 1)
	rc.free()
	notifyIn(t, n, 3, newEvent(w.helloWorld, 1, octocat, setNotes("before the reset, told after it")))
	notifyIn(t, n, 4, newEvent(w.helloWorld, 1, octocat, setNotes("after the reset")))
	notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("after the reset, without a mark")))
	closeNotifier(t, n)

	var values []any
	for _, r := range rc.received() {
		values = append(values, member(r.payload(t), "issue_field_value", "value"))
	}
	if len(values) != 2 || values[0] != "after the reset" || values[1] != "after the reset, without a mark" {
		t.Errorf("after the reset, the receiver got %v, want the two events of the writes after it", values)
	}
	if ds := deliveriesOf(t, w, h.ID); len(ds) != 2 {
		t.Errorf("recorded %s, want the two deliveries of the writes after the reset", brief(ds...))
	}
	if got, want := n.Stats(), (webhook.Stats{Delivered: 2, Dropped: 5}); got != want {
		t.Errorf("Stats() = %+v, want %+v", got, want)
	}
}

// TestEpochsAtTheStart checks that a Notifier made on a Store that has been
// reset before delivers the events of writes made since, marked or not.
func TestEpochsAtTheStart(t *testing.T) {
	w := newWorld(t)
	rc := newReceiver(t, nil)
	h := w.addHook(t, orgScope("octo-org"), rc.URL)
	e := new(epochs)
	e.epoch.Store(7)
	n := newNotifier(t, webhook.Options{Store: w.hooks, Epochs: e})
	notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("without a mark")))
	notifyIn(t, n, 7, newEvent(w.helloWorld, 1, octocat, setNotes("with a mark")))
	closeNotifier(t, n)
	if got, want := n.Stats(), (webhook.Stats{Delivered: 2}); got != want {
		t.Errorf("Stats() = %+v, want %+v", got, want)
	}
	if ds := deliveriesOf(t, w, h.ID); len(ds) != 2 {
		t.Errorf("recorded %s, want both deliveries", brief(ds...))
	}
}
