package server

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// TestNoSniffOnEveryAnswer checks that every answer of the server, the API's
// and everything beside it on both listeners, carries X-Content-Type-Options:
// nosniff, as GitHub's answers do.
func TestNoSniffOnEveryAnswer(t *testing.T) {
	s := startServer(t, "-prefix", "/api/v3", "-debug-addr", "127.0.0.1:0")
	debug, err := debugURL(s)
	if err != nil {
		t.Fatal(err)
	}
	o := origin(s.base)
	check := func(what string, a answer, status int) {
		t.Helper()
		if got := a.header["X-Content-Type-Options"]; a.status != status || len(got) != 1 || got[0] != "nosniff" {
			t.Errorf("%s: %d with X-Content-Type-Options %q, want %d with nosniff", what, a.status, got, status)
		}
	}
	for _, rq := range []struct {
		what, method, url, token string
		status                   int
	}{
		{"the API", "GET", s.base + "repos/octo-org/hello-world/issues/1/issue-field-values", "demo-reader-token", 200},
		{"the API's 404", "GET", s.base + "no/such/route", "demo-reader-token", 404},
		{"the hooks' routes", "GET", s.base + "orgs/octo-org/hooks", "", 401},
		{"a path outside the prefix", "GET", o + "/nowhere", "", 404},
		{"the health endpoint", "GET", o + "/healthz", "", 200},
		{"the readiness endpoint", "HEAD", o + "/readyz", "", 200},
		{"the page", "GET", o + "/_issuefields/", "", 200},
		{"the page's script", "GET", o + "/_issuefields/page.js", "", 200},
		{"the recorded requests", "GET", o + "/_issuefields/requests", "", 200},
		{"the reset", "POST", o + "/_issuefields/reset", "", 204},
		{"a tool that is not there", "GET", o + "/_issuefields/nowhere", "", 404},
		{"the metrics", "GET", debug + "/metrics", "", 200},
		{"the counters", "GET", debug + "/debug/vars", "", 200},
	} {
		check(rq.what, send(t, rq.method, rq.url, rq.token, ""), rq.status)
	}
	check("a preflight", preflight(t, s.base+"repos/octo-org/hello-world/issues/1/issue-field-values"), 204)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", o+"/_issuefields/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	check("the event stream", answer{status: resp.StatusCode, header: resp.Header}, 200)
}
