package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// listedHook is what the tests read of a hook in an answer of the hook
// routes.
type listedHook struct {
	ID     int64    `json:"id"`
	Type   string   `json:"type"`
	Active bool     `json:"active"`
	Events []string `json:"events"`
	URL    string   `json:"url"`
	Config struct {
		URL         string `json:"url"`
		ContentType string `json:"content_type"`
		Secret      string `json:"secret"`
	} `json:"config"`
}

// listHooks returns the hooks that GET url lists with demo-writer-token.
func listHooks(t *testing.T, url string) []listedHook {
	t.Helper()
	a := send(t, http.MethodGet, url, "demo-writer-token", "")
	var hooks []listedHook
	if err := json.Unmarshal([]byte(a.body), &hooks); a.status != http.StatusOK || err != nil {
		t.Fatalf("GET %s = %d %s (%v), want 200 and a list of hooks", url, a.status, a.body, err)
	}
	return hooks
}

// TestWebhookFlagCreatesAnOrganizationHookOnce checks that -webhook creates
// an organization hook for the issues event, as JSON, signed, and that a
// second start on the same store, as a pgstore server's restart is, adds
// none.
func TestWebhookFlagCreatesAnOrganizationHookOnce(t *testing.T) {
	store := newFakeStore(true)
	const hookURL = "http://127.0.0.1:1/hook"
	args := []string{"-webhook", hookURL, "-webhook-secret", "s3cret"}
	for start := 1; start <= 2; start++ {
		s := startCommand(t, opening(store, nil), args...)
		hooks := listHooks(t, s.base+"orgs/octo-org/hooks")
		if len(hooks) != 1 {
			t.Fatalf("start %d: octo-org has %d hooks, want 1: %+v", start, len(hooks), hooks)
		}
		h := hooks[0]
		if h.Type != "Organization" || !h.Active || !slices.Equal(h.Events, []string{"issues"}) ||
			h.Config.URL != hookURL || h.Config.ContentType != "json" || h.Config.Secret != "********" {
			t.Errorf("start %d: hook %+v, want an active organization hook of issues to %s, json, with a secret", start, h, hookURL)
		}
		if err := s.stop(); err != nil {
			t.Fatal(err)
		}
		store.empty = false
	}
}

// TestHookRoutesUnderThePrefix checks that the hook routes are served under
// -prefix beside the API, and only there.
func TestHookRoutesUnderThePrefix(t *testing.T) {
	receiver, got := startReceiver(t)
	s := startServer(t, "-prefix", "/api/v3")
	a := createHook(t, "", s.base+"repos/octo-org/hello-world/hooks", receiver)
	var h listedHook
	if err := json.Unmarshal([]byte(a.body), &h); err != nil || h.Type != "Repository" ||
		h.URL != s.base+"repos/octo-org/hello-world/hooks/1" || a.header.Get("Location") != h.URL {
		t.Errorf("created %s (Location %s), want repository hook 1 under %s", a.body, a.header.Get("Location"), s.base)
	}
	if ping := nextDelivery(t, got, "ping"); ping.header.Get("X-Service-Hook-Id") != "1" {
		t.Errorf("the ping of the new hook has X-Service-Hook-ID %q, want 1", ping.header.Get("X-Service-Hook-Id"))
	}
	for _, path := range []string{"repos/octo-org/hello-world/hooks", "repos/octo-org/hello-world/hooks/1/deliveries",
		"orgs/octo-org/hooks", "repos/octo-org/hello-world/hooks/1/config"} {
		if a := send(t, http.MethodGet, s.base+path, "demo-writer-token", ""); a.status != http.StatusOK {
			t.Errorf("GET %s%s = %d %s, want 200", s.base, path, a.status, a.body)
		}
		outside := origin(s.base) + "/" + path
		if a := send(t, http.MethodGet, outside, "demo-writer-token", ""); a.status != http.StatusNotFound ||
			!strings.Contains(a.body, `"api_url":"`+s.base+`"`) {
			t.Errorf("GET %s = %d %s, want the 404 that names %s", outside, a.status, a.body, s.base)
		}
	}
}

// TestDeliveriesShowTheDataFile checks that a delivery shows what the data
// file says of an issue (title, state, author, body) and of a repository
// (description), and the documented defaults where it says nothing.
func TestDeliveriesShowTheDataFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "data.json")
	data := `{
  "organizations": [{"login": "octo-org", "fields": [{"id": 1, "name": "Estimate", "data_type": "number"}]}],
  "repositories": [{"owner": "octo-org", "name": "app", "description": "The app",
    "issues": [
      {"number": 1, "title": "Crash on start", "state": "closed", "author": "mona", "body": "It crashes."},
      {"number": 2}
    ]}],
  "tokens": [{"token": "t", "kind": "fine_grained_pat", "login": "octocat",
    "repositories": {"octo-org/app": {"issues": "write", "pull_requests": "none", "push": true}}}]
}`
	if err := os.WriteFile(file, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	receiver, got := startReceiver(t)
	s := startServer(t, "-data", file, "-webhook", receiver, "-webhook-secret", "s")
	for _, tc := range []struct {
		number                         string
		title, state, author, userType string
		body, closedAt                 bool
	}{
		{"1", "Crash on start", "closed", "mona", "User", true, true},
		{"2", "Issue #2", "open", "octo-org", "Organization", false, false},
	} {
		url := s.base + "repos/octo-org/app/issues/" + tc.number + "/issue-field-values"
		if status, body := do(t, http.MethodPost, url, "t", `{"issue_field_values": [{"field_id": 1, "value": 5}]}`); status != http.StatusOK {
			t.Fatalf("POST %s = %d %s", url, status, body)
		}
		d := nextDelivery(t, got, "issues")
		v := d.object(t)
		issue := member(v, "issue")
		if member(issue, "title") != tc.title || member(issue, "state") != tc.state ||
			member(issue, "user", "login") != tc.author || member(issue, "user", "type") != tc.userType ||
			(member(issue, "body") != nil) != tc.body || (member(issue, "closed_at") != nil) != tc.closedAt {
			t.Errorf("issue #%s: delivered %s, want title %q, state %s, author %s (%s), body %v, closed_at %v",
				tc.number, d.body, tc.title, tc.state, tc.author, tc.userType, tc.body, tc.closedAt)
		}
		if tc.body && member(issue, "body") != "It crashes." {
			t.Errorf("issue #%s: body %v, want the data file's", tc.number, member(issue, "body"))
		}
		if got := member(v, "repository", "description"); got != "The app" {
			t.Errorf("issue #%s: repository description %v, want the data file's", tc.number, got)
		}
	}
}
