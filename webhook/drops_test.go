package webhook_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/issuefields/issuefields/webhook"
)

// TestQueueFullDrops checks that events that find the queue full are
// dropped without an error to the writer, counted, and logged as a flood:
// a line with a count, not a line per event.
func TestQueueFullDrops(t *testing.T) {
	const (
		queue   = 2
		events  = 1000
		dropped = events - 1 - queue // one under way, queue waiting
	)
	w := newWorld(t)
	release := make(chan struct{})
	rc := newReceiver(t, func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	w.addHook(t, orgScope("octo-org"), rc.URL)
	log, logger := newLogRecorder()
	n := newNotifier(t, webhook.Options{Store: w.hooks, Workers: 1, QueueSize: queue, Logger: logger})
	notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("first")))
	rc.next(t) // the one worker is busy
	for range events - 1 {
		notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("more")))
	}
	if got := n.Queued(); got != queue {
		t.Errorf("Queued() = %d, want %d", got, queue)
	}
	if got := n.Stats().Dropped; got != dropped {
		t.Errorf("Stats().Dropped = %d, want %d", got, dropped)
	}
	close(release)
	closeNotifier(t, n)

	s := n.Stats()
	if s != (webhook.Stats{Delivered: 1 + queue, Dropped: dropped}) || s.Delivered+s.Failed+s.Dropped+s.Abandoned != events {
		t.Errorf("Stats() = %+v, want %d delivered and %d dropped, %d in all", s, 1+queue, dropped, events)
	}
	lines := log.withMessage("webhook: dropped events")
	var logged float64
	for _, line := range lines {
		logged += line["count"].(float64)
		if line["reason"] != "the queue is full" {
			t.Errorf("a line about dropped events gives the reason %v, want the queue is full", line["reason"])
		}
	}
	if len(lines) > 2 || logged != dropped {
		t.Errorf("logged %d lines about dropped events with the counts adding up to %v; want at most 2 (the first drop, then the rest at Close) adding up to %d",
			len(lines), logged, dropped)
	}
}

// TestNewChecksOptions checks that New refuses options it cannot work with,
// and names what is wrong.
func TestNewChecksOptions(t *testing.T) {
	store := newWorld(t).hooks
	tests := []struct {
		name string
		opts webhook.Options
		want string // in the error
	}{
		{"no store", webhook.Options{}, "Options.Store"},
		{"a vendor with a dash", webhook.Options{Store: store, Vendor: "Git-Hub"}, "Options.Vendor"},
		{"a negative timeout", webhook.Options{Store: store, Timeout: -1}, "Options.Timeout"},
		{"a negative queue", webhook.Options{Store: store, QueueSize: -1}, "Options.QueueSize"},
		{"a relative base URL", webhook.Options{Store: store, BaseURL: "/api/v3"}, "Options.BaseURL"},
		{"a web URL of another scheme", webhook.Options{Store: store, WebURL: "ftp://example.test"}, "Options.WebURL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := webhook.New(tt.opts)
			if err == nil {
				_ = n.Close(context.Background())
				t.Fatalf("New succeeded, want an error naming %s", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New: %v, want an error naming %s", err, tt.want)
			}
		})
	}
}
