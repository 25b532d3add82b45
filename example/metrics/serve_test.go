package metrics

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestServeShowsCountsAtDebugVars checks that /debug/vars shows expvar's
// variables and, under "issuefields", the requests by status class and the
// webhook deliveries' counts.
func TestServeShowsCountsAtDebugVars(t *testing.T) {
	m, url := newTestMetrics(t, "")
	for _, status := range []int{http.StatusOK, http.StatusOK, http.StatusCreated, http.StatusNotFound} {
		serveCounted(m, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(status)
		}), http.MethodGet, "/healthz")
	}
	status, contentType, body := get(t, url+"/debug/vars")
	var vars struct {
		Cmdline     []string                      `json:"cmdline"`
		Memstats    map[string]any                `json:"memstats"`
		Issuefields map[string]map[string]float64 `json:"issuefields"`
	}
	if err := json.Unmarshal([]byte(body), &vars); status != http.StatusOK || contentType != "application/json; charset=utf-8" || err != nil {
		t.Fatalf("GET /debug/vars = %d %s (%v):\n%s", status, contentType, err, body)
	}
	if len(vars.Cmdline) == 0 || vars.Memstats == nil {
		t.Errorf("/debug/vars lacks expvar's cmdline and memstats:\n%s", body)
	}
	if got, want := vars.Issuefields["requests"], map[string]float64{"2xx": 3, "4xx": 1}; !maps.Equal(got, want) {
		t.Errorf("requests = %v, want %v", got, want)
	}
	want := map[string]float64{"Delivered": 0, "Failed": 0, "Dropped": 0, "Abandoned": 0, "Queued": 0}
	if got := vars.Issuefields["webhook"]; !maps.Equal(got, want) {
		t.Errorf("webhook = %v, want %v", got, want)
	}
}

// TestServeShowsProfiles checks that /debug/pprof/ lists Go's profiles.
func TestServeShowsProfiles(t *testing.T) {
	_, url := newTestMetrics(t, "")
	if status, _, body := get(t, url+"/debug/pprof/"); status != http.StatusOK || !strings.Contains(body, "goroutine") {
		t.Errorf("GET /debug/pprof/ = %d, want 200 and the list of profiles", status)
	}
}

// TestServeRefusesAnAddressInUse checks that Serve returns the error of
// listening on an address that another listener holds.
func TestServeRefusesAnAddressInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, _, err := Serve(ln.Addr().String(), New("", newHooks(t)), nil); err == nil {
		t.Errorf("Serve(%s), an address in use, = nil error", ln.Addr())
	}
}

// TestServeClosesAtOnce checks that the listener is gone once Serve's close
// function returns.
func TestServeClosesAtOnce(t *testing.T) {
	url, closeFn, err := Serve("127.0.0.1:0", New("", newHooks(t)), nil)
	if err != nil {
		t.Fatal(err)
	}
	closeFn()
	ctx, cancel := context.WithTimeout(context.Background(), requestBound)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/metrics", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("GET /metrics after the close = %d, want no answer", resp.StatusCode)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("GET /metrics after the close got no answer within %v, want the connection refused", requestBound)
	}
}
