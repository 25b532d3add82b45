package compat

import (
	"errors"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
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

	t.Run("Create", func(t *testing.T) {
		issue, resp, err := writer.Issues.Create(ctx, "octo-org", "hello-world", github.CreateIssueRequest{
			Title:  "Dark mode",
			Body:   github.Ptr("Please add one."),
			Labels: []string{"feature"},
			IssueFieldValues: []*github.IssueRequestFieldValue{
				{FieldID: 1, Value: "Medium"}, {FieldID: 2, Value: 8}, {FieldID: 3, Value: "2026-09-01"},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusCreated || issue.GetNumber() != 6 || issue.GetTitle() != "Dark mode" ||
			issue.GetUser().GetLogin() != "octocat" || len(issue.Labels) != 1 {
			t.Errorf("status %d, issue %+v; want 201, #6 (after the transferred #5), by octocat", resp.StatusCode, issue)
		}
		if loc := resp.Header.Get("Location"); loc != issue.GetURL() || loc == "" {
			t.Errorf("Location %q; want the issue's url %q", loc, issue.GetURL())
		}
		values, _, err := listValues(ctx, writer, "octo-org", "hello-world", 6, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := []*github.IssueFieldValue{priority(12, "Medium", "yellow"), estimate(8), dueDate("2026-09-01")}
		if diff := cmp.Diff(want, values, ignoreNodeID); diff != "" {
			t.Errorf("values of the new issue (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(values, issue.IssueFieldValues); diff != "" {
			t.Errorf("issue_field_values (-values list +issue):\n%s", diff)
		}
	})

	t.Run("ListByRepo", func(t *testing.T) {
		issues, resp, err := writer.Issues.ListByRepo(ctx, "octo-org", "hello-world", &github.IssueListByRepoOptions{
			State: "all", Sort: "created", Direction: "asc", ListOptions: github.ListOptions{PerPage: 2}})
		if err != nil {
			t.Fatal(err)
		}
		if len(issues) != 2 || issues[0].GetNumber() != 1 || resp.NextPage != 2 || resp.LastPage != 2 {
			t.Fatalf("first page: %d issues, next %d, last %d; want 2 from #1, next 2, last 2 (#1, #2, #3, #6)", len(issues), resp.NextPage, resp.LastPage)
		}
		values, _, err := listValues(ctx, writer, "octo-org", "hello-world", 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(values, issues[0].IssueFieldValues); diff != "" {
			t.Errorf("#1's issue_field_values in the list (-values list +list):\n%s", diff)
		}
	})

	t.Run("Search", func(t *testing.T) {
		// A value set through the values route is found through the search.
		if _, _, err := setValues(ctx, writer, "octo-org", "roadmap", 2, []*github.IssueRequestFieldValue{
			{FieldID: 4, Value: "Ship the beta"}}); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			token, q string
			want     []string
		}{
			{writerToken, "org:octo-org field.summary:\"Ship the beta\"", []string{"roadmap#2"}},
			{"", "org:octo-org field.summary:\"Ship the beta\"", nil}, // roadmap is private
			{writerToken, "repo:octo-org/hello-world is:issue field.Priority:High", []string{"hello-world#2", "hello-world#1"}},
			{writerToken, "repo:octo-org/hello-world field.Platforms:Linux is:closed", []string{"hello-world#2"}},
		} {
			client := s.client(t, c.token)
			result, _, err := client.Search.Issues(ctx, c.q, &github.SearchOptions{Sort: "created", Order: "desc"})
			if err != nil {
				t.Fatalf("q=%s: %v", c.q, err)
			}
			var found []string
			for _, is := range result.Issues {
				found = append(found, path.Base(is.GetRepositoryURL())+"#"+strconv.Itoa(is.GetNumber()))
			}
			if !slices.Equal(found, c.want) || result.GetTotal() != len(c.want) || result.GetIncompleteResults() {
				t.Errorf("q=%s: %v of %d; want %v", c.q, found, result.GetTotal(), c.want)
			}
		}
		result, _, err := writer.Search.Issues(ctx, "repo:octo-org/roadmap field.Summary:\"Ship the beta\"", nil)
		if err != nil || len(result.Issues) != 1 {
			t.Fatalf("search: %v, %+v", err, result)
		}
		values, _, err := listValues(ctx, writer, "octo-org", "roadmap", 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(values, result.Issues[0].IssueFieldValues); diff != "" {
			t.Errorf("found issue's issue_field_values (-values list +search):\n%s", diff)
		}

		// Search.Issues asks for a preview media type, which the API
		// ignores, so this error is read without wantErrorResponse's check
		// of the request's Accept.
		_, _, err = writer.Search.Issues(ctx, "label:bug", nil)
		var er *github.ErrorResponse
		if !errors.As(err, &er) || er.Response.StatusCode != http.StatusUnprocessableEntity ||
			len(er.Errors) != 1 || !strings.Contains(er.Errors[0].Message, "label:bug") {
			t.Errorf("unknown qualifier: %v; want 422 naming label:bug", err)
		}
	})

	t.Run("Refused", func(t *testing.T) {
		// The same bad items get the same errors from PATCH as from PUT.
		bad := []*github.IssueRequestFieldValue{{FieldID: 1, Value: "Urgent"}, {FieldID: 99, Value: "x"}}
		_, _, err := setValues(ctx, writer, "octo-org", "hello-world", 1, bad)
		put := wantErrorResponse(t, err, http.StatusUnprocessableEntity)
		_, _, err = writer.Issues.Update(ctx, "octo-org", "hello-world", 1, github.UpdateIssueRequest{
			Title: github.Ptr("Never stored"), IssueFieldValues: bad})
		patch := wantErrorResponse(t, err, http.StatusUnprocessableEntity)
		if diff := cmp.Diff(put.Errors, patch.Errors); diff != "" || put.Message != patch.Message {
			t.Errorf("errors (-PUT +PATCH):\n%s", diff)
		}
		issue, _, err := writer.Issues.Get(ctx, "octo-org", "hello-world", 1)
		if err != nil {
			t.Fatal(err)
		}
		if issue.GetTitle() == "Never stored" {
			t.Error("a refused PATCH changed the title")
		}
		// A reader may not update.
		_, _, err = s.client(t, readerToken).Issues.Update(ctx, "octo-org", "hello-world", 1, github.UpdateIssueRequest{Title: github.Ptr("x")})
		wantErrorResponse(t, err, http.StatusForbidden)
	})
}
