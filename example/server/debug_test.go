package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
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

const listRoute = "GET /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values"

// TestDebugListener checks that -debug-addr serves profiles and counts
// requests by route and status, and the store's calls, on a listener of its
// own, even when the request lines are not logged.
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
	if got := vars["requests"][listRoute+" 200"]; got != 3 {
		t.Errorf("requests[%q] = %v, want 3; all: %v", listRoute+" 200", got, vars["requests"])
	}
	if got := vars["requests"][listRoute+" 404"]; got != 1 {
		t.Errorf("requests[%q] = %v, want 1; all: %v", listRoute+" 404", got, vars["requests"])
	}
	if calls, ns := vars["store_calls"]["Repository"], vars["store_nanoseconds"]["Repository"]; calls != 4 || ns <= 0 {
		t.Errorf("store Repository: %v calls in %v ns, want 4 calls taking some time", calls, ns)
	}
	if _, ok := vars["webhook"]; ok {
		t.Errorf("/debug/vars shows webhook counts without -webhook")
	}

	if a := send(t, http.MethodGet, url+"/debug/pprof/", "", ""); a.status != http.StatusOK || !strings.Contains(a.body, "goroutine") {
		t.Errorf("GET /debug/pprof/ = %d, want 200 and the list of profiles", a.status)
	}
	if a := send(t, http.MethodGet, origin(s.base)+"/debug/vars", "", ""); a.status != http.StatusNotFound {
		t.Errorf("the API's listener answers /debug/vars with %d, want 404", a.status)
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	if logs := s.logs.String(); strings.Contains(logs, "msg=request") {
		t.Errorf("-log-level warn logged a request line with -debug-addr:\n%s", logs)
	}
}

// TestDebugListenerCountsLoggedRequestLines checks that at the default log
// level -debug-addr both counts the request lines and logs each once.
func TestDebugListenerCountsLoggedRequestLines(t *testing.T) {
	s := startServer(t, "-debug-addr", "127.0.0.1:0")
	url, err := debugURL(s)
	if err != nil {
		t.Fatalf("%v:\n%s", err, strings.Join(s.message, "\n"))
	}
	for range 2 {
		do(t, http.MethodGet, s.base+"repos/octo-org/hello-world/issues/1/issue-field-values", "demo-reader-token", "")
	}
	if got := debugVars(t, url)["requests"][listRoute+" 200"]; got != 2 {
		t.Errorf("requests[%q] = %v, want 2", listRoute+" 200", got)
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(s.logs.String(), `msg=request request_id=`); n != 2 {
		t.Errorf("%d request lines logged, want 2:\n%s", n, s.logs.String())
	}
}

// TestDebugListenerShowsWebhookCounts checks that with -webhook the
// counters include the deliveries.
func TestDebugListenerShowsWebhookCounts(t *testing.T) {
	s := startServer(t, "-debug-addr", "127.0.0.1:0", "-webhook", "http://127.0.0.1:1/hook", "-webhook-secret", "s")
	url, err := debugURL(s)
	if err != nil {
		t.Fatal(err)
	}
	hook := debugVars(t, url)["webhook"]
	for _, key := range []string{"Delivered", "Failed", "Dropped", "Abandoned", "Queued"} {
		if _, ok := hook[key]; !ok {
			t.Errorf("/debug/vars has no webhook %s with -webhook: %v", key, hook)
		}
	}
}

func TestWithoutDebugAddrThereIsNoDebugListener(t *testing.T) {
	s := startServer(t)
	if _, err := debugURL(s); err == nil {
		t.Errorf("the start-up message names a debug listener without -debug-addr")
	}
}
