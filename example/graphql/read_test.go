package graphql_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/issuefields/issuefields/internal/ids"
)

// The values of issue 1 of octo-org/hello-world, in every form.
const issueValuesQuery = `query($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    issue(number: $number) {
      id databaseId number title state url
      issueFieldValues(first: 25) {
        totalCount
        nodes {
          __typename
          ... on IssueFieldTextValue { id value field { ... on IssueFieldText { name fullDatabaseId } } }
          ... on IssueFieldNumberValue { valueNumber: value field { ... on IssueFieldNumber { name } } }
          ... on IssueFieldDateValue { value }
          ... on IssueFieldSingleSelectValue { value option { id name color } }
          ... on IssueFieldMultiSelectValue { values }
        }
      }
    }
  }
}`

func TestIssueFieldValues(t *testing.T) {
	e := newEnv(t, options{})
	vars := map[string]any{"owner": "octo-org", "name": "hello-world", "number": 1}
	e.expect(t, reader, issueValuesQuery, vars, `{"data":{"repository":{"issue":{
		"id":"`+ids.Issue(1)+`","databaseId":1,"number":1,"title":"Crash when saving a file with a long name","state":"OPEN",
		"url":"https://example.com/octo-org/hello-world/issues/1",
		"issueFieldValues":{"totalCount":5,"nodes":[
			{"__typename":"IssueFieldSingleSelectValue","value":"High","option":{"id":"`+ids.Option("octo-org", 1, 11)+`","name":"High","color":"RED"}},
			{"__typename":"IssueFieldNumberValue","valueNumber":3,"field":{"name":"Estimate"}},
			{"__typename":"IssueFieldDateValue","value":"2026-04-01"},
			{"__typename":"IssueFieldTextValue","id":"`+ids.Value("text", 1, 4)+`","value":"Crash when saving a file with a long name","field":{"name":"Summary","fullDatabaseId":"4"}},
			{"__typename":"IssueFieldMultiSelectValue","values":["Linux","Windows"]}]}}}}}`)
}

// fieldsSelection is what github-mcp-server's list_issue_fields selects.
const fieldsSelection = `issueFields(first: 100) { nodes { __typename
  ... on IssueFieldText { id fullDatabaseId name description dataType visibility }
  ... on IssueFieldNumber { id fullDatabaseId name dataType visibility }
  ... on IssueFieldSingleSelect { id name dataType options { id name description color priority } } } }`

func TestIssueFields(t *testing.T) {
	e := newEnv(t, options{})
	want := `{"nodes":[
		{"__typename":"IssueFieldSingleSelect","id":"` + ids.Field("octo-org", 1) + `","name":"Priority","dataType":"SINGLE_SELECT","options":[
			{"id":"` + ids.Option("octo-org", 1, 11) + `","name":"High","description":null,"color":"RED","priority":0},
			{"id":"` + ids.Option("octo-org", 1, 12) + `","name":"Medium","description":null,"color":"YELLOW","priority":0},
			{"id":"` + ids.Option("octo-org", 1, 13) + `","name":"Low","description":null,"color":"GREEN","priority":0}]},
		{"__typename":"IssueFieldNumber","id":"` + ids.Field("octo-org", 2) + `","fullDatabaseId":"2","name":"Estimate","dataType":"NUMBER","visibility":"ORGANIZATION_MEMBERS_ONLY"},
		{"__typename":"IssueFieldDate"},
		{"__typename":"IssueFieldText","id":"` + ids.Field("octo-org", 4) + `","fullDatabaseId":"4","name":"Summary","description":null,"dataType":"TEXT","visibility":"ORGANIZATION_MEMBERS_ONLY"},
		{"__typename":"IssueFieldMultiSelect"}]}`
	e.expect(t, reader, `{ repository(owner: "octo-org", name: "hello-world") { `+fieldsSelection+` } }`, nil,
		`{"data":{"repository":{"issueFields":`+want+`}}}`)
	e.expect(t, fieldsReader, `{ organization(login: "octo-org") { login `+fieldsSelection+` } }`, nil,
		`{"data":{"organization":{"login":"octo-org","issueFields":`+want+`}}}`)
	// A token that reads the repositories, without the organization
	// permission that GET /orgs/{org}/issue-fields needs.
	got := e.query(t, reader, `{ organization(login: "octo-org") { login issueFields(first: 10) { totalCount } } }`, nil)
	if !strings.Contains(got, `"organization":{"login":"octo-org","issueFields":null}`) || !strings.Contains(got, `"type":"FORBIDDEN","path":["organization","issueFields"]`) ||
		!strings.Contains(got, "issue_fields=read") {
		t.Errorf("organization's fields without the permission: %s", got)
	}
	if a := e.send(t, http.MethodGet, "/orgs/octo-org/issue-fields", reader, ""); a.status != http.StatusForbidden {
		t.Errorf("REST twin: %d, want 403", a.status)
	}
}

func TestIssuesFilteredByFieldValue(t *testing.T) {
	e := newEnv(t, options{})
	const q = `query($filters: [IssueFieldValueFilter!]!, $states: [IssueState!]) {
	  repository(owner: "octo-org", name: "hello-world") {
	    issues(first: 10, states: $states, orderBy: {field: CREATED_AT, direction: DESC}, filterBy: {issueFieldValues: $filters}) {
	      totalCount nodes { number } pageInfo { hasNextPage }
	    }
	  }
	}`
	for _, tt := range []struct {
		filter map[string]any
		want   string
	}{
		{map[string]any{"fieldName": "priority", "singleSelectOptionValue": "high"}, `[{"number":1}]`},
		{map[string]any{"fieldName": "Priority", "singleSelectOptionValue": "Low"}, `[{"number":2}]`},
		{map[string]any{"fieldName": "Estimate", "numberValue": 0.5}, `[{"number":2}]`},
		{map[string]any{"fieldName": "Due date", "dateValue": "2026-04-01"}, `[{"number":1}]`},
		{map[string]any{"fieldName": "Summary", "textValue": "nothing like it"}, `[]`},
		{map[string]any{"fieldName": "No such field", "textValue": "x"}, `[]`},
	} {
		n := strings.Count(tt.want, "number")
		e.expect(t, reader, q, map[string]any{"filters": []any{tt.filter}, "states": []string{"OPEN"}},
			`{"data":{"repository":{"issues":{"totalCount":`+string(rune('0'+n))+`,"nodes":`+tt.want+`,"pageInfo":{"hasNextPage":false}}}}}`)
	}
	// No filter: the open issues, newest first (the demo's are all created
	// at once, so by number).
	e.expect(t, reader, q, map[string]any{"filters": []any{}}, `{"data":{"repository":{"issues":{"totalCount":3,
		"nodes":[{"number":3},{"number":2},{"number":1}],"pageInfo":{"hasNextPage":false}}}}}`)
}

func TestIssuesPages(t *testing.T) {
	e := newEnv(t, options{})
	const q = `query($after: String) { repository(owner: "octo-org", name: "hello-world") {
	  issues(first: 2, after: $after) { nodes { number } pageInfo { hasNextPage endCursor } } } }`
	var page struct {
		Data struct {
			Repository struct {
				Issues struct {
					Nodes    []struct{ Number int }
					PageInfo struct {
						HasNextPage bool
						EndCursor   string
					}
				}
			}
		}
	}
	var numbers []int
	var after any
	for range 3 {
		decode(t, e.query(t, reader, q, map[string]any{"after": after}), &page)
		for _, n := range page.Data.Repository.Issues.Nodes {
			numbers = append(numbers, n.Number)
		}
		if !page.Data.Repository.Issues.PageInfo.HasNextPage {
			break
		}
		after = page.Data.Repository.Issues.PageInfo.EndCursor
	}
	if len(numbers) != 3 || numbers[0] != 1 || numbers[1] != 2 || numbers[2] != 3 {
		t.Errorf("issues page by page: %v, want [1 2 3]", numbers)
	}
}

func TestIssueDetails(t *testing.T) {
	e := newEnv(t, options{})
	e.expect(t, reader, `{ repository(owner: "octo-org", name: "hello-world") { nameWithOwner isPrivate owner { login }
	  issue(number: 1) { author { login } labels(first: 100) { nodes { name } } assignees(first: 100) { nodes { login } }
	    comments { totalCount } parent { id } subIssuesSummary { total completed percentCompleted }
	    closedByPullRequestsReferences(first: 5, includeClosedPrs: true) { totalCount nodes { number } }
	    repository { nameWithOwner } } } }`, nil,
		`{"data":{"repository":{"nameWithOwner":"octo-org/hello-world","isPrivate":false,"owner":{"login":"octo-org"},
		"issue":{"author":{"login":"octocat"},"labels":{"nodes":[]},"assignees":{"nodes":[]},"comments":{"totalCount":0},
		"parent":null,"subIssuesSummary":{"total":0,"completed":0,"percentCompleted":0},
		"closedByPullRequestsReferences":{"totalCount":0,"nodes":[]},"repository":{"nameWithOwner":"octo-org/hello-world"}}}}}`)
}

func TestNodes(t *testing.T) {
	e := newEnv(t, options{})
	e.expect(t, reader, `query($id: ID!) { node(id: $id) { __typename ... on Issue { number } } }`,
		map[string]any{"id": ids.Issue(1)}, `{"data":{"node":{"__typename":"Issue","number":1}}}`)
	got := e.query(t, fieldsReader, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on IssueFieldText { name } ... on IssueFieldSingleSelectOption { name } } }`,
		map[string]any{"ids": []string{ids.Field("octo-org", 4), ids.Option("octo-org", 1, 12), "I_nonsense"}})
	want := `{"data":{"nodes":[{"__typename":"IssueFieldText","id":"` + ids.Field("octo-org", 4) + `","name":"Summary"},` +
		`{"__typename":"IssueFieldSingleSelectOption","id":"` + ids.Option("octo-org", 1, 12) + `","name":"Medium"},null]},` +
		`"errors":[{"type":"NOT_FOUND","path":["nodes",2],"locations":[{"line":1,"column":23}],"message":"Could not resolve to a node with the global id of 'I_nonsense'"}]}`
	if compact(t, got) != compact(t, want) {
		t.Errorf("nodes:\n got %s\nwant %s", got, want)
	}
}

func TestRateLimitAndViewer(t *testing.T) {
	e := newEnv(t, options{})
	got := e.query(t, reader, `{ viewer { login } rateLimit { limit cost remaining used resetAt } }`, nil)
	if !strings.HasPrefix(got, `{"data":{"viewer":{"login":"reader"},"rateLimit":{"limit":5000,"cost":1,"remaining":5000,"used":0,"resetAt":"`) {
		t.Errorf("viewer and rateLimit: %s", got)
	}
}

func TestIntrospection(t *testing.T) {
	e := newEnv(t, options{})
	e.expect(t, reader, `{ __schema { queryType { name } mutationType { name } subscriptionType { name } }
	  __type(name: "IssueFieldValue") { kind name possibleTypes { name } } }`, nil,
		`{"data":{"__schema":{"queryType":{"name":"Query"},"mutationType":{"name":"Mutation"},"subscriptionType":null},
		"__type":{"kind":"UNION","name":"IssueFieldValue","possibleTypes":[{"name":"IssueFieldDateValue"},{"name":"IssueFieldNumberValue"},
		{"name":"IssueFieldSingleSelectValue"},{"name":"IssueFieldTextValue"},{"name":"IssueFieldMultiSelectValue"}]}}}`)
	e.expect(t, reader, `{ __type(name: "SetIssueFieldValueInput") { kind inputFields { name type { kind name ofType { kind name ofType { kind ofType { kind name } } } } } } }`, nil,
		`{"data":{"__type":{"kind":"INPUT_OBJECT","inputFields":[
		{"name":"clientMutationId","type":{"kind":"SCALAR","name":"String","ofType":null}},
		{"name":"issueId","type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"SCALAR","name":"ID","ofType":null}}},
		{"name":"issueFields","type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"LIST","name":null,"ofType":{"kind":"NON_NULL","ofType":{"kind":"INPUT_OBJECT","name":"IssueFieldCreateOrUpdateInput"}}}}}]}}}`)
	// The query that GraphiQL and graphql-js clients send.
	got := e.query(t, reader, introspectionQuery, nil)
	for _, want := range []string{`"name":"setIssueFieldValue"`, `"name":"IssueFieldSingleSelectOption"`, `"name":"include"`} {
		if !strings.Contains(got, want) || strings.Contains(got, `"errors"`) {
			t.Errorf("the introspection query's answer lacks %s, or has errors: %.300s", want, got)
		}
	}
}

// introspectionQuery is graphql-js's getIntrospectionQuery().
const introspectionQuery = `query IntrospectionQuery {
  __schema {
    queryType { name } mutationType { name } subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`

func TestRenamesAndTransfersFollowed(t *testing.T) {
	e := newEnv(t, options{})
	// handbook was docs; issue 5 of hello-world is handbook's issue 8 now;
	// issue 4 was deleted.
	e.expect(t, reader, `{ repository(owner: "octo-org", name: "docs") { nameWithOwner issue(number: 1) { number } } }`, nil,
		`{"data":{"repository":{"nameWithOwner":"octo-org/handbook","issue":{"number":1}}}}`)
	e.expect(t, reader, `{ repository(owner: "octo-org", name: "hello-world") { issue(number: 5) { number repository { name } } } }`, nil,
		`{"data":{"repository":{"issue":{"number":8,"repository":{"name":"handbook"}}}}}`)
	e.expect(t, reader, `{ repository(owner: "octo-org", name: "docs") { issue(number: 1) { number } } }`, nil,
		`{"data":{"repository":{"issue":{"number":1}}}}`)
	got := e.query(t, reader, `{ repository(owner: "octo-org", name: "hello-world") { issue(number: 4) { number } } }`, nil)
	want := `{"data":{"repository":{"issue":null}},"errors":[{"type":"NOT_FOUND","path":["repository","issue"],"locations":[{"line":1,"column":56}],"message":"Could not resolve to an Issue with the number of 4."}]}`
	if got != want {
		t.Errorf("a deleted issue:\n got %s\nwant %s", got, want)
	}
}
