package issues_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/issuefields/issuefields"
)

func TestUpdateIssue(t *testing.T) {
	w := newWorld(t)
	const path = "/repos/octo-org/hello-world/issues/1"
	before := w.do(t, "GET", path, "", "")
	a := w.do(t, "PATCH", path, writer, `{"title": "Crash on save as", "state": "closed", "state_reason": "not_planned",
		"labels": ["bug", "p1"], "assignees": ["hubot"], "milestone": null, "type": null, "unknown": 1,
		"issue_field_values": [{"field_id": 4, "value": ["macOS", "Linux"]}, {"field_id": 3, "value": "Saving"}]}`)
	if a.status != http.StatusOK {
		t.Fatalf("status %d %s; want 200", a.status, a.body)
	}
	if p := a.header.Get("X-Accepted-GitHub-Permissions"); p != "issues=write" {
		t.Errorf("permissions header %q; want issues=write", p)
	}
	var got issueObject
	a.decode(t, &got)
	if got.Title != "Crash on save as" || got.State != "closed" || got.StateReason == nil || *got.StateReason != "not_planned" ||
		got.ClosedAt == nil || len(got.Labels) != 2 || got.Labels[1].Name != "p1" || len(got.Assignees) != 1 {
		t.Errorf("issue %+v", got)
	}
	stored := w.issue(t, "octo-org", "hello-world", 1)
	want := []issuefields.Value{{FieldID: 4, OptionIDs: []int64{41, 42}}, {FieldID: 3, Text: "Saving"}}
	if diff := cmp.Diff(want, stored.Values); diff != "" {
		t.Errorf("stored values, replaced as the set route does (-want +got):\n%s", diff)
	}
	if stored.Title != "Crash on save as" || !slices.Equal(stored.Assignees, []string{"hubot"}) || stored.ClosedAt.IsZero() {
		t.Errorf("stored issue %+v", stored)
	}
	values := w.do(t, "GET", path+"/issue-field-values", "", "")
	if string(got.FieldValues) != trimNewline(values.body) || a.header.Get("ETag") != values.header.Get("ETag") {
		t.Errorf("answer's values %s, ETag %q; values list %s, ETag %q", got.FieldValues, a.header.Get("ETag"),
			values.body, values.header.Get("ETag"))
	}
	w.mu.Lock()
	events := slices.Clone(w.events)
	w.mu.Unlock()
	if len(events) != 1 || events[0].Action != issuefields.ActionSet {
		t.Errorf("events %+v; want one set", events)
	}

	// The ETag of before no longer matches, on either route.
	old := before.header.Get("ETag")
	if a := w.do(t, "PATCH", path, writer, `{"title": "Late"}`, "If-Match", old); a.status != http.StatusPreconditionFailed {
		t.Errorf("PATCH with an old If-Match: %d %s; want 412", a.status, a.body)
	}
	if a := w.do(t, "PUT", path+"/issue-field-values", writer, `{"issue_field_values": []}`, "If-Match", old); a.status != http.StatusPreconditionFailed {
		t.Errorf("PUT with the issue's old ETag: %d %s; want 412", a.status, a.body)
	}
	if w.issue(t, "octo-org", "hello-world", 1).Title != "Crash on save as" {
		t.Error("a PATCH refused with 412 changed the title")
	}
	if a := w.do(t, "PATCH", path, writer, `{"state": "open"}`, "If-Match", a.header.Get("ETag")); a.status != http.StatusOK {
		t.Errorf("PATCH with the current If-Match: %d %s; want 200", a.status, a.body)
	} else if is := w.issue(t, "octo-org", "hello-world", 1); is.State != "open" || is.StateReason != "reopened" || !is.ClosedAt.IsZero() {
		t.Errorf("reopened issue: %+v", is)
	}
}

func TestUpdateRefused(t *testing.T) {
	w := newWorld(t)
	const path = "/repos/octo-org/hello-world/issues/1"
	stored := w.issue(t, "octo-org", "hello-world", 1)
	for _, c := range []struct {
		name, token, body string
		status            int
		message           string
	}{
		{"anonymous", "", `{"title": "x"}`, http.StatusUnauthorized, "Requires authentication"},
		{"reader", reader, `{"title": "x"}`, http.StatusForbidden, "issues=write"},
		{"classic", classic, `{"title": "x"}`, http.StatusForbidden, ""},
		{"not JSON", writer, `{"title":`, http.StatusBadRequest, "Problems parsing JSON"},
		{"duplicate key", writer, `{"title": "a", "title": "b"}`, http.StatusBadRequest, "title"},
		{"long title", writer, `{"title": "` + strings.Repeat("é", 257) + `"}`, http.StatusUnprocessableEntity, "maximum is 256"},
		{"long body", writer, `{"body": "` + strings.Repeat("a", 65537) + `"}`, http.StatusUnprocessableEntity, "maximum is 65536"},
		{"state", writer, `{"state": "done"}`, http.StatusUnprocessableEntity, "state must be one of"},
		{"state_reason", writer, `{"state_reason": "fixed"}`, http.StatusUnprocessableEntity, "state_reason"},
		{"labels", writer, `{"labels": "bug"}`, http.StatusUnprocessableEntity, "labels must be an array"},
		{"assignees", writer, `{"assignees": [1]}`, http.StatusUnprocessableEntity, "assignees"},
		{"values not an array", writer, `{"issue_field_values": null}`, http.StatusUnprocessableEntity, "issue_field_values"},
		// A valid title beside an invalid value: nothing changes.
		{"bad value", writer, `{"title": "New", "issue_field_values": [{"field_id": 1, "value": "Urgent"}]}`,
			http.StatusUnprocessableEntity, "High"},
		{"unknown field", writer, `{"title": "New", "issue_field_values": [{"field_id": 99, "value": "x"}]}`,
			http.StatusUnprocessableEntity, "Issue field with id 99 not found"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := w.do(t, "PATCH", path, c.token, c.body)
			if a.status != c.status || !strings.Contains(a.body, c.message) {
				t.Errorf("%d %s; want %d with %q", a.status, a.body, c.status, c.message)
			}
		})
	}
	if diff := cmp.Diff(stored, w.issue(t, "octo-org", "hello-world", 1)); diff != "" {
		t.Errorf("refused requests changed the issue (-before +after):\n%s", diff)
	}
}

// TestUpdateSameRefusalAsSet checks that bad items get the same 422 from
// PATCH of the issue as from PUT of its values.
func TestUpdateSameRefusalAsSet(t *testing.T) {
	w := newWorld(t)
	items := `[{"field_id": 1, "value": 11}, {"field_id": 2, "value": "three"}, {"field_id": 99, "value": "x"},
		{"field_id": 3, "value": ""}, {"field_id": 1, "value": "High"}, {"field_id": 2, "value": 1e400}]`
	put := w.do(t, "PUT", "/repos/octo-org/hello-world/issues/1/issue-field-values", writer, `{"issue_field_values": `+items+`}`)
	patch := w.do(t, "PATCH", "/repos/octo-org/hello-world/issues/1", writer, `{"issue_field_values": `+items+`}`)
	if put.status != http.StatusUnprocessableEntity || patch.status != put.status {
		t.Fatalf("PUT %d, PATCH %d; want 422 from both", put.status, patch.status)
	}
	var p, q map[string]json.RawMessage
	put.decode(t, &p)
	patch.decode(t, &q)
	delete(p, "documentation_url") // each route's page
	delete(q, "documentation_url")
	if diff := cmp.Diff(string(mustJSON(t, p)), string(mustJSON(t, q))); diff != "" {
		t.Errorf("422 bodies (-PUT +PATCH):\n%s", diff)
	}
}

// TestUpdateDrops checks what is dropped silently: values, labels and
// assignees from a caller without push access, and values in a repository
// that a user owns; the rest applies.
func TestUpdateDrops(t *testing.T) {
	w := newWorld(t)
	const body = `{"title": "Renamed", "labels": ["x"], "assignees": ["y"], "issue_field_values": [{"field_id": 3, "value": "Dropped"}]}`
	before := w.issue(t, "octo-org", "hello-world", 1)
	if a := w.do(t, "PATCH", "/repos/octo-org/hello-world/issues/1", noPush, body); a.status != http.StatusOK {
		t.Fatalf("no push: %d %s; want 200", a.status, a.body)
	}
	after := w.issue(t, "octo-org", "hello-world", 1)
	if after.Title != "Renamed" || len(after.Labels) != 0 || len(after.Assignees) != 0 || !cmp.Equal(before.Values, after.Values) {
		t.Errorf("after a PATCH without push access: %+v", after)
	}
	if a := w.do(t, "PATCH", "/repos/octocat/spoon-knife/issues/1", writer, body); a.status != http.StatusOK {
		t.Fatalf("user's repository: %d %s; want 200", a.status, a.body)
	}
	if is := w.issue(t, "octocat", "spoon-knife", 1); is.Title != "Renamed" || len(is.Values) != 0 || len(is.Labels) != 1 {
		t.Errorf("after a PATCH in a user's repository: %+v", is)
	}
}

// mustJSON encodes v.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
