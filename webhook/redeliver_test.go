package webhook_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/issuefields/issuefields/webhook"
)

// TestRedeliver checks that a redelivery sends the recorded payload again,
// with its GUID, to the hook as it is now: its current URL, content type
// and secret; and that it is recorded as a redelivery.
func TestRedeliver(t *testing.T) {
	tests := []struct {
		name     string
		from, to webhook.Config // the hook's config when delivered, and since
	}{
		{
			name: "json, then form with another secret",
			from: webhook.Config{ContentType: "json", Secret: "first", InsecureSSL: "0"},
			to:   webhook.Config{ContentType: "form", Secret: "second", InsecureSSL: "0"},
		},
		{
			name: "form, then json without a secret",
			from: webhook.Config{ContentType: "form", Secret: "first", InsecureSSL: "0"},
			to:   webhook.Config{ContentType: "json", InsecureSSL: "0"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			old, current := newReceiver(t, nil), newReceiver(t, nil)
			h := w.addHook(t, orgScope("octo-org"), old.URL, func(h *webhook.Hook) {
				url := h.Config.URL
				h.Config = tt.from
				h.Config.URL = url
			})
			n := newNotifier(t, webhook.Options{Store: w.hooks})
			notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("needs triage")))
			first := old.next(t)
			recorded := w.hooks.waitRecorded(t, 1)[0]
			d, err := w.hooks.Delivery(context.Background(), h.ID, recorded.ID)
			if err != nil {
				t.Fatal(err)
			}
			h, err = w.hooks.UpdateHook(context.Background(), h.Scope, h.ID, func(h webhook.Hook) (webhook.Hook, error) {
				h.Config = tt.to
				h.Config.URL = current.URL
				return h, nil
			})
			if err != nil {
				t.Fatal(err)
			}

			if err := n.Redeliver(h, d); err != nil {
				t.Fatalf("Redeliver: %v", err)
			}
			again := current.next(t)
			redelivered := w.hooks.waitRecorded(t, 1)[0]
			if diff := cmp.Diff(first.payload(t), again.payload(t)); diff != "" {
				t.Errorf("the redelivered payload differs (-first +again):\n%s", diff)
			}
			if got, want := again.header.Get("X-Service-Delivery"), first.header.Get("X-Service-Delivery"); got != want {
				t.Errorf("the redelivery's GUID is %q, want %q, the delivery's", got, want)
			}
			wantType := map[string]string{"json": "application/json", "form": "application/x-www-form-urlencoded"}[tt.to.ContentType]
			if got := again.header.Get("Content-Type"); got != wantType {
				t.Errorf("the redelivery's Content-Type is %q, want %q, the hook's now", got, wantType)
			}
			checkSignatures(t, again, tt.to.Secret, "X-Service-", "X-Service-Signature-256", "X-Service-Signature")
			if !redelivered.Redelivery || redelivered.GUID != d.GUID || redelivered.URL != current.URL ||
				redelivered.Event != d.Event || redelivered.Action != d.Action || redelivered.RepositoryID != d.RepositoryID {
				t.Errorf("recorded %s, want a redelivery of %s to %s", brief(redelivered), brief(d), current.URL)
			}
			if extra := old.received(); len(extra) != 0 {
				t.Errorf("the hook's old URL got %d more requests, want none", len(extra))
			}
		})
	}
}
