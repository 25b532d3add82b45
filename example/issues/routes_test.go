package issues_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/issues"
)

func TestRoutesNeedAStore(t *testing.T) {
	if _, err := issues.Routes(issues.Config{}); err == nil || !strings.Contains(err.Error(), "Config.Store") {
		t.Errorf("Routes without a Store: %v; want an error naming Config.Store", err)
	}
}

// TestRoutesOverAStoreThatDoesNotListIssues serves the routes over a Store
// that is no IssueStore: an issue is read and changed, and the list, the
// create and the search are 404.
func TestRoutesOverAStoreThatDoesNotListIssues(t *testing.T) {
	w := newWorld(t)
	plain := struct{ issuefields.Store }{w.store}
	routes, err := issues.Routes(issues.Config{Store: plain})
	if err != nil {
		t.Fatal(err)
	}
	h, err := issuefields.New(issuefields.Config{Store: plain, Verifier: issuefields.TokenVerifierFunc(verify), Routes: routes,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		method, path, body string
		status             int
	}{
		{"GET", "/repos/octo-org/hello-world/issues/1", "", http.StatusOK},
		{"PATCH", "/repos/octo-org/hello-world/issues/1", `{"title": "Still served"}`, http.StatusOK},
		{"GET", "/repos/octo-org/hello-world/issues", "", http.StatusNotFound},
		{"POST", "/repos/octo-org/hello-world/issues", `{"title": "x"}`, http.StatusNotFound},
		{"GET", "/search/issues?q=x", "", http.StatusNotFound},
	} {
		req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
		req.Header.Set("Authorization", "Bearer "+writer)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != c.status {
			t.Errorf("%s %s: %d %s; want %d", c.method, c.path, rec.Code, rec.Body, c.status)
		}
	}
}
