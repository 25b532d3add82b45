package pgstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
)

// writer is the principal of every request in these tests: it may write to
// every repository.
var writer = &issuefields.Principal{
	Kind:  issuefields.FineGrainedPersonalAccessToken,
	Login: "writer",
	Permissions: func(context.Context, issuefields.Repository) (issuefields.RepositoryPermissions, error) {
		return issuefields.RepositoryPermissions{Visible: true, Issues: issuefields.PermissionWrite, Push: true}, nil
	},
}

// newHandler returns a handler over s that takes every token for writer's,
// with the secondary rate limit off and its log discarded.
func newHandler(t testing.TB, s issuefields.Store) *issuefields.Handler {
	t.Helper()
	h, err := issuefields.New(issuefields.Config{
		Store: s,
		Verifier: issuefields.TokenVerifierFunc(func(context.Context, string) (*issuefields.Principal, error) {
			return writer, nil
		}),
		WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: -1},
		Logger:      slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// serve sends h a request with writer's token, and the further headers given
// as name and value pairs, and returns the answer.
func serve(h http.Handler, method, path, body string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer token")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// valuesPath returns the path of the values of issue number of owner/repo.
func valuesPath(owner, repo string, number int64) string {
	return fmt.Sprintf("/repos/%s/%s/issues/%d/issue-field-values", owner, repo, number)
}

// textBody returns the body of a POST that gives field the text value.
func textBody(field int64, value string) string {
	return fmt.Sprintf(`{"issue_field_values":[{"field_id":%d,"value":%q}]}`, field, value)
}

// A listItem is an item of a list of an issue's values, as a client reads
// it.
type listItem struct {
	IssueFieldID   int64  `json:"issue_field_id"`
	IssueFieldName string `json:"issue_field_name"`
	Value          any    `json:"value"`
}

// decodeItems returns the items of a 200 answer's list. It reports a list it
// cannot decode as a failure of t, and returns no items.
func decodeItems(t testing.TB, rec *httptest.ResponseRecorder) []listItem {
	t.Helper()
	var items []listItem
	if err := json.Unmarshal(rec.Body.Bytes(), &items); err != nil {
		t.Errorf("decoding the list %s: %v", rec.Body, err)
		return nil
	}
	return items
}

// decodeList returns the values of a 200 answer's list, by field ID. It
// reports a list it cannot decode as a failure of t.
func decodeList(t testing.TB, rec *httptest.ResponseRecorder) map[int64]any {
	t.Helper()
	items := decodeItems(t, rec)
	values := make(map[int64]any, len(items))
	for _, item := range items {
		values[item.IssueFieldID] = item.Value
	}
	return values
}

// listAll returns every value of the issue's list, through h, page by page.
func listAll(t testing.TB, h http.Handler, path string) map[int64]any {
	t.Helper()
	all := make(map[int64]any)
	for page := 1; ; page++ {
		rec := serve(h, "GET", fmt.Sprintf("%s?per_page=100&page=%d", path, page), "")
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: status %d: %s", path, rec.Code, rec.Body)
		}
		values := decodeList(t, rec)
		if len(values) == 0 {
			return all
		}
		for id, v := range values {
			all[id] = v
		}
	}
}
