package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/issuefields/issuefields/webhook"
)

// delivery is what the test reads of a webhook delivery's body.
type delivery struct {
	Action string `json:"action"`
	Issue  struct {
		Number int64 `json:"number"`
	} `json:"issue"`
	Repository struct {
		FullName string `json:"full_name"`
		Private  bool   `json:"private"`
	} `json:"repository"`
	Sender struct {
		Login string `json:"login"`
	} `json:"sender"`
	IssueFieldValue *struct {
		Value any `json:"value"`
	} `json:"issue_field_value"`
}

// TestWebhookDelivery runs the server with -webhook and checks that a write
// of one value reaches the receiver as one signed issues delivery, and that
// a graceful stop drains the queue first.
func TestWebhookDelivery(t *testing.T) {
	const secret = "example-secret"
	received := make(chan delivery, 10)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !webhook.Verify([]byte(secret), body, r.Header.Get("X-Service-Signature-256")) {
			t.Errorf("delivery with a bad signature %q", r.Header.Get("X-Service-Signature-256"))
		}
		if got := r.Header.Get("X-Service-Event"); got != "issues" {
			t.Errorf("X-Service-Event = %q, want issues", got)
		}
		var d delivery
		if err := json.Unmarshal(body, &d); err != nil {
			t.Errorf("delivery does not decode: %v\n%s", err, body)
		}
		received <- d
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
	var deliveries []delivery
	for d := range received {
		deliveries = append(deliveries, d)
	}
	if len(deliveries) != 1 {
		t.Fatalf("receiver got %d deliveries, want 1: %+v", len(deliveries), deliveries)
	}
	d := deliveries[0]
	if d.Action != "field_added" || d.Issue.Number != 2 ||
		d.Repository.FullName != "octo-org/roadmap" || !d.Repository.Private || d.Sender.Login != "octocat" ||
		d.IssueFieldValue == nil || d.IssueFieldValue.Value != 8.0 {
		t.Errorf("delivery = %+v, want octocat's field_added of 8 on the private octo-org/roadmap#2", d)
	}
}

// TestEventsLoggedAtDebug checks that without -webhook each event becomes a
// log line at -log-level debug, and that the default level logs the request
// but no event.
func TestEventsLoggedAtDebug(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		wantEvent bool
	}{
		{[]string{"-log-level", "debug"}, true},
		{nil, false},
	} {
		s := startServer(t, tc.args...)
		url := s.base + "repos/octo-org/roadmap/issues/2/issue-field-values"
		if status, body := do(t, http.MethodPost, url, "demo-writer-token", `{"issue_field_values": [{"field_id": 2, "value": 8}]}`); status != http.StatusOK {
			t.Fatalf("%v: POST = %d %s", tc.args, status, body)
		}
		if err := s.stop(); err != nil {
			t.Fatalf("%v: graceful stop: %v", tc.args, err)
		}
		logs := s.logs.String()
		gotEvent := strings.Contains(logs, "msg=event")
		if tc.wantEvent && !(strings.Contains(logs, "level=DEBUG msg=event") && strings.Contains(logs, "action=added") &&
			strings.Contains(logs, "field_2.after=8")) || gotEvent != tc.wantEvent || !strings.Contains(logs, "msg=request") {
			t.Errorf("%v: event line logged: %v, want %v; request line wanted:\n%s", tc.args, gotEvent, tc.wantEvent, logs)
		}
	}
}
