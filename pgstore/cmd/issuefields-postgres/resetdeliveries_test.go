package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A holdingReceiver holds the issues deliveries it gets until the test
// lets them go, and tells of each one by the value of the field in it: on
// cancelled when its sender gave up while it was held, on answered when it
// was answered.
type holdingReceiver struct {
	url                 string
	held                atomic.Int32
	letGo               chan struct{}
	free                func() // closes letGo
	cancelled, answered chan string
}

// newHoldingReceiver starts a holdingReceiver, which lets everything go at
// the end of the test.
func newHoldingReceiver(t *testing.T) *holdingReceiver {
	t.Helper()
	h := &holdingReceiver{letGo: make(chan struct{}), cancelled: make(chan string, 1000), answered: make(chan string, 1000)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var d struct {
			Value struct {
				Value string `json:"value"`
			} `json:"issue_field_value"`
		}
		if body, _ := io.ReadAll(r.Body); r.Header.Get("X-Service-Event") != "issues" || json.Unmarshal(body, &d) != nil {
			return
		}
		h.held.Add(1)
		select {
		case <-h.letGo:
			h.answered <- d.Value.Value
		case <-r.Context().Done():
			h.cancelled <- d.Value.Value
		}
	}))
	h.url = srv.URL
	h.free = sync.OnceFunc(func() { close(h.letGo) })
	t.Cleanup(func() {
		h.free()
		srv.Close()
	})
	return h
}

// next returns the next value that ch tells of, or fails the test after
// deliveryBound.
func next(t *testing.T, ch <-chan string, what string) string {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(deliveryBound):
		t.Fatalf("no delivery %s within %v", what, deliveryBound)
		return ""
	}
}

// TestResetStopsTheDeliveriesOfEveryServer writes 30 values through each of
// two servers that share a database, to a receiver that holds what it gets,
// and resets through the first: the deliveries under way on both servers
// are cancelled, none of those queued on either is sent, and the hook that
// the reset creates again records only the deliveries of the writes after
// the reset, which both servers deliver.
func TestResetStopsTheDeliveriesOfEveryServer(t *testing.T) {
	const writes = 30
	rc := newHoldingReceiver(t)
	dsn := newDatabase(t)
	args := []string{"-postgres", dsn, "-allow-reset", "-webhook", rc.url, "-webhook-secret", "s", "-write-limit", "0", "-write-limit-hourly", "0"}
	servers := []*running{start(t, args...), start(t, args...)}
	for i, r := range servers {
		for n := range writes {
			body := fmt.Sprintf(`{"issue_field_values": [{"field_id": 4, "value": "before the reset, server %d, %d"}]}`, i+1, n)
			if status, answer := do(t, http.MethodPost, valuesURL(r, "octo-org/hello-world", 3), "demo-writer-token", body); status != http.StatusOK {
				t.Fatalf("POST to server %d = %d %s", i+1, status, answer)
			}
		}
	}
	// Each server's four workers hold a delivery; the others are queued.
	for deadline := time.Now().Add(deliveryBound); rc.held.Load() < 8; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after %v, the receiver holds %d deliveries, want 8", deliveryBound, rc.held.Load())
		}
	}
	if status, body := do(t, http.MethodPost, servers[0].base+"_issuefields/reset", "", ""); status != http.StatusNoContent {
		t.Fatalf("POST /_issuefields/reset = %d %s, want 204", status, body)
	}
	for range 8 {
		next(t, rc.cancelled, "cancelled")
	}
	rc.free()

	for i, r := range servers {
		body := fmt.Sprintf(`{"issue_field_values": [{"field_id": 4, "value": "after the reset, server %d"}]}`, i+1)
		if status, answer := do(t, http.MethodPost, valuesURL(r, "octo-org/hello-world", 3), "demo-writer-token", body); status != http.StatusOK {
			t.Fatalf("POST to server %d after the reset = %d %s", i+1, status, answer)
		}
	}
	ids := hookIDs(t, servers[1])
	if len(ids) != 1 {
		t.Fatalf("after the reset, octo-org has the hooks %v, want the -webhook hook", ids)
	}
	var deliveries string
	for id := range ids {
		deliveries = servers[1].base + "orgs/octo-org/hooks/" + strconv.FormatInt(id, 10) + "/deliveries"
	}
	var list []struct {
		GUID string `json:"guid"`
	}
	for deadline := time.Now().Add(deliveryBound); len(list) < 2; time.Sleep(10 * time.Millisecond) {
		status, body := do(t, http.MethodGet, deliveries, "demo-writer-token", "")
		if err := json.Unmarshal([]byte(body), &list); status != http.StatusOK || err != nil || time.Now().After(deadline) {
			t.Fatalf("GET %s = %d %s, want the deliveries of the writes after the reset", deliveries, status, body)
		}
	}
	// A graceful stop sends what is still queued.
	for i, r := range servers {
		if err := r.stop(); err != nil {
			t.Fatalf("server %d: %v", i+1, err)
		}
	}
	close(rc.answered)
	var answered []string
	for v := range rc.answered {
		answered = append(answered, v)
	}
	if len(answered) != 2 || len(list) != 2 {
		t.Errorf("after the reset, the receiver got %q and the hook recorded %d deliveries, want the two writes after the reset", answered, len(list))
	}
}
