package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// TestWebhookDelivery runs the server with -webhook and checks that a write
// reaches the receiver as one signed event, and that a graceful stop drains
// the queue first.
func TestWebhookDelivery(t *testing.T) {
	const secret = "example-secret"
	received := make(chan issuefields.Event, 10)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !webhook.Verify([]byte(secret), body, r.Header.Get("X-Service-Signature-256")) {
			t.Errorf("delivery with a bad signature %q", r.Header.Get("X-Service-Signature-256"))
		}
		var e issuefields.Event
		if err := json.Unmarshal(body, &e); err != nil {
			t.Errorf("delivery is not an event: %v\n%s", err, body)
		}
		received <- e
	}))
	defer receiver.Close()

	s := startServer(t, "-webhook", receiver.URL, "-webhook-secret", secret)
	url := s.base + "repos/octo-org/roadmap/issues/2/issue-field-values"
	if status, body := do(t, http.MethodPost, url, "demo-writer-token", `{"issue_field_values": [{"field_id": 2, "value": 8}]}`); status != http.StatusOK {
		t.Fatalf("POST = %d %s", status, body)
	}
	if err := s.stop(); err != nil {
		t.Fatalf("graceful stop: %v", err)
	}
	close(received)
	var events []issuefields.Event
	for e := range received {
		events = append(events, e)
	}
	if len(events) != 1 {
		t.Fatalf("receiver got %d events, want 1: %+v", len(events), events)
	}
	e := events[0]
	if e.Action != issuefields.ActionAdded || e.Repository.Name != "roadmap" || e.IssueNumber != 2 ||
		e.Actor.Login != "octocat" || len(e.Changes) != 1 || e.Changes[0].Before != nil || e.Changes[0].After == nil {
		t.Errorf("event = %+v, want octocat's add of one value to roadmap#2", e)
	}
}

// TestEventsLoggedWithoutWebhook checks that without -webhook each event
// becomes a log line.
func TestEventsLoggedWithoutWebhook(t *testing.T) {
	s := startServer(t)
	url := s.base + "repos/octo-org/roadmap/issues/2/issue-field-values"
	if status, body := do(t, http.MethodPost, url, "demo-writer-token", `{"issue_field_values": [{"field_id": 2, "value": 8}]}`); status != http.StatusOK {
		t.Fatalf("POST = %d %s", status, body)
	}
	if err := s.stop(); err != nil {
		t.Fatalf("graceful stop: %v", err)
	}
	if logs := s.logs.String(); !strings.Contains(logs, "msg=event") || !strings.Contains(logs, "action=added") || !strings.Contains(logs, "field_2.after=8") {
		t.Errorf("no event line in the logs:\n%s", logs)
	}
}
