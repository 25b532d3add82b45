package ratelimit_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/ratelimit"
	"github.com/issuefields/issuefields/webhook"
)

// principals are the tokens of the tests: two of one user, and an app
// installation's.
var principals = map[string]*issuefields.Principal{
	"user-token":    {Kind: issuefields.FineGrainedPersonalAccessToken, Login: "octocat"},
	"user-token-2":  {Kind: issuefields.FineGrainedPersonalAccessToken, Login: "octocat"},
	"install-token": {Kind: issuefields.AppInstallationToken, Login: "octo-app[bot]"},
}

var verifier = issuefields.TokenVerifierFunc(func(_ context.Context, token string) (*issuefields.Principal, error) {
	if p, ok := principals[token]; ok {
		return p, nil
	}
	return nil, issuefields.ErrBadCredentials
})

// start is the time of the tests' clock when a test begins.
var start = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// harness is a Limiter in front of an API that answers 200, or 304 for the
// path /not-modified, and counts the requests that reach it; now is the
// Counter's clock.
type harness struct {
	t       *testing.T
	now     time.Time
	limiter *ratelimit.Limiter
	handler http.Handler
	served  int
	// marked is the message of the last request that reached the API
	// marked as refused.
	marked string
}

func newHarness(t *testing.T, limits ratelimit.Limits) *harness {
	h := &harness{t: t, now: start}
	h.limiter = ratelimit.New(ratelimit.Config{
		Limits:   limits,
		Verifier: verifier,
		Counter:  ratelimit.NewMemory(func() time.Time { return h.now }),
	})
	h.handler = h.limiter.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.served++
		if msg, ok := ratelimit.Refused(r.Context()); ok {
			h.marked = msg
		}
		if r.URL.Path == "/not-modified" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write([]byte("{}\n"))
	}))
	return h
}

// get sends GET path with token ("" for none) from the client address
// addr, and returns the answer.
func (h *harness) get(path, token, addr string) *http.Response {
	h.t.Helper()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.RemoteAddr = addr + ":40000"
	if path == "/not-modified" {
		r.Header.Set("If-None-Match", `"v1"`)
	}
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	h.handler.ServeHTTP(w, r)
	return w.Result()
}

const addr = "192.0.2.7"

// wantHeaders checks the budget headers of resp.
func wantHeaders(t *testing.T, resp *http.Response, limit, used int, reset time.Time, resource string) {
	t.Helper()
	for name, want := range map[string]string{
		"x-ratelimit-limit":     strconv.Itoa(limit),
		"x-ratelimit-remaining": strconv.Itoa(limit - used),
		"x-ratelimit-used":      strconv.Itoa(used),
		"x-ratelimit-reset":     strconv.FormatInt(reset.Unix(), 10),
		"x-ratelimit-resource":  resource,
	} {
		if got := resp.Header.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

func TestEveryAnswerCarriesTheBudgetsHeaders(t *testing.T) {
	h := newHarness(t, ratelimit.Limits{PerHour: 3, Anonymous: 2})
	wantHeaders(t, h.get("/repos/o/r/issues/1/issue-field-values", "user-token", addr), 3, 1, start.Add(time.Hour), "core")
	h.now = start.Add(time.Minute)
	wantHeaders(t, h.get("/orgs/o/issue-fields", "user-token", addr), 3, 2, start.Add(time.Hour), "core")
	wantHeaders(t, h.get("/search/issues", "user-token", addr), 30, 1, h.now.Add(time.Minute), "search")
	wantHeaders(t, h.get("/graphql", "user-token", addr), 3, 1, h.now.Add(time.Hour), "graphql")
	wantHeaders(t, h.get("/api/graphql", "user-token", addr), 3, 2, h.now.Add(time.Hour), "graphql")
	wantHeaders(t, h.get("/repos/o/r", "", addr), 2, 1, h.now.Add(time.Hour), "core")
}

// errorBody decodes GitHub's error body.
func errorBody(t *testing.T, resp *http.Response) (message, documentationURL string) {
	t.Helper()
	var body struct {
		Message          string `json:"message"`
		DocumentationURL string `json:"documentation_url"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	return body.Message, body.DocumentationURL
}

func TestASpentBudgetIsAnswered403(t *testing.T) {
	objects := webhook.Objects{}
	for _, tc := range []struct {
		token, want string
	}{
		{"user-token", "API rate limit exceeded for user ID " + strconv.FormatInt(objects.AccountID("octocat"), 10) + "."},
		{"install-token", "API rate limit exceeded for installation ID " + strconv.FormatInt(objects.InstallationID("octo-app[bot]"), 10) + "."},
		{"", "API rate limit exceeded for " + addr + "."},
		{"bad-token", "API rate limit exceeded for " + addr + "."},
	} {
		h := newHarness(t, ratelimit.Limits{PerHour: 2, Anonymous: 2})
		h.get("/a", tc.token, addr)
		h.get("/b", tc.token, addr)
		resp := h.get("/c", tc.token, addr)
		if resp.StatusCode != http.StatusForbidden || h.served != 2 {
			t.Errorf("%q: the third request = %d, with %d served; want 403 with 2 served", tc.token, resp.StatusCode, h.served)
		}
		wantHeaders(t, resp, 2, 2, start.Add(time.Hour), "core")
		if got := resp.Header.Get("Retry-After"); got != "" {
			t.Errorf("%q: Retry-After %q, want none", tc.token, got)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Errorf("%q: Content-Type %q", tc.token, ct)
		}
		msg, doc := errorBody(t, resp)
		if msg != tc.want || doc == "" {
			t.Errorf("%q: message %q, documentation_url %q; want %q and a URL", tc.token, msg, doc, tc.want)
		}
	}
}

func TestTheTokensOfOnePrincipalShareItsBudget(t *testing.T) {
	h := newHarness(t, ratelimit.Limits{PerHour: 10, Anonymous: 10})
	h.get("/a", "user-token", addr)
	wantHeaders(t, h.get("/a", "user-token-2", "198.51.100.1"), 10, 2, start.Add(time.Hour), "core")
	wantHeaders(t, h.get("/a", "install-token", addr), 10, 1, start.Add(time.Hour), "core")
}

func TestAnonymousCallersAndBadTokensCountPerAddress(t *testing.T) {
	h := newHarness(t, ratelimit.Limits{PerHour: 10, Anonymous: 5})
	h.get("/a", "", addr)
	wantHeaders(t, h.get("/a", "bad-token", addr), 5, 2, start.Add(time.Hour), "core")
	wantHeaders(t, h.get("/a", "", "198.51.100.1"), 5, 1, start.Add(time.Hour), "core")
	// A bad token does not spend the budget of a good one from the address.
	wantHeaders(t, h.get("/a", "user-token", addr), 10, 1, start.Add(time.Hour), "core")
}

func TestANotModifiedAnswerCostsNothing(t *testing.T) {
	h := newHarness(t, ratelimit.Limits{PerHour: 2, Anonymous: 2})
	h.get("/a", "user-token", addr)
	resp := h.get("/not-modified", "user-token", addr)
	if resp.StatusCode != http.StatusNotModified {
		t.Fatalf("status %d, want 304", resp.StatusCode)
	}
	wantHeaders(t, resp, 2, 1, start.Add(time.Hour), "core")
	for range 3 {
		h.get("/not-modified", "user-token", addr)
	}
	wantHeaders(t, h.get("/a", "user-token", addr), 2, 2, start.Add(time.Hour), "core")
}

func TestRateLimitAnswersTheBudgetsAndSpendsNothing(t *testing.T) {
	h := newHarness(t, ratelimit.Limits{PerHour: 50, Anonymous: 7})
	h.get("/a", "user-token", addr)
	h.get("/search/issues", "user-token", addr)
	h.now = start.Add(time.Second)
	for range 2 {
		resp := h.get("/rate_limit", "user-token", addr)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /rate_limit = %d, want 200", resp.StatusCode)
		}
		wantHeaders(t, resp, 50, 1, start.Add(time.Hour), "core")
		var body struct {
			Resources map[string]map[string]any `json:"resources"`
			Rate      map[string]any            `json:"rate"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatal(err)
		}
		want := map[string]map[string]any{
			"core":    {"limit": 50.0, "used": 1.0, "remaining": 49.0, "reset": float64(start.Add(time.Hour).Unix()), "resource": "core"},
			"search":  {"limit": 30.0, "used": 1.0, "remaining": 29.0, "reset": float64(start.Add(time.Minute).Unix()), "resource": "search"},
			"graphql": {"limit": 50.0, "used": 0.0, "remaining": 50.0, "reset": float64(h.now.Add(time.Hour).Unix()), "resource": "graphql"},
		}
		for name, w := range want {
			for k, v := range w {
				if got := body.Resources[name][k]; got != v {
					t.Errorf("resources.%s.%s = %v, want %v", name, k, got, v)
				}
			}
		}
		for k, v := range want["core"] {
			if got := body.Rate[k]; got != v {
				t.Errorf("rate.%s = %v, want %v", k, got, v)
			}
		}
	}
	if h.served != 2 {
		t.Errorf("the API served %d requests, want 2: GET /rate_limit is the limiter's", h.served)
	}
	anon := h.get("/rate_limit", "", addr)
	wantHeaders(t, anon, 7, 0, h.now.Add(time.Hour), "core")
	bad := h.get("/rate_limit", "bad-token", addr)
	if bad.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET /rate_limit with a bad token = %d, want 401", bad.StatusCode)
	}
	// The 401 is an answer of the API too: it carries the headers of the
	// client address's budget, which a bad token counts against.
	wantHeaders(t, bad, 7, 0, h.now.Add(time.Hour), "core")
}

func TestASpentGraphQLBudgetIsPassedOnMarked(t *testing.T) {
	h := newHarness(t, ratelimit.Limits{PerHour: 1, Anonymous: 1})
	h.get("/graphql", "user-token", addr)
	if h.marked != "" {
		t.Fatalf("a request within the budget is marked %q", h.marked)
	}
	resp := h.get("/graphql", "user-token", addr)
	if resp.StatusCode != http.StatusOK || h.served != 2 {
		t.Fatalf("the spent request = %d with %d served, want the API's 200 with 2 served", resp.StatusCode, h.served)
	}
	want := "API rate limit exceeded for user ID " + strconv.FormatInt(webhook.Objects{}.AccountID("octocat"), 10) + "."
	if h.marked != want {
		t.Errorf("marked %q, want %q", h.marked, want)
	}
	wantHeaders(t, resp, 1, 1, start.Add(time.Hour), "graphql")
	// The core budget is its own.
	if resp := h.get("/a", "user-token", addr); resp.StatusCode != http.StatusOK {
		t.Errorf("core request = %d, want 200", resp.StatusCode)
	}
}

func TestAWindowEndsAndTheNextStartsWhole(t *testing.T) {
	h := newHarness(t, ratelimit.Limits{PerHour: 1, Anonymous: 1})
	h.get("/a", "user-token", addr)
	h.now = start.Add(time.Hour - time.Second)
	if resp := h.get("/a", "user-token", addr); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("within the window: %d, want 403", resp.StatusCode)
	}
	h.now = start.Add(time.Hour)
	resp := h.get("/a", "user-token", addr)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("after the window: %d, want 200", resp.StatusCode)
	}
	wantHeaders(t, resp, 1, 1, h.now.Add(time.Hour), "core")
}

func TestResetMakesEveryBudgetWhole(t *testing.T) {
	h := newHarness(t, ratelimit.Limits{PerHour: 1, Anonymous: 1})
	h.get("/a", "user-token", addr)
	h.get("/a", "", addr)
	h.limiter.Reset()
	for _, token := range []string{"user-token", ""} {
		if resp := h.get("/a", token, addr); resp.StatusCode != http.StatusOK {
			t.Errorf("%q after a reset: %d, want 200", token, resp.StatusCode)
		}
	}
}

func TestALimitOfZeroTurnsTheBudgetsOff(t *testing.T) {
	h := newHarness(t, ratelimit.Limits{PerHour: 0, Anonymous: 1})
	for range 3 {
		resp := h.get("/a", "", addr)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("x-ratelimit-limit") != "" {
			t.Fatalf("%d with x-ratelimit-limit %q, want 200 without it", resp.StatusCode, resp.Header.Get("x-ratelimit-limit"))
		}
	}
	resp := h.get("/rate_limit", "user-token", addr)
	if msg, _ := errorBody(t, resp); resp.StatusCode != http.StatusNotFound || msg != "Rate limiting is not enabled." {
		t.Errorf("GET /rate_limit = %d %q, want 404 saying that rate limiting is not enabled", resp.StatusCode, msg)
	}
}
