package server

import (
	"net/http"
	"strings"
	"testing"
)

// preflight sends url the OPTIONS request that a browser sends before a
// cross-origin POST with a token, and returns the answer.
func preflight(t *testing.T, url string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodOptions, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", "http://app.example")
	req.Header.Set("Access-Control-Request-Method", http.MethodPost)
	req.Header.Set("Access-Control-Request-Headers", "authorization,content-type,x-github-api-version")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return answer{status: resp.StatusCode, header: resp.Header}
}

// wantExposed is Access-Control-Expose-Headers with -vendor GitHub.
const wantExposed = "ETag, Link, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-used, x-ratelimit-reset, x-ratelimit-resource, " +
	"X-OAuth-Scopes, " +
	"X-Accepted-OAuth-Scopes, X-Poll-Interval, Location, Retry-After, X-GitHub-Request-Id, X-Accepted-GitHub-Permissions"

func TestPreflightIsAnsweredWithoutAToken(t *testing.T) {
	s := startServer(t, "-vendor", "GitHub", "-prefix", "/api/v3")
	for _, path := range []string{
		"repos/octo-org/hello-world/issues/1/issue-field-values",
		"orgs/octo-org/hooks",
		"no/such/route",
	} {
		a := preflight(t, s.base+path)
		for name, want := range map[string]string{
			"Access-Control-Allow-Origin":   "*",
			"Access-Control-Allow-Methods":  "GET, POST, PATCH, PUT, DELETE",
			"Access-Control-Allow-Headers":  "Authorization, Content-Type, If-Match, If-Modified-Since, If-None-Match, If-Unmodified-Since, X-Requested-With, X-GitHub-Api-Version",
			"Access-Control-Max-Age":        "86400",
			"Access-Control-Expose-Headers": wantExposed,
		} {
			if got := a.header.Get(name); got != want {
				t.Errorf("OPTIONS %s: %s %q, want %q", path, name, got, want)
			}
		}
		if a.status != http.StatusNoContent {
			t.Errorf("OPTIONS %s = %d, want 204", path, a.status)
		}
	}
}

func TestEveryAPIAnswerAllowsOtherOrigins(t *testing.T) {
	s := startServer(t, "-vendor", "GitHub")
	values := s.base + "repos/octo-org/hello-world/issues/1/issue-field-values"
	for _, tc := range []struct {
		name, method, url, token, body string
		status                         int
	}{
		{"list", http.MethodGet, values, "demo-reader-token", "", http.StatusOK},
		{"no token", http.MethodGet, s.base + "repos/octo-org/private-app/issues/1/issue-field-values", "", "", http.StatusNotFound},
		{"bad token", http.MethodGet, values, "no-such-token", "", http.StatusUnauthorized},
		{"no such issue", http.MethodGet, s.base + "repos/octo-org/hello-world/issues/999/issue-field-values", "demo-reader-token", "", http.StatusNotFound},
		{"invalid write", http.MethodPost, values, "demo-writer-token", `{"issue_field_values":[{"field_id":999,"value":1}]}`, http.StatusUnprocessableEntity},
		{"hooks", http.MethodGet, s.base + "orgs/octo-org/hooks", "demo-writer-token", "", http.StatusOK},
	} {
		a := send(t, tc.method, tc.url, tc.token, tc.body)
		if a.status != tc.status {
			t.Errorf("%s: %s %s = %d %s, want %d", tc.name, tc.method, tc.url, a.status, a.body, tc.status)
		}
		if got := a.header.Get("Access-Control-Allow-Origin"); got != "*" {
			t.Errorf("%s: Access-Control-Allow-Origin %q, want *", tc.name, got)
		}
		if got := a.header.Get("Access-Control-Expose-Headers"); got != wantExposed {
			t.Errorf("%s: Access-Control-Expose-Headers %q, want %q", tc.name, got, wantExposed)
		}
		if got := a.header.Get("Access-Control-Allow-Methods"); got != "" {
			t.Errorf("%s: Access-Control-Allow-Methods %q on an answer that is not a preflight's", tc.name, got)
		}
	}
}

func TestNoCORSOutsideTheAPI(t *testing.T) {
	s := startServer(t, "-prefix", "/api")
	root := strings.TrimSuffix(s.base, "api/")
	for _, tc := range []struct {
		path   string
		status int
	}{
		{"healthz", http.StatusMethodNotAllowed},
		{"readyz", http.StatusMethodNotAllowed},
		{"repos/octo-org/hello-world/issues/1/issue-field-values", http.StatusNotFound},
	} {
		a := preflight(t, root+tc.path)
		if a.status != tc.status {
			t.Errorf("OPTIONS /%s = %d, want %d", tc.path, a.status, tc.status)
		}
		for name := range a.header {
			if strings.HasPrefix(name, "Access-Control-") {
				t.Errorf("OPTIONS /%s answers with %s, outside the API", tc.path, name)
			}
		}
	}
}
