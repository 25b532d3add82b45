package server

import (
	"encoding/json"
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"
)

// debugVars returns the issuefields counters of /debug/vars.
func debugVars(t *testing.T, url string) map[string]map[string]float64 {
	t.Helper()
	a := send(t, http.MethodGet, url+"/debug/vars", "", "")
	var vars struct {
		Cmdline     []string                      `json:"cmdline"`
		Memstats    map[string]any                `json:"memstats"`
		Issuefields map[string]map[string]float64 `json:"issuefields"`
	}
	if err := json.Unmarshal([]byte(a.body), &vars); a.status != http.StatusOK || err != nil {
		t.Fatalf("GET /debug/vars = %d (%v):\n%s", a.status, err, a.body)
	}
	if len(vars.Cmdline) == 0 || vars.Memstats == nil {
		t.Errorf("/debug/vars lacks expvar's cmdline and memstats:\n%s", a.body)
	}
	return vars.Issuefields
}

// TestDebugListener checks that -debug-addr serves profiles and counts
// requests by status class on a listener of its own, whatever -log-level
// says.
func TestDebugListener(t *testing.T) {
	s := startServer(t, "-debug-addr", "127.0.0.1:0", "-log-level", "warn")
	url, err := debugURL(s)
	if err != nil {
		t.Fatalf("%v:\n%s", err, strings.Join(s.message, "\n"))
	}
	if url == origin(s.base) {
		t.Fatalf("the debug listener is the API's own, %s", url)
	}
	list := s.base + "repos/octo-org/hello-world/issues/1/issue-field-values"
	for range 3 {
		do(t, http.MethodGet, list, "demo-reader-token", "")
	}
	do(t, http.MethodGet, s.base+"repos/octo-org/nope/issues/1/issue-field-values", "demo-reader-token", "")

	vars := debugVars(t, url)
	if got, want := vars["requests"], map[string]float64{"2xx": 3, "4xx": 1}; !maps.Equal(got, want) {
		t.Errorf("requests = %v, want %v", got, want)
	}
	if a := send(t, http.MethodGet, url+"/debug/pprof/", "", ""); a.status != http.StatusOK || !strings.Contains(a.body, "goroutine") {
		t.Errorf("GET /debug/pprof/ = %d, want 200 and the list of profiles", a.status)
	}
	if a := send(t, http.MethodGet, origin(s.base)+"/debug/vars", "", ""); a.status != http.StatusNotFound {
		t.Errorf("the API's listener answers /debug/vars with %d, want 404", a.status)
	}
}

// TestDebugListenerShowsWebhookCounts checks that the counters include the
// deliveries, with or without -webhook, since hooks may be created through
// the API: here a hook that -webhook creates gets one failed delivery.
func TestDebugListenerShowsWebhookCounts(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		failed float64
	}{
		{nil, 0},
		{[]string{"-webhook", "http://127.0.0.1:1/hook", "-webhook-secret", "s"}, 1},
	} {
		s := startServer(t, append([]string{"-debug-addr", "127.0.0.1:0"}, tc.args...)...)
		url, err := debugURL(s)
		if err != nil {
			t.Fatal(err)
		}
		write := s.base + "repos/octo-org/hello-world/issues/3/issue-field-values"
		if status, body := do(t, http.MethodPost, write, "demo-writer-token", `{"issue_field_values": [{"field_id": 2, "value": 1}]}`); status != http.StatusOK {
			t.Fatalf("%q: POST = %d %s", tc.args, status, body)
		}
		var hook map[string]float64
		for deadline := time.Now().Add(deliveryBound); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if hook = debugVars(t, url)["webhook"]; hook["Failed"] >= tc.failed && hook["Queued"] == 0 {
				break
			}
		}
		want := map[string]float64{"Delivered": 0, "Failed": tc.failed, "Dropped": 0, "Abandoned": 0, "Queued": 0}
		if !maps.Equal(hook, want) {
			t.Errorf("%q: /debug/vars webhook = %v, want %v", tc.args, hook, want)
		}
	}
}

func TestWithoutDebugAddrThereIsNoDebugListener(t *testing.T) {
	s := startServer(t)
	if _, err := debugURL(s); err == nil {
		t.Errorf("the start-up message names a debug listener without -debug-addr")
	}
}
