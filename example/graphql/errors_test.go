package graphql_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

func TestValidationErrorsInGitHubsWords(t *testing.T) {
	e := newEnv(t, options{})
	for _, tt := range []struct {
		query, want string
	}{
		{`{ repository(owner: "octo-org", name: "hello-world") { issue(number: 1) { issueFieldValuez } } }`,
			`{"errors":[{"extensions":{"code":"undefinedField","typeName":"Issue","fieldName":"issueFieldValuez"},"path":["query","repository","issue","issueFieldValuez"],"locations":[{"line":1,"column":75}],"message":"Field 'issueFieldValuez' doesn't exist on type 'Issue'"}]}`},
		{`{ repository(owner: "octo-org", name: "hello-world", color: 1) { id } }`,
			`{"errors":[{"extensions":{"code":"argumentNotAccepted","name":"repository","typeName":"Field","argumentName":"color"},"path":["query","repository"],"locations":[{"line":1,"column":3}],"message":"Field 'repository' doesn't accept argument 'color'"}]}`},
		{`{ repository(owner: "octo-org") { id } }`,
			`{"errors":[{"extensions":{"code":"missingRequiredArguments","className":"Field","name":"repository","arguments":"name"},"path":["query","repository"],"locations":[{"line":1,"column":3}],"message":"Field 'repository' is missing required arguments: name"}]}`},
		{`{ repository(owner: "octo-org", name: "x") { id `,
			`{"errors":[{"extensions":{"code":"parseError"},"locations":[{"line":1,"column":49}],"message":"Expected Name, found <EOF>"}]}`},
	} {
		got := e.query(t, reader, tt.query, nil)
		if compact(t, got) != compact(t, tt.want) {
			t.Errorf("%s\n got %s\nwant %s", tt.query, got, tt.want)
		}
	}
}

func TestRequests(t *testing.T) {
	e := newEnv(t, options{})
	const q = `{"query":"{ viewer { login } }"}`
	if a := e.send(t, http.MethodPost, "/graphql", "", q); a.status != http.StatusUnauthorized || !strings.Contains(a.body, "Requires authentication") {
		t.Errorf("without a token: %d %s, want 401", a.status, a.body)
	}
	for _, body := range []string{`not json`, `[]`, `{"variables":{}}`, `{"query":1}`, `{"query":"{ viewer { login } }","variables":[]}`,
		`{"query":"{ viewer { login } }","query":"{ viewer { id } }"}`} {
		if a := e.send(t, http.MethodPost, "/graphql", reader, body); a.status != http.StatusBadRequest {
			t.Errorf("body %s: %d %s, want 400", body, a.status, a.body)
		}
	}
	a := e.send(t, http.MethodPost, "/graphql", reader, q, "GraphQL-Features", "issue_fields, repo_issue_fields")
	if a.status != http.StatusOK || a.body != `{"data":{"viewer":{"login":"reader"}}}`+"\n" || a.header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("with GraphQL-Features: %d %q %s", a.status, a.header.Get("Content-Type"), a.body)
	}
	a = e.send(t, http.MethodPost, "/graphql", reader, `{"query":"query A { viewer { login } } query B { viewer { id } }","operationName":"A"}`)
	if a.body != `{"data":{"viewer":{"login":"reader"}}}`+"\n" {
		t.Errorf("operationName A: %s", a.body)
	}
	a = e.send(t, http.MethodPost, "/graphql", reader, `{"query":"query($n: Int!) { viewer { login } }","variables":{}}`)
	if !strings.Contains(a.body, `"errors"`) || strings.Contains(a.body, `"data"`) {
		t.Errorf("a missing variable: %s", a.body)
	}
}

func TestPrimaryRateLimit(t *testing.T) {
	e := newEnv(t, options{rateLimited: func(ctx context.Context) (string, bool) {
		return "API rate limit exceeded for user ID 1.", true
	}})
	got := e.query(t, reader, `{ viewer { login } }`, nil)
	want := `{"errors":[{"type":"RATE_LIMITED","locations":[],"message":"API rate limit exceeded for user ID 1."}]}`
	if got != want {
		t.Errorf("spent budget:\n got %s\nwant %s", got, want)
	}
}

// Each bound of a query, as GitHub's: over it nothing runs, and the
// message names the query's own connection and numbers.

func TestBoundFirstOrLastRequired(t *testing.T) {
	e := newEnv(t, options{})
	expectBound(t, e, `{ repository(owner: "octo-org", name: "hello-world") { issues { nodes { number } } } }`,
		"You must provide a `first` or `last` value to properly paginate the `issues` connection.")
	// totalCount alone needs no first.
	e.expect(t, reader, `{ repository(owner: "octo-org", name: "hello-world") { issues { totalCount } issue(number: 1) { comments { totalCount } } } }`, nil,
		`{"data":{"repository":{"issues":{"totalCount":3},"issue":{"comments":{"totalCount":0}}}}}`)
}

func TestBoundFirstAtMost100(t *testing.T) {
	e := newEnv(t, options{})
	expectBound(t, e, `{ repository(owner: "octo-org", name: "hello-world") { issue(number: 1) { issueFieldValues(first: 101) { nodes { __typename } } } } }`,
		"Requesting 101 records on the `issueFieldValues` connection exceeds the `first` limit of 100 records.")
	expectBound(t, e, `{ repository(owner: "octo-org", name: "hello-world") { issues(last: 0) { edges { cursor } } } }`,
		"Requesting 0 records on the `issues` connection is below the `last` minimum of 1 record.")
}

func TestBoundNodeIDs(t *testing.T) {
	e := newEnv(t, options{})
	list := strings.TrimSuffix(strings.Repeat(`"I_x",`, 101), ",")
	expectBound(t, e, `{ nodes(ids: [`+list+`]) { id } }`, "You may not request more than 100 node IDs; you requested 101.")
}

func TestBoundNodes(t *testing.T) {
	e := newEnv(t, options{})
	expectBound(t, e, `{ repository(owner: "octo-org", name: "hello-world") { issues(first: 100) { nodes { repository {
	  issues(first: 100) { nodes { issueFieldValues(first: 50) { nodes { __typename } } } } } } } } }`,
		"By the time this query traverses to the issueFieldValues connection, it is requesting up to 510,100 possible nodes which exceeds the maximum limit of 500,000.")
}

func TestBoundDocumentSize(t *testing.T) {
	e := newEnv(t, options{})
	query := `{ viewer { login } }` + strings.Repeat(" ", 64<<10)
	expectBound(t, e, query, "Query is too large: 65556 bytes exceeds the maximum of 65536 bytes.")
}

func TestBoundDepth(t *testing.T) {
	e := newEnv(t, options{})
	// 13 nested issue { repository } pairs under repository: 28 fields deep.
	query := `{ repository(owner: "octo-org", name: "hello-world") {` +
		strings.Repeat(` issue(number: 1) { repository {`, 13) + ` id` + strings.Repeat(` } }`, 13) + ` } }`
	expectBound(t, e, query, "Query has depth of 28, which exceeds max depth of 25")
}

// expectBound checks that query is refused with one error whose message is
// want, and without data.
func expectBound(t *testing.T, e *env, query, want string) {
	t.Helper()
	var answer struct {
		Data   any `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		}
	}
	got := e.query(t, reader, query, nil)
	decode(t, got, &answer)
	if answer.Data != nil || strings.Contains(got, `"data"`) || len(answer.Errors) != 1 || answer.Errors[0].Message != want {
		t.Errorf("%.120s…\n got %s\nwant the error %q", query, got, want)
	}
}

func TestVariablesCoerced(t *testing.T) {
	e := newEnv(t, options{})
	const q = `query($owner: String!, $number: Int!, $states: [IssueState!]) { repository(owner: $owner, name: "hello-world") {
	  issue(number: $number) { number } issues(states: $states) { totalCount } } }`
	// One state for a list of them, as the specification coerces it.
	e.expect(t, reader, q, map[string]any{"owner": "octo-org", "number": 2, "states": "OPEN"},
		`{"data":{"repository":{"issue":{"number":2},"issues":{"totalCount":3}}}}`)
	for _, tt := range []struct {
		vars map[string]any
		want string
	}{
		{map[string]any{"number": 2}, "Variable $owner of type String! was provided invalid value (Expected value to not be null)"},
		{map[string]any{"owner": "octo-org", "number": 2.5}, "Variable $number of type Int! was provided invalid value (Could not coerce value 2.5 to Int)"},
		{map[string]any{"owner": "octo-org", "number": 1, "states": []any{"OPEN", "GONE"}}, `Variable $states of type [IssueState!] was provided invalid value for 1 (Expected "GONE" to be one of: CLOSED, OPEN)`},
	} {
		got := e.query(t, reader, q, tt.vars)
		var a struct {
			Errors []struct {
				Message    string
				Extensions map[string]string
			}
		}
		decode(t, got, &a)
		if strings.Contains(got, `"data"`) || len(a.Errors) != 1 || a.Errors[0].Message != tt.want || a.Errors[0].Extensions["code"] != "variableMismatch" {
			t.Errorf("%v: %s, want %q", tt.vars, got, tt.want)
		}
	}
}

func TestFieldsMerged(t *testing.T) {
	e := newEnv(t, options{})
	// One response name selected twice merges its selections; a fragment
	// on the union applies by type.
	e.expect(t, reader, `{ repository(owner: "octo-org", name: "hello-world") { issue(number: 2) { number }
	  issue(number: 2) { title } ... on Repository { issue(number: 2) { state } } } }`, nil,
		`{"data":{"repository":{"issue":{"number":2,"title":"Add a dark theme","state":"OPEN"}}}}`)
	e.expect(t, reader, `query { ... R } fragment R on Query { viewer { login } v: viewer { __typename } }`, nil,
		`{"data":{"viewer":{"login":"reader"},"v":{"__typename":"User"}}}`)
}

// TestBoundsOfVariables checks that a bound given by a variable is checked
// for each request's value, the document being the same.
func TestBoundsOfVariables(t *testing.T) {
	e := newEnv(t, options{})
	const q = `query($first: Int) { repository(owner: "octo-org", name: "hello-world") { issues(first: $first) { nodes { number } } } }`
	if got := e.query(t, reader, q, map[string]any{"first": 101}); !strings.Contains(got, "Requesting 101 records on the `issues` connection exceeds the `first` limit of 100 records.") {
		t.Errorf("first 101: %s", got)
	}
	e.expect(t, reader, q, map[string]any{"first": 1}, `{"data":{"repository":{"issues":{"nodes":[{"number":1}]}}}}`)
	if got := e.query(t, reader, q, nil); !strings.Contains(got, "You must provide a `first` or `last` value") {
		t.Errorf("no first: %s", got)
	}
}
