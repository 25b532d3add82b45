package compat

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v92/github"
)

// TestGoGitHubIssues reads and writes issues, with their field values,
// through go-github's own IssuesService and SearchService methods, and checks
// that what they give agrees with the values routes.
func TestGoGitHubIssues(t *testing.T) {
	s := startServer(t)
	writer := s.client(t, writerToken)
	ctx := t.Context()

	t.Run("Get", func(t *testing.T) {
		issue, resp, err := writer.Issues.Get(ctx, "octo-org", "hello-world", 1)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || issue.GetNumber() != 1 || issue.GetState() != "open" {
			t.Errorf("status %d, number %d, state %q; want 200, 1, open", resp.StatusCode, issue.GetNumber(), issue.GetState())
		}
		values, listed, err := listValues(ctx, writer, "octo-org", "hello-world", 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(values, issue.IssueFieldValues); diff != "" {
			t.Errorf("issue_field_values (-values list +issue):\n%s", diff)
		}
		if resp.Header.Get("ETag") != listed.Header.Get("ETag") || resp.Header.Get("ETag") == "" {
			t.Errorf("issue's ETag %q, values list's %q; want the same", resp.Header.Get("ETag"), listed.Header.Get("ETag"))
		}
	})

	t.Run("Update", func(t *testing.T) {
		before, _, err := writer.Issues.Get(ctx, "octo-org", "hello-world", 2)
		if err != nil {
			t.Fatal(err)
		}
		issue, resp, err := writer.Issues.Update(ctx, "octo-org", "hello-world", 2, github.UpdateIssueRequest{
			Title: github.Ptr("Slow start-up"),
			State: github.Ptr("closed"),
			IssueFieldValues: []*github.IssueRequestFieldValue{
				{FieldID: 1, Value: "High"},
				{FieldID: 5, Value: []string{"macOS", "Linux"}},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || issue.GetTitle() != "Slow start-up" || issue.GetState() != "closed" ||
			issue.GetStateReason() != "completed" || issue.ClosedAt == nil || issue.GetID() != before.GetID() {
			t.Errorf("status %d, issue %+v; want 200, the new title, closed as completed, the same id", resp.StatusCode, issue)
		}
		values, listed, err := listValues(ctx, writer, "octo-org", "hello-world", 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(values, issue.IssueFieldValues); diff != "" {
			t.Errorf("issue_field_values (-values list +issue):\n%s", diff)
		}
		// The set replaced the values: the estimate is gone.
		want := []*github.IssueFieldValue{priority(11, "High", "red"), platforms("Linux,macOS")}
		if diff := cmp.Diff(want, values, ignoreNodeID); diff != "" {
			t.Errorf("values after the update (-want +got):\n%s", diff)
		}
		if resp.Header.Get("ETag") != listed.Header.Get("ETag") {
			t.Errorf("update's ETag %q, values list's %q; want the same", resp.Header.Get("ETag"), listed.Header.Get("ETag"))
		}
		got, _, err := writer.Issues.Get(ctx, "octo-org", "hello-world", 2)
		if err != nil {
			t.Fatal(err)
		}
		if got.GetTitle() != "Slow start-up" || got.GetState() != "closed" {
			t.Errorf("issue read back: title %q, state %q", got.GetTitle(), got.GetState())
		}
	})
}
