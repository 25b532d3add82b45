package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestGraphQLMutationSeenByAnotherServer starts two servers on one
// database: a setIssueFieldValue on the first is what the second's GraphQL
// and REST show next, and the node ids that the first gave work on the
// second.
func TestGraphQLMutationSeenByAnotherServer(t *testing.T) {
	dsn := newDatabase(t)
	first := start(t, "-postgres", dsn)
	second := start(t, "-postgres", dsn)
	gql := func(r *running, query string, vars map[string]any, out any) {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
		status, answer := do(t, http.MethodPost, r.base+"graphql", "demo-writer-token", string(body))
		if status != http.StatusOK || strings.Contains(answer, `"errors"`) {
			t.Fatalf("POST %sgraphql: %d %s", r.base, status, answer)
		}
		if err := json.Unmarshal([]byte(answer), out); err != nil {
			t.Fatal(err)
		}
	}
	var ids struct {
		Data struct {
			Repository struct {
				Issue       struct{ ID string }
				IssueFields struct {
					Nodes []struct{ ID, Name string }
				}
			}
		}
	}
	const idsQuery = `{ repository(owner: "octo-org", name: "hello-world") { issue(number: 1) { id }
	  issueFields(first: 10) { nodes { ... on IssueFieldText { id name } } } } }`
	gql(first, idsQuery, nil, &ids)
	var summary string
	for _, f := range ids.Data.Repository.IssueFields.Nodes {
		if f.Name == "Summary" {
			summary = f.ID
		}
	}
	_, before, header := exchange(t, http.MethodGet, valuesURL(second, "octo-org/hello-world", 1), "demo-reader-token", "", nil)
	var set struct{ Data map[string]any }
	gql(first, `mutation($input: SetIssueFieldValueInput!) { setIssueFieldValue(input: $input) { issue { id } } }`,
		map[string]any{"input": map[string]any{"issueId": ids.Data.Repository.Issue.ID,
			"issueFields": []any{map[string]any{"fieldId": summary, "textValue": "Written on the first server"}}}}, &set)

	var read struct {
		Data struct {
			Node struct {
				IssueFieldValues struct {
					Nodes []struct {
						Value string
						Field struct{ Name string }
					}
				}
			}
		}
	}
	gql(second, `query($id: ID!) { node(id: $id) { ... on Issue { issueFieldValues(first: 25) { nodes {
	  ... on IssueFieldTextValue { value field { ... on IssueFieldText { name } } } } } } } }`,
		map[string]any{"id": ids.Data.Repository.Issue.ID}, &read)
	var got []string
	for _, v := range read.Data.Node.IssueFieldValues.Nodes {
		if v.Field.Name != "" {
			got = append(got, v.Field.Name+"="+v.Value)
		}
	}
	if strings.Join(got, " ") != "Summary=Written on the first server" {
		t.Errorf("the second server's GraphQL shows %v, want the first server's write", got)
	}
	status, after, afterHeader := exchange(t, http.MethodGet, valuesURL(second, "octo-org/hello-world", 1), "demo-reader-token", "", nil)
	if status != http.StatusOK || !strings.Contains(after, `"value":"Written on the first server"`) || after == before ||
		afterHeader.Get("ETag") == header.Get("ETag") {
		t.Errorf("the second server's REST list: %d %s (ETag %q, before %q)", status, after, afterHeader.Get("ETag"), header.Get("ETag"))
	}
}
