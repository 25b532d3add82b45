package issues_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/issuefields/issuefields"
)

func TestCreateIssue(t *testing.T) {
	w := newWorld(t)
	a := w.do(t, "POST", "/repos/octo-org/hello-world/issues", writer, `{"title": "Dark mode", "body": "Please.",
		"labels": ["feature"], "assignees": ["hubot"], "assignee": "ignored", "milestone": 3,
		"issue_field_values": [{"field_id": 1, "value": "Low"}, {"field_id": 4, "value": ["Linux"]}]}`)
	if a.status != http.StatusCreated {
		t.Fatalf("status %d %s; want 201", a.status, a.body)
	}
	var got issueObject
	a.decode(t, &got)
	if got.Number != 3 || got.Title != "Dark mode" || got.State != "open" || got.User.Login != "writer-user" ||
		len(got.Labels) != 1 || len(got.Assignees) != 1 {
		t.Errorf("issue %+v; want #3, open, by writer-user", got)
	}
	if loc := a.header.Get("Location"); loc != w.server.URL+"/repos/octo-org/hello-world/issues/3" || loc != got.URL {
		t.Errorf("Location %q; want the issue's url %q", loc, got.URL)
	}
	stored := w.issue(t, "octo-org", "hello-world", 3)
	want := []issuefields.Value{{FieldID: 1, OptionIDs: []int64{12}}, {FieldID: 4, OptionIDs: []int64{41}}}
	if diff := cmp.Diff(want, stored.Values); diff != "" {
		t.Errorf("stored values (-want +got):\n%s", diff)
	}
	if stored.ID != got.ID || stored.Body != "Please." || stored.CreatedAt.IsZero() {
		t.Errorf("stored issue %+v", stored)
	}
	values := w.do(t, "GET", "/repos/octo-org/hello-world/issues/3/issue-field-values", "", "")
	if string(got.FieldValues) != trimNewline(values.body) || a.header.Get("ETag") != values.header.Get("ETag") {
		t.Errorf("answer's values %s; values list %s", got.FieldValues, values.body)
	}
	w.mu.Lock()
	n := len(w.events)
	w.mu.Unlock()
	if n != 0 {
		t.Errorf("%d events; a create sends none", n)
	}

	// Without push access the values, labels and assignees are dropped.
	a = w.do(t, "POST", "/repos/octo-org/hello-world/issues", noPush, `{"title": "Typo", "labels": ["x"],
		"issue_field_values": [{"field_id": 3, "value": "Dropped"}]}`)
	if a.status != http.StatusCreated {
		t.Fatalf("no push: %d %s; want 201", a.status, a.body)
	}
	if is := w.issue(t, "octo-org", "hello-world", 4); is.Title != "Typo" || len(is.Values) != 0 || len(is.Labels) != 0 {
		t.Errorf("issue created without push access: %+v", is)
	}
}

// TestCreateRefused checks that a refused create creates nothing and uses
// no number.
func TestCreateRefused(t *testing.T) {
	w := newWorld(t)
	for _, c := range []struct {
		name, token, body string
		status            int
		message           string
	}{
		{"anonymous", "", `{"title": "x"}`, http.StatusUnauthorized, "Requires authentication"},
		{"private, anonymous", "", `{"title": "x"}`, http.StatusNotFound, ""},
		{"reader", reader, `{"title": "x"}`, http.StatusForbidden, "issues=write"},
		{"no title", writer, `{"body": "x"}`, http.StatusUnprocessableEntity, `"missing_field"`},
		{"empty title", writer, `{"title": ""}`, http.StatusUnprocessableEntity, `"missing_field"`},
		{"long title", writer, `{"title": "` + strings.Repeat("a", 257) + `"}`, http.StatusUnprocessableEntity, "maximum is 256"},
		{"bad value", writer, `{"title": "x", "issue_field_values": [{"field_id": 2, "value": "3"}]}`,
			http.StatusUnprocessableEntity, `"index":0`},
		{"array", writer, `[]`, http.StatusBadRequest, "Body should be a JSON object"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := "/repos/octo-org/hello-world/issues"
			if strings.HasPrefix(c.name, "private") {
				path = "/repos/octo-org/secret/issues"
			}
			a := w.do(t, "POST", path, c.token, c.body)
			if a.status != c.status || !strings.Contains(a.body, c.message) {
				t.Errorf("%d %s; want %d with %q", a.status, a.body, c.status, c.message)
			}
		})
	}
	all, err := w.store.Issues(context.Background(), issuefields.IssueQuery{Repositories: []int64{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3 {
		t.Errorf("%d issues after refused creates; want the 3 there were", len(all))
	}
	if a := w.do(t, "POST", "/repos/octo-org/hello-world/issues", writer, `{"title": "x"}`); a.status != http.StatusCreated ||
		!strings.Contains(a.body, `"number":3`) {
		t.Errorf("the next create: %d %s; want 201, #3", a.status, a.body)
	}
}
