package compat

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestIssueObjectConformsToGitHubSchema checks the issue objects that the
// issue routes answer (one with values, labels, assignees, closed, and one
// without any) against GitHub's webhooks_issue schema, whose properties are
// the REST issue's, with kin-openapi.
func TestIssueObjectConformsToGitHubSchema(t *testing.T) {
	doc := loadSpec(t)
	schema := schemaOf(t, doc, "webhooks_issue")
	s := startServer(t)
	patched := call(t, s, writerToken, http.MethodPatch, "repos/octo-org/hello-world/issues/1",
		`{"state": "closed", "labels": ["bug"], "assignees": ["octocat", "hubot"], "body": "Steps to reproduce"}`)
	created := call(t, s, writerToken, http.MethodPost, "repos/octo-org/hello-world/issues", `{"title": "Bare"}`)
	for name, a := range map[string]apiAnswer{
		"GET":   call(t, s, writerToken, http.MethodGet, "repos/octo-org/hello-world/issues/1", ""),
		"PATCH": patched,
		"POST":  created,
		"plain": call(t, s, writerToken, http.MethodGet, "repos/octo-org/roadmap/issues/2", ""),
	} {
		if a.status != http.StatusOK && a.status != http.StatusCreated {
			t.Errorf("%s: %d %s", name, a.status, a.body)
			continue
		}
		if !strings.Contains(string(a.body), `"issue_field_values":[`) {
			t.Errorf("%s: no issue_field_values array: %s", name, a.body)
		}
		if err := conforms(schema, a.body); err != nil {
			t.Errorf("%s: the issue does not match GitHub's webhooks_issue schema: %v\n%s", name, err, a.body)
		}
	}
	// The items of a list and of a search are issue objects too.
	search := call(t, s, writerToken, http.MethodGet, "search/issues?q=org:octo-org", "")
	list := call(t, s, writerToken, http.MethodGet, "repos/octo-org/hello-world/issues?state=all", "")
	var found struct {
		Items []json.RawMessage `json:"items"`
	}
	var listed []json.RawMessage
	if err := json.Unmarshal(search.body, &found); err != nil || len(found.Items) == 0 {
		t.Fatalf("search: %d %s", search.status, search.body)
	}
	if err := json.Unmarshal(list.body, &listed); err != nil || len(listed) == 0 {
		t.Fatalf("list: %d %s", list.status, list.body)
	}
	for i, item := range append(found.Items, listed...) {
		if err := conforms(schema, item); err != nil {
			t.Errorf("item %d of the search and the list: %v\n%s", i, err, item)
		}
	}
}
