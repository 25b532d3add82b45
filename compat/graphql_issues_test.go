package compat

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-github/v92/github"
	"github.com/shurcooL/githubv4"
)

// The tools of github-mcp-server that read and write issues with REST and
// GraphQL together: issue_read's get (REST, then one nodes(ids:) query for
// the values, the parent, the closing pull requests and the sub-issues'
// summary), search_issues (REST search, then nodes(ids:) for the values) and
// issue_write (the fields' ids by GraphQL, the values by REST, the state by
// closeIssue and reopenIssue).

// pullRequestRef is what issue_read reads of a closing pull request and of
// the parent.
type pullRequestRef struct {
	Number     githubv4.Int
	Title      githubv4.String
	State      githubv4.String
	URL        githubv4.String
	Author     struct{ Login githubv4.String }
	Repository struct{ NameWithOwner githubv4.String }
}

// issueReadEnrichment is issue_read's query.
type issueReadEnrichment struct {
	Nodes []struct {
		Issue struct {
			ID                             githubv4.ID
			IssueFieldValues               struct{ Nodes []valueNode } `graphql:"issueFieldValues(first: 25)"`
			Parent                         *pullRequestRef
			ClosedByPullRequestsReferences struct {
				TotalCount githubv4.Int
				Nodes      []pullRequestRef
			} `graphql:"closedByPullRequestsReferences(first: 5, includeClosedPrs: true, orderByState: true)"`
			SubIssuesSummary struct {
				Total, Completed, PercentCompleted githubv4.Int
			}
		} `graphql:"... on Issue"`
	} `graphql:"nodes(ids: $ids)"`
}

// searchNodes is search_issues' query of the found issues' values.
type searchNodes struct {
	Nodes []struct {
		Issue struct {
			ID               githubv4.ID
			IssueFieldValues struct{ Nodes []valueNode } `graphql:"issueFieldValues(first: 25)"`
		} `graphql:"... on Issue"`
	} `graphql:"nodes(ids: $ids)"`
}

// restShown returns values, an issue's values as REST gives them, as
// valueNode.shown writes them, but for multi_select values, which the
// tools' fragments do not ask for; fields names a field's name by its id.
func restShown(values []*github.IssueFieldValue, fields map[int64]string) []string {
	var out []string
	for _, v := range values {
		switch x := v.Value.(type) {
		case string:
			if v.DataType != "multi_select" {
				if v.SingleSelectOption != nil {
					x = v.SingleSelectOption.Name
				}
				out = append(out, fields[v.IssueFieldID]+"="+x)
			}
		case float64:
			if v.DataType == "single_select" {
				out = append(out, fields[v.IssueFieldID]+"="+v.SingleSelectOption.Name)
			} else {
				out = append(out, fields[v.IssueFieldID]+"="+strconv.FormatFloat(x, 'g', -1, 64))
			}
		}
	}
	return out
}

// shownAll returns nodes as valueNode.shown writes them, without the types
// that the fragments do not ask for.
func shownAll(nodes []valueNode) []string {
	var out []string
	for _, n := range nodes {
		if n.TypeName != "IssueFieldMultiSelectValue" {
			out = append(out, n.shown())
		}
	}
	return out
}

// testFieldNames are testData's fields by id.
var testFieldNames = map[int64]string{1: "Priority", 2: "Estimate", 3: "Due date", 4: "Summary", 5: "Platforms"}

func TestGraphQLIssueRead(t *testing.T) {
	eachStore(t, func(t *testing.T, s *server) {
		ctx := context.Background()
		issue, _, err := s.client(t, readerToken).Issues.Get(ctx, "octo-org", "hello-world", 1)
		if err != nil {
			t.Fatal(err)
		}
		var q issueReadEnrichment
		if err := s.gqlClient(t, readerToken).Query(ctx, &q, map[string]any{"ids": []githubv4.ID{githubv4.ID(issue.GetNodeID())}}); err != nil {
			t.Fatal(err)
		}
		if len(q.Nodes) != 1 || q.Nodes[0].Issue.ID != issue.GetNodeID() {
			t.Fatalf("nodes: %+v, want the issue %s", q.Nodes, issue.GetNodeID())
		}
		n := q.Nodes[0].Issue
		got, want := strings.Join(shownAll(n.IssueFieldValues.Nodes), " "), strings.Join(restShown(issue.IssueFieldValues, testFieldNames), " ")
		if got != want || got != "Priority=High Estimate=3 Due date=2026-04-01 Summary=Crash when saving a file with a long name" {
			t.Errorf("values over GraphQL %q, over REST %q", got, want)
		}
		if n.Parent != nil || n.ClosedByPullRequestsReferences.TotalCount != 0 || len(n.ClosedByPullRequestsReferences.Nodes) != 0 ||
			n.SubIssuesSummary.Total != 0 || n.SubIssuesSummary.PercentCompleted != 0 {
			t.Errorf("relations: parent %+v, closing %+v, sub-issues %+v; want none", n.Parent, n.ClosedByPullRequestsReferences, n.SubIssuesSummary)
		}
	})
}

func TestGraphQLSearchIssues(t *testing.T) {
	eachStore(t, func(t *testing.T, s *server) {
		ctx := context.Background()
		result, _, err := s.client(t, readerToken).Search.Issues(ctx, "repo:octo-org/hello-world is:issue field.priority:Low", nil)
		if err != nil {
			t.Fatal(err)
		}
		if result.GetTotal() != 1 || len(result.Issues) != 1 || result.Issues[0].GetNumber() != 2 {
			t.Fatalf("search: %d issues %+v, want issue 2", result.GetTotal(), result.Issues)
		}
		ids := []githubv4.ID{}
		for _, is := range result.Issues {
			ids = append(ids, githubv4.ID(is.GetNodeID()))
		}
		var q searchNodes
		if err := s.gqlClient(t, readerToken).Query(ctx, &q, map[string]any{"ids": ids}); err != nil {
			t.Fatal(err)
		}
		if len(q.Nodes) != 1 || q.Nodes[0].Issue.ID != result.Issues[0].GetNodeID() {
			t.Fatalf("nodes: %+v", q.Nodes)
		}
		if got := strings.Join(shownAll(q.Nodes[0].Issue.IssueFieldValues.Nodes), " "); got != "Priority=Low Estimate=0.5" {
			t.Errorf("issue 2's values over GraphQL: %q", got)
		}
	})
}

// writeMetadata is issue_write's query of the fields it resolves names with.
type writeMetadata struct {
	Repository struct {
		IssueFields struct {
			Nodes []struct {
				TypeName githubv4.String `graphql:"__typename"`
				Text     struct {
					FullDatabaseID githubv4.String `graphql:"fullDatabaseId"`
					Name, DataType githubv4.String
				} `graphql:"... on IssueFieldText"`
				Number struct {
					FullDatabaseID githubv4.String `graphql:"fullDatabaseId"`
					Name, DataType githubv4.String
				} `graphql:"... on IssueFieldNumber"`
				Date struct {
					FullDatabaseID githubv4.String `graphql:"fullDatabaseId"`
					Name, DataType githubv4.String
				} `graphql:"... on IssueFieldDate"`
				SingleSelect struct {
					FullDatabaseID githubv4.String `graphql:"fullDatabaseId"`
					Name, DataType githubv4.String
					Options        []struct {
						FullDatabaseID githubv4.String `graphql:"fullDatabaseId"`
						Name           githubv4.String
					}
				} `graphql:"... on IssueFieldSingleSelect"`
			}
		} `graphql:"issueFields(first: 100)"`
	} `graphql:"repository(owner: $owner, name: $repo)"`
}

// existingValues is issue_write's query of an issue's values before it
// merges the new ones in.
type existingValues struct {
	Repository struct {
		Issue struct {
			IssueFieldValues struct{ Nodes []valueNode } `graphql:"issueFieldValues(first: 25)"`
		} `graphql:"issue(number: $number)"`
	} `graphql:"repository(owner: $owner, name: $repo)"`
}

// CloseIssueInput is github-mcp-server's own, with the duplicate's id,
// named as GitHub's input type.
type CloseIssueInput struct {
	IssueID          githubv4.ID      `json:"issueId"`
	ClientMutationID *githubv4.String `json:"clientMutationId,omitempty"`
	StateReason      *string          `json:"stateReason,omitempty"`
	DuplicateIssueID *githubv4.ID     `json:"duplicateIssueId,omitempty"`
}

// stateMutationIssue is what issue_write reads back of a state change.
type stateMutationIssue struct {
	ID     githubv4.ID
	Number githubv4.Int
	URL    githubv4.String
	State  githubv4.String
}

func TestGraphQLIssueWrite(t *testing.T) {
	eachStore(t, func(t *testing.T, s *server) {
		ctx := context.Background()
		gql, rest := s.gqlClient(t, writerToken), s.client(t, writerToken)
		repoVars := map[string]any{"owner": githubv4.String("octo-org"), "repo": githubv4.String("hello-world")}
		var meta writeMetadata
		if err := gql.Query(ctx, &meta, repoVars); err != nil {
			t.Fatal(err)
		}
		ids, options := map[string]int64{}, map[string]string{}
		for _, n := range meta.Repository.IssueFields.Nodes {
			for _, f := range []struct{ id, name string }{{string(n.Text.FullDatabaseID), string(n.Text.Name)},
				{string(n.Number.FullDatabaseID), string(n.Number.Name)}, {string(n.Date.FullDatabaseID), string(n.Date.Name)},
				{string(n.SingleSelect.FullDatabaseID), string(n.SingleSelect.Name)}} {
				if f.name != "" {
					ids[f.name], _ = strconv.ParseInt(f.id, 10, 64)
				}
			}
			for _, o := range n.SingleSelect.Options {
				options[string(o.Name)] = string(o.FullDatabaseID)
			}
		}
		if ids["Priority"] != 1 || ids["Estimate"] != 2 || ids["Summary"] != 4 || options["Medium"] != "12" {
			t.Fatalf("resolved field ids %v, options %v", ids, options)
		}

		// Create, with values by the resolved ids (an option by its name, as the
		// REST API takes it).
		created, _, err := rest.Issues.Create(ctx, "octo-org", "hello-world", github.CreateIssueRequest{
			Title: "Written by issue_write",
			IssueFieldValues: []*github.IssueRequestFieldValue{
				{FieldID: ids["Priority"], Value: "Medium"}, {FieldID: ids["Summary"], Value: "Created"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		number := created.GetNumber()

		// Update: the existing values, read over GraphQL, with the new one
		// merged in, written by REST.
		var existing existingValues
		vars := map[string]any{"owner": githubv4.String("octo-org"), "repo": githubv4.String("hello-world"), "number": githubv4.Int(number)}
		if err := gql.Query(ctx, &existing, vars); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(shownAll(existing.Repository.Issue.IssueFieldValues.Nodes), " "); got != "Priority=Medium Summary=Created" {
			t.Errorf("the created issue's values over GraphQL: %q", got)
		}
		merged := []*github.IssueRequestFieldValue{{FieldID: ids["Estimate"], Value: 13}}
		for _, v := range existing.Repository.Issue.IssueFieldValues.Nodes {
			switch v.TypeName {
			case "IssueFieldSingleSelectValue":
				id, _ := strconv.ParseInt(string(v.SingleSelectValue.Field.SingleSelect.FullDatabaseID), 10, 64)
				merged = append(merged, &github.IssueRequestFieldValue{FieldID: id, Value: string(v.SingleSelectValue.Value)})
			case "IssueFieldTextValue":
				id, _ := strconv.ParseInt(string(v.TextValue.Field.Text.FullDatabaseID), 10, 64)
				merged = append(merged, &github.IssueRequestFieldValue{FieldID: id, Value: string(v.TextValue.Value)})
			}
		}
		if _, _, err := rest.Issues.Update(ctx, "octo-org", "hello-world", number, github.UpdateIssueRequest{IssueFieldValues: merged}); err != nil {
			t.Fatal(err)
		}

		// Close as not planned, and reopen, by the mutations.
		var id issueID
		if err := gql.Query(ctx, &id, map[string]any{"owner": githubv4.String("octo-org"), "repo": githubv4.String("hello-world"),
			"issueNumber": githubv4.Int(number)}); err != nil {
			t.Fatal(err)
		}
		var closed struct {
			CloseIssue struct{ Issue stateMutationIssue } `graphql:"closeIssue(input: $input)"`
		}
		reason := "NOT_PLANNED"
		if err := gql.Mutate(ctx, &closed, CloseIssueInput{IssueID: id.Repository.Issue.ID, StateReason: &reason}, nil); err != nil {
			t.Fatal(err)
		}
		if closed.CloseIssue.Issue.State != "CLOSED" || int(closed.CloseIssue.Issue.Number) != number {
			t.Errorf("closeIssue: %+v", closed.CloseIssue.Issue)
		}
		issue, _, err := rest.Issues.Get(ctx, "octo-org", "hello-world", number)
		if err != nil {
			t.Fatal(err)
		}
		if issue.GetState() != "closed" || issue.GetStateReason() != "not_planned" || issue.ClosedAt == nil {
			t.Errorf("over REST after closeIssue: state %q, reason %q, closed at %v", issue.GetState(), issue.GetStateReason(), issue.ClosedAt)
		}
		got := strings.Join(restShown(issue.IssueFieldValues, testFieldNames), " ")
		if got != "Priority=Medium Estimate=13 Summary=Created" {
			t.Errorf("values over REST after the update: %q", got)
		}
		var reopened struct {
			ReopenIssue struct{ Issue stateMutationIssue } `graphql:"reopenIssue(input: $input)"`
		}
		if err := gql.Mutate(ctx, &reopened, githubv4.ReopenIssueInput{IssueID: id.Repository.Issue.ID}, nil); err != nil {
			t.Fatal(err)
		}
		if issue, _, err = rest.Issues.Get(ctx, "octo-org", "hello-world", number); err != nil || issue.GetState() != "open" || issue.GetStateReason() != "reopened" {
			t.Errorf("over REST after reopenIssue: %v, state %q, reason %q", err, issue.GetState(), issue.GetStateReason())
		}
	})
}
