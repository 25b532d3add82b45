package server

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/issuefields/issuefields/example/datafile"
	"github.com/issuefields/issuefields/webhook"
)

// wantBudget checks that a carries the headers of a budget of limit with
// used requests counted, of resource.
func wantBudget(t *testing.T, what string, a answer, limit, used int, resource string) {
	t.Helper()
	for name, want := range map[string]string{
		"x-ratelimit-limit":     strconv.Itoa(limit),
		"x-ratelimit-remaining": strconv.Itoa(limit - used),
		"x-ratelimit-used":      strconv.Itoa(used),
		"x-ratelimit-resource":  resource,
	} {
		if got := a.header.Get(name); got != want {
			t.Errorf("%s: %s %q, want %q", what, name, got, want)
		}
	}
	if reset, err := strconv.ParseInt(a.header.Get("x-ratelimit-reset"), 10, 64); err != nil || reset <= 0 {
		t.Errorf("%s: x-ratelimit-reset %q, want epoch seconds", what, a.header.Get("x-ratelimit-reset"))
	}
}

func TestEveryAPIAnswerCarriesThePrimaryBudget(t *testing.T) {
	s := startServer(t, "-rate-limit", "10", "-rate-limit-anonymous", "4", "-prefix", "/api/v3")
	values := s.base + "repos/octo-org/hello-world/issues/1/issue-field-values"
	wantBudget(t, "GET values", send(t, http.MethodGet, values, "demo-writer-token", ""), 10, 1, "core")
	wantBudget(t, "a 422", send(t, http.MethodPost, values, "demo-writer-token", `{"issue_field_values": 1}`), 10, 2, "core")
	wantBudget(t, "a 404", send(t, http.MethodGet, s.base+"no/such/route", "demo-writer-token", ""), 10, 3, "core")
	// octocat's classic token is another principal: kind and login count.
	wantBudget(t, "a classic token", send(t, http.MethodGet, values, "demo-classic-token", ""), 10, 1, "core")
	wantBudget(t, "search", send(t, http.MethodGet, s.base+"search/issues?q=is:issue", "demo-writer-token", ""), 30, 1, "search")
	wantBudget(t, "anonymous", send(t, http.MethodGet, values, "", ""), 4, 1, "core")
	wantBudget(t, "a bad token", send(t, http.MethodGet, values, "no-such-token", ""), 4, 2, "core")
	wantBudget(t, "an expired token", send(t, http.MethodGet, values, "demo-expired-token", ""), 4, 3, "core")
}

func TestASpentBudgetIsAnswered403AsGitHub(t *testing.T) {
	s := startServer(t, "-rate-limit", "2", "-rate-limit-anonymous", "1")
	values := s.base + "repos/octo-org/hello-world/issues/1/issue-field-values"
	objects := webhook.Objects{Directory: datafile.Demo().Directory()}
	for _, tc := range []struct {
		token, want string
	}{
		{"demo-writer-token", "API rate limit exceeded for user ID " + strconv.FormatInt(objects.AccountID("octocat"), 10) + "."},
		{"demo-app-token", "API rate limit exceeded for installation ID " + strconv.FormatInt(objects.InstallationID("demo-app[bot]"), 10) + "."},
		{"", "API rate limit exceeded for 127.0.0.1."},
	} {
		var a answer
		for range 3 {
			a = send(t, http.MethodGet, values, tc.token, "")
		}
		if a.status != http.StatusForbidden || a.header.Get("Retry-After") != "" {
			t.Errorf("%q: %d with Retry-After %q, want 403 without it", tc.token, a.status, a.header.Get("Retry-After"))
		}
		body := jsonObject(t, a)
		if body["message"] != tc.want || body["documentation_url"] == nil {
			t.Errorf("%q: body %v, want message %q and a documentation_url", tc.token, body, tc.want)
		}
		if got := a.header.Get("x-ratelimit-remaining"); got != "0" {
			t.Errorf("%q: x-ratelimit-remaining %q, want 0", tc.token, got)
		}
	}
}

func TestRateLimitToolsAndNotModifiedSpendNothing(t *testing.T) {
	s := startServer(t, "-rate-limit", "3")
	values := s.base + "repos/octo-org/hello-world/issues/1/issue-field-values"
	first := send(t, http.MethodGet, values, "demo-writer-token", "")
	etag := first.header.Get("ETag")
	req, err := http.NewRequest(http.MethodGet, values, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer demo-writer-token")
	req.Header.Set("If-None-Match", etag)
	for range 5 {
		if a := do1(t, req); a.status != http.StatusNotModified {
			t.Fatalf("GET with If-None-Match = %d, want 304", a.status)
		}
		send(t, http.MethodGet, s.base+"rate_limit", "demo-writer-token", "")
		tool(t, http.MethodGet, s.base, "requests", nil)
	}
	a := send(t, http.MethodGet, s.base+"rate_limit", "demo-writer-token", "")
	wantBudget(t, "GET /rate_limit", a, 3, 1, "core")
	body := jsonObject(t, a)
	core := body["resources"].(map[string]any)["core"].(map[string]any)
	if core["used"] != 1.0 || core["remaining"] != 2.0 || core["limit"] != 3.0 {
		t.Errorf("resources.core %v, want 1 used of 3", core)
	}
}

func TestResetMakesTheBudgetsWhole(t *testing.T) {
	s := startServer(t, "-rate-limit", "1", "-rate-limit-anonymous", "1")
	values := s.base + "repos/octo-org/hello-world/issues/1/issue-field-values"
	for _, token := range []string{"demo-writer-token", "", "demo-writer-token", ""} {
		send(t, http.MethodGet, values, token, "")
	}
	if a := send(t, http.MethodGet, values, "demo-writer-token", ""); a.status != http.StatusForbidden {
		t.Fatalf("before the reset: %d, want 403", a.status)
	}
	if a := tool(t, http.MethodPost, s.base, "reset", nil); a.status != http.StatusNoContent {
		t.Fatalf("POST /_issuefields/reset = %d %s, want 204", a.status, a.body)
	}
	for _, token := range []string{"demo-writer-token", ""} {
		a := send(t, http.MethodGet, values, token, "")
		wantBudget(t, "after the reset", a, 1, 1, "core")
		if a.status == http.StatusForbidden {
			t.Errorf("%q after the reset: 403, want the API's answer", token)
		}
	}
}

func TestRateLimitZeroSendsNoBudgetHeaders(t *testing.T) {
	s := startServer(t, "-rate-limit", "0")
	a := send(t, http.MethodGet, s.base+"repos/octo-org/hello-world/issues/1/issue-field-values", "demo-writer-token", "")
	if a.status != http.StatusOK || a.header.Get("x-ratelimit-limit") != "" {
		t.Errorf("%d with x-ratelimit-limit %q, want 200 without it", a.status, a.header.Get("x-ratelimit-limit"))
	}
}

func TestASpentBudgetsAnswerReachesAClientStillSending(t *testing.T) {
	s := startServer(t, "-rate-limit", "1")
	values := s.base + "repos/octo-org/hello-world/issues/1/issue-field-values"
	send(t, http.MethodGet, values, "demo-writer-token", "")
	body := `{"issue_field_values": [{"field_id": 4, "value": "` + strings.Repeat("x", 512<<10) + `"}]}`
	a := send(t, http.MethodPost, values, "demo-writer-token", body)
	if a.status != http.StatusForbidden || !strings.HasPrefix(jsonObject(t, a)["message"].(string), "API rate limit exceeded for user ID ") {
		t.Errorf("POST of %d bytes with the budget spent = %d %s, want the rate limit's 403", len(body), a.status, a.body)
	}
}
