package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// deliveryBound bounds the wait for a webhook delivery. It guards against a
// delivery that never comes; nothing in the tests depends on speed.
const deliveryBound = 30 * time.Second

// startReceiver starts a webhook receiver that answers 204 and sends the body
// of each issues delivery on the returned channel.
func startReceiver(t *testing.T) (url string, issues <-chan []byte) {
	t.Helper()
	ch := make(chan []byte, 100)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("receiver: %v", err)
		}
		if r.Header.Get("X-Service-Event") == "issues" {
			ch <- body
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rc.Close)
	return rc.URL, ch
}

// issueURL returns the issue.url of a delivery's body.
func issueURL(t *testing.T, body []byte) string {
	t.Helper()
	var d struct {
		Issue struct {
			URL string `json:"url"`
		} `json:"issue"`
	}
	if err := json.Unmarshal(body, &d); err != nil {
		t.Fatalf("a delivery does not decode: %v\n%s", err, body)
	}
	return d.Issue.URL
}

// hooksFreshFor is how long a pgstore server may go on using the hooks it
// read, as pgstore.Store.HooksFor documents: a second, and a margin.
const hooksFreshFor = 1100 * time.Millisecond

// TestServersShareHooks starts two servers on one database, creates an
// organization hook through the first and writes through each: the hook gets
// the events of both servers' writes (each delivery's URLs are under the
// server that made it), and both servers list the same deliveries. The
// second server writes once before the hook exists, so it has read that
// there is none; it delivers to the new hook once that read is older than
// a second.
func TestServersShareHooks(t *testing.T) {
	dsn := newDatabase(t)
	receiver, issues := startReceiver(t)
	servers := []*running{start(t, "-postgres", dsn), start(t, "-postgres", dsn)}
	before := `{"issue_field_values": [{"field_id": 2, "value": 9}]}`
	if status, body := do(t, http.MethodPost, valuesURL(servers[1], "octo-org/hello-world", 3), "demo-writer-token", before); status != http.StatusOK {
		t.Fatalf("POST to server 2 = %d %s", status, body)
	}

	status, body := do(t, http.MethodPost, servers[0].base+"orgs/octo-org/hooks", "demo-writer-token",
		`{"name": "web", "events": ["issues"], "config": {"url": "`+receiver+`", "content_type": "json"}}`)
	var hook struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal([]byte(body), &hook); status != http.StatusCreated || err != nil {
		t.Fatalf("POST orgs/octo-org/hooks to server 1 = %d %s, want 201", status, body)
	}
	time.Sleep(hooksFreshFor)
	for _, i := range []int{1, 0} {
		r := servers[i]
		write := `{"issue_field_values": [{"field_id": 2, "value": ` + strconv.Itoa(10+i) + `}]}`
		if status, body := do(t, http.MethodPost, valuesURL(r, "octo-org/hello-world", 3), "demo-writer-token", write); status != http.StatusOK {
			t.Fatalf("POST to server %d = %d %s", i+1, status, body)
		}
		select {
		case d := <-issues:
			if want := r.base + "repos/octo-org/hello-world/issues/3"; issueURL(t, d) != want {
				t.Errorf("the delivery of a write to server %d has issue.url %s, want %s", i+1, issueURL(t, d), want)
			}
		case <-time.After(deliveryBound):
			t.Fatalf("no delivery of the write to server %d within %v", i+1, deliveryBound)
		}
	}

	// The ping and the two writes, recorded once the receiver answered.
	path := "orgs/octo-org/hooks/" + strconv.FormatInt(hook.ID, 10) + "/deliveries"
	var lists [2]string
	for deadline := time.Now().Add(deliveryBound); ; time.Sleep(20 * time.Millisecond) {
		for i, r := range servers {
			status, body := do(t, http.MethodGet, r.base+path, "demo-writer-token", "")
			if status != http.StatusOK {
				t.Fatalf("GET %s from server %d = %d %s", path, i+1, status, body)
			}
			lists[i] = body
		}
		if strings.Count(lists[0], `"guid"`) == 3 && lists[0] == lists[1] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v, the servers list the hook's deliveries as\n%s\nand\n%s\nwant the same three", deliveryBound, lists[0], lists[1])
		}
	}
}

// TestWebhookFlagOnSeveralServers starts four servers with -webhook at once
// on a new database, and then one more: between them they leave one
// organization hook.
func TestWebhookFlagOnSeveralServers(t *testing.T) {
	dsn := newDatabase(t)
	args := []string{"-postgres", dsn, "-webhook", "http://127.0.0.1:1/hook", "-webhook-secret", "s"}
	servers := make([]*running, 4)
	for i := range servers {
		servers[i] = launch(t, args...)
	}
	for _, r := range servers {
		r.await(t)
	}
	for _, r := range append(servers, start(t, args...)) {
		status, body := do(t, http.MethodGet, r.base+"orgs/octo-org/hooks", "demo-writer-token", "")
		if status != http.StatusOK || strings.Count(body, `"id":`) != 1 {
			t.Errorf("GET orgs/octo-org/hooks = %d %s, want one hook", status, body)
		}
	}
}
