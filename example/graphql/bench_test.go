package graphql_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/issuefields/issuefields/internal/ids"
)

// The benchmarks measure GraphQL beside its REST twin in the process, on
// the demo data: the read of an issue's values, and a write of values.

// valuesRead is github-mcp-server's query of an issue's values.
const valuesRead = `query($owner: String!, $repo: String!, $number: Int!) { repository(owner: $owner, name: $repo) { issue(number: $number) {
  issueFieldValues(first: 25) { nodes { __typename
    ... on IssueFieldDateValue { field { ... on IssueFieldDate { name fullDatabaseId } ... on IssueFieldNumber { name fullDatabaseId } ... on IssueFieldSingleSelect { name fullDatabaseId } ... on IssueFieldText { name fullDatabaseId } } value }
    ... on IssueFieldNumberValue { field { ... on IssueFieldDate { name fullDatabaseId } ... on IssueFieldNumber { name fullDatabaseId } ... on IssueFieldSingleSelect { name fullDatabaseId } ... on IssueFieldText { name fullDatabaseId } } valueNumber: value }
    ... on IssueFieldSingleSelectValue { field { ... on IssueFieldDate { name fullDatabaseId } ... on IssueFieldNumber { name fullDatabaseId } ... on IssueFieldSingleSelect { name fullDatabaseId } ... on IssueFieldText { name fullDatabaseId } } value }
    ... on IssueFieldTextValue { field { ... on IssueFieldDate { name fullDatabaseId } ... on IssueFieldNumber { name fullDatabaseId } ... on IssueFieldSingleSelect { name fullDatabaseId } ... on IssueFieldText { name fullDatabaseId } } value } } } } } }`

func benchmark(b *testing.B, method, path, body string) {
	e := newEnv(b, options{})
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+writer)
		w := httptest.NewRecorder()
		e.h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
}

func BenchmarkRESTRead(b *testing.B) { benchmark(b, http.MethodGet, valuesPath, "") }

func BenchmarkGraphQLRead(b *testing.B) {
	body, _ := json.Marshal(map[string]any{"query": valuesRead, "variables": map[string]any{"owner": "octo-org", "repo": "hello-world", "number": 1}})
	benchmark(b, http.MethodPost, "/graphql", string(body))
}

func BenchmarkRESTWrite(b *testing.B) {
	benchmark(b, http.MethodPost, valuesPath, `{"issue_field_values":[{"field_id":4,"value":"x"},{"field_id":2,"value":1}]}`)
}

func BenchmarkGraphQLWrite(b *testing.B) {
	body, _ := json.Marshal(map[string]any{"query": setValues, "variables": map[string]any{"input": map[string]any{
		"issueId": ids.Issue(1), "issueFields": []any{
			map[string]any{"fieldId": ids.Field("octo-org", 4), "textValue": "x"},
			map[string]any{"fieldId": ids.Field("octo-org", 2), "numberValue": 1}}}}})
	benchmark(b, http.MethodPost, "/graphql", string(body))
}
