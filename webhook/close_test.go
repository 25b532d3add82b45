package webhook_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// closeWithin runs n.Close(ctx) and returns its error, or fails the test
// when Close does not return within waitBound.
func closeWithin(t *testing.T, n *webhook.Notifier, ctx context.Context) error {
	t.Helper()
	closed := make(chan error, 1)
	go func() { closed <- n.Close(ctx) }()
	select {
	case err := <-closed:
		return err
	case <-time.After(waitBound):
		t.Fatalf("Close did not return within %v", waitBound)
		return nil
	}
}

// TestCloseDeliversWhatIsQueued checks that Close waits for the events
// queued before it, and that every one is delivered.
func TestCloseDeliversWhatIsQueued(t *testing.T) {
	const events = 10
	w := newWorld(t)
	release := make(chan struct{})
	rc := newReceiver(t, func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	h := w.addHook(t, orgScope("octo-org"), rc.URL)
	n := newNotifier(t, webhook.Options{Store: w.hooks, Workers: 1})
	for range events {
		notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("needs triage")))
	}
	rc.next(t) // the first delivery is under way, the others queued
	ctx, cancel := context.WithTimeout(context.Background(), waitBound)
	defer cancel()
	closed := make(chan error, 1)
	go func() { closed <- n.Close(ctx) }()
	close(release)
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("Close: %v", err)
		}
	case <-time.After(waitBound):
		t.Fatalf("Close did not return within %v", waitBound)
	}
	if got, want := n.Stats(), (webhook.Stats{Delivered: events}); got != want {
		t.Errorf("Stats() = %+v, want %+v", got, want)
	}
	if got := len(deliveriesOf(t, w, h.ID)); got != events {
		t.Errorf("recorded %d deliveries, want %d", got, events)
	}
}

// TestCloseGivesUp checks that Close with a context that has ended stops
// the delivery under way, gives up on the queued events, and counts and
// logs every one of them.
func TestCloseGivesUp(t *testing.T) {
	const events = 6
	w := newWorld(t)
	rc := newHangingReceiver(t)
	h := w.addHook(t, orgScope("octo-org"), rc.URL)
	log, logger := newLogRecorder()
	n := newNotifier(t, webhook.Options{Store: w.hooks, Workers: 1, Logger: logger})
	for range events {
		notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("needs triage")))
	}
	rc.next(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := closeWithin(t, n, ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Close = %v, want %v", err, context.Canceled)
	}
	s := n.Stats()
	if s != (webhook.Stats{Abandoned: events}) || s.Delivered+s.Failed+s.Dropped+s.Abandoned != events {
		t.Errorf("Stats() = %+v, want the %d events abandoned", s, events)
	}
	lines := log.withMessage("webhook: not sent before the server stopped")
	if len(lines) != 1 || lines[0]["abandoned"] != float64(events) {
		t.Errorf("logged %v, want one line with abandoned=%d", lines, events)
	}
	ds := deliveriesOf(t, w, h.ID)
	if len(ds) != 1 || ds[0].Status != "not answered before the server stopped" || ds[0].StatusCode != 0 {
		t.Errorf("recorded %s, want the one delivery under way, not answered", brief(ds...))
	}
}

// TestCloseGivesUpOnTheRestOfAnEvent checks that once Close has given up,
// the hooks that an event under way has not reached yet get nothing, and no
// record of a delivery that was never sent.
func TestCloseGivesUpOnTheRestOfAnEvent(t *testing.T) {
	w := newWorld(t)
	first, second := newHangingReceiver(t), newReceiver(t, nil)
	w.addHook(t, orgScope("octo-org"), first.URL)
	later := w.addHook(t, repoScope(w.helloWorld), second.URL)
	n := newNotifier(t, webhook.Options{Store: w.hooks, Workers: 1})
	notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("needs triage")))
	first.next(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_ = closeWithin(t, n, ctx)
	if got := second.received(); len(got) != 0 {
		t.Errorf("the hook not reached yet got %d requests, want none", len(got))
	}
	if ds := deliveriesOf(t, w, later.ID); len(ds) != 0 {
		t.Errorf("recorded %s for the hook not reached yet, want nothing", brief(ds...))
	}
	if got, want := n.Stats(), (webhook.Stats{Abandoned: 2}); got != want {
		t.Errorf("Stats() = %+v, want %+v: both deliveries abandoned", got, want)
	}
}

// TestClosedNotifier checks that a closed Notifier queues nothing, and that
// Close may be called again.
func TestClosedNotifier(t *testing.T) {
	w := newWorld(t)
	rc := newReceiver(t, nil)
	h := w.addHook(t, orgScope("octo-org"), rc.URL)
	n := newNotifier(t, webhook.Options{Store: w.hooks})
	closeNotifier(t, n)
	d := webhook.Delivery{HookID: h.ID, GUID: "0b989ba4-242f-11e5-81e1-c7b6966d2516", Event: "ping",
		Request: webhook.Message{Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"zen":"Hi"}`)}}
	for name, err := range map[string]error{
		"Notify":      n.Notify(context.Background(), newEvent(w.helloWorld, 1, octocat, setNotes("late"))),
		"Ping":        n.Ping(h, nil, "octocat"),
		"Redeliver":   n.Redeliver(h, d),
		"Close again": n.Close(context.Background()),
	} {
		want := webhook.ErrClosed
		if name == "Close again" {
			want = nil
		}
		if !errors.Is(err, want) {
			t.Errorf("%s = %v, want %v", name, err, want)
		}
	}
	if got := rc.received(); len(got) != 0 {
		t.Errorf("the receiver got %d requests after Close, want none", len(got))
	}
}

// TestNotifyWithoutChanges checks that an event that changed no field sends
// nothing.
func TestNotifyWithoutChanges(t *testing.T) {
	w := newWorld(t)
	rc := newReceiver(t, nil)
	w.addHook(t, orgScope("octo-org"), rc.URL)
	n := newNotifier(t, webhook.Options{Store: w.hooks})
	notify(t, n, newEvent(w.helloWorld, 1, octocat))
	closeNotifier(t, n)
	if got := rc.received(); len(got) != 0 || n.Stats() != (webhook.Stats{}) {
		t.Errorf("got %d deliveries and Stats %+v, want none", len(got), n.Stats())
	}
}

// failingHooks is a Store whose HooksFor fails.
type failingHooks struct{ *recordingStore }

func (failingHooks) HooksFor(context.Context, issuefields.Repository) ([]webhook.Hook, error) {
	return nil, errors.New("the database is down")
}

// TestHooksUnreadable checks that an event whose hooks cannot be read is
// counted as failed, and logged.
func TestHooksUnreadable(t *testing.T) {
	w := newWorld(t)
	log, logger := newLogRecorder()
	n := newNotifier(t, webhook.Options{Store: failingHooks{w.hooks}, Logger: logger})
	notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("needs triage")))
	closeNotifier(t, n)
	if got, want := n.Stats(), (webhook.Stats{Failed: 1}); got != want {
		t.Errorf("Stats() = %+v, want %+v", got, want)
	}
	if lines := log.withMessage("webhook: cannot read the hooks of the event's repository"); len(lines) != 1 {
		t.Errorf("logged %d lines about the hooks, want 1", len(lines))
	}
}
