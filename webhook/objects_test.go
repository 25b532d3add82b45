package webhook_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/ids"
	"github.com/issuefields/issuefields/webhook"
)

// TestObjectsIssue checks the issue object that Objects builds from an
// issue's record: its ids, its URLs under BaseURL and WebURL, the record's
// fields, labels and assignees as objects, and issue_field_values as given,
// or left out.
func TestObjectsIssue(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	updated := created.Add(time.Hour)
	repo := issuefields.Repository{ID: 9, Owner: "octo-org", Name: "hello-world", OwnedByOrganization: true}
	snap := issuefields.Snapshot{Repository: repo, Issue: issuefields.Issue{Repository: repo, Number: 12, ID: 345,
		Title: "Ship it", Body: "Soon.", State: "closed", StateReason: "not_planned", Labels: []string{"bug", "Good First Issue"},
		Assignees: []string{"hubot", "octocat"}, Author: "octocat", CreatedAt: created, UpdatedAt: updated}}
	o := webhook.Objects{BaseURL: "https://api.example.com/api/v3/", WebURL: "https://example.com"}
	values := json.RawMessage(`[{"issue_field_id":1}]`)
	var got map[string]any
	body, err := json.Marshal(o.Issue(snap, values))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	checkMembers(t, got, map[string]any{
		"id":                   345.0,
		"node_id":              ids.Issue(345),
		"number":               12.0,
		"url":                  "https://api.example.com/api/v3/repos/octo-org/hello-world/issues/12",
		"repository_url":       "https://api.example.com/api/v3/repos/octo-org/hello-world",
		"html_url":             "https://example.com/octo-org/hello-world/issues/12",
		"title":                "Ship it",
		"body":                 "Soon.",
		"state":                "closed",
		"state_reason":         "not_planned",
		"created_at":           created.Format(time.RFC3339),
		"updated_at":           updated.Format(time.RFC3339),
		"closed_at":            updated.Format(time.RFC3339),
		"user.login":           "octocat",
		"author_association":   "NONE",
		"milestone":            nil,
		"locked":               false,
		"comments":             0.0,
		"assignee.login":       "hubot",
		"issue_field_values":   []any{map[string]any{"issue_field_id": 1.0}},
		"labels.0.name":        "bug",
		"labels.1.name":        "Good First Issue",
		"labels.1.node_id":     ids.Label(9, "good first issue"),
		"labels.1.id":          float64(ids.LabelID(9, "Good First Issue")),
		"labels.1.url":         "https://api.example.com/api/v3/repos/octo-org/hello-world/labels/Good%20First%20Issue",
		"labels.1.color":       "ededed",
		"labels.1.default":     false,
		"labels.1.description": nil,
		"assignees.1.login":    "octocat",
		"assignees.1.node_id":  ids.Account(ids.KindUser, "octocat"),
		"assignees.1.id":       float64(ids.AccountID("octocat")),
	})

	bare := issuefields.Snapshot{Repository: repo, Issue: issuefields.Issue{Repository: repo, Number: 3, ID: 4, UpdatedAt: updated}}
	body, err = json.Marshal(o.Issue(bare, nil))
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	checkMembers(t, got, map[string]any{
		"title":              "Issue #3",
		"body":               nil,
		"state":              "open",
		"state_reason":       nil,
		"closed_at":          nil,
		"created_at":         updated.Format(time.RFC3339),
		"user.login":         "octo-org",
		"user.type":          "Organization",
		"author_association": "OWNER",
		"assignee":           nil,
		"assignees":          []any{},
		"labels":             []any{},
		"issue_field_values": absent,
	})
}
