package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// deliveryBound bounds the wait for a webhook delivery. It guards against a
// delivery that never comes; nothing in the tests depends on speed.
const deliveryBound = 30 * time.Second

// A delivered is one delivery as a receiver got it.
type delivered struct {
	header http.Header
	body   []byte
}

// event returns the delivery's X-Service-Event header.
func (d delivered) event() string { return d.header.Get("X-Service-Event") }

// object decodes the delivery's body, a JSON object.
func (d delivered) object(t *testing.T) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(d.body, &v); err != nil {
		t.Fatalf("a delivery's body does not decode: %v\n%s", err, d.body)
	}
	return v
}

// startReceiver starts a webhook receiver that answers 204 to every delivery
// and sends each on the returned channel, which holds 100.
func startReceiver(t *testing.T) (url string, got <-chan delivered) {
	t.Helper()
	ch := make(chan delivered, 100)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("receiver: %v", err)
		}
		ch <- delivered{header: r.Header.Clone(), body: body}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rc.Close)
	return rc.URL, ch
}

// nextDelivery returns the next delivery of event that got, skipping the
// deliveries of other events (the ping of a new hook), or fails the test
// after deliveryBound.
func nextDelivery(t *testing.T, got <-chan delivered, event string) delivered {
	t.Helper()
	timeout := time.After(deliveryBound)
	for {
		select {
		case d := <-got:
			if d.event() == event {
				return d
			}
		case <-timeout:
			t.Fatalf("no %s delivery within %v", event, deliveryBound)
		}
	}
}

// member returns the value at the path of keys in the JSON object v, or nil.
func member(v any, keys ...string) any {
	for _, k := range keys {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}

// sendAs is send with the request's Host header set to host, and redirects
// not followed.
func sendAs(t *testing.T, host, method, url, token, body string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do1(t, req)
}

// createHook creates a hook at hooksURL (an organization's or a
// repository's .../hooks) that sends the issues event to receiver as JSON,
// with demo-writer-token, and returns the answer, which must be 201.
func createHook(t *testing.T, host, hooksURL, receiver string) answer {
	t.Helper()
	a := sendAs(t, host, http.MethodPost, hooksURL, "demo-writer-token",
		`{"name": "web", "events": ["issues"], "config": {"url": "`+receiver+`", "content_type": "json"}}`)
	if a.status != http.StatusCreated {
		t.Fatalf("POST %s = %d %s, want 201", hooksURL, a.status, a.body)
	}
	return a
}

// waitForDeliveries waits until the deliveries list at url (a hook's
// .../deliveries) has n deliveries, since a delivery is recorded after the
// receiver has answered, or fails the test after deliveryBound.
func waitForDeliveries(t *testing.T, url string, n int) []map[string]any {
	t.Helper()
	var list []map[string]any
	for deadline := time.Now().Add(deliveryBound); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		a := send(t, http.MethodGet, url, "demo-writer-token", "")
		if err := json.Unmarshal([]byte(a.body), &list); a.status != http.StatusOK || err != nil {
			t.Fatalf("GET %s = %d %s (%v)", url, a.status, a.body, err)
		}
		if len(list) >= n {
			return list
		}
	}
	t.Fatalf("GET %s lists %d deliveries after %v, want %d", url, len(list), deliveryBound, n)
	return nil
}
