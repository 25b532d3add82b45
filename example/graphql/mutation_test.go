package graphql_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/ids"
)

const setValues = `mutation($input: SetIssueFieldValueInput!) {
  setIssueFieldValue(input: $input) { issue { id url } clientMutationId }
}`

// valuesPath is the REST values list of issue 1 of octo-org/hello-world.
const valuesPath = "/repos/octo-org/hello-world/issues/1/issue-field-values"

func TestSetIssueFieldValue(t *testing.T) {
	e := newEnv(t, options{})
	before := e.send(t, http.MethodGet, valuesPath, writer, "")
	e.expect(t, writer, setValues, map[string]any{"input": map[string]any{
		"issueId": ids.Issue(1), "clientMutationId": "m1",
		"issueFields": []any{
			map[string]any{"fieldId": ids.Field("octo-org", 4), "textValue": "Saved by GraphQL", "rationale": "ignored", "confidence": "HIGH", "suggest": false},
			map[string]any{"fieldId": ids.Field("octo-org", 2), "numberValue": 8},
			map[string]any{"fieldId": ids.Field("octo-org", 3), "dateValue": "2027-01-31"},
			map[string]any{"fieldId": ids.Field("octo-org", 1), "singleSelectOptionId": ids.Option("octo-org", 1, 13)},
			map[string]any{"fieldId": ids.Field("octo-org", 5), "delete": true},
		}}}, `{"data":{"setIssueFieldValue":{"issue":{"id":"`+ids.Issue(1)+`","url":"https://example.com/octo-org/hello-world/issues/1"},"clientMutationId":"m1"}}}`)
	after := e.send(t, http.MethodGet, valuesPath, writer, "")
	for _, want := range []string{`"issue_field_id":4,"issue_field_name":"Summary","node_id":"` + ids.Value("text", 1, 4) + `","data_type":"text","value":"Saved by GraphQL"`,
		`"issue_field_id":2,"issue_field_name":"Estimate","node_id":"` + ids.Value("number", 1, 2) + `","data_type":"number","value":8`,
		`"data_type":"date","value":"2027-01-31"`, `"single_select_option":{"id":13,"name":"Low","color":"green"}`} {
		if !strings.Contains(after.body, want) {
			t.Errorf("REST values after the mutation lack %s: %s", want, after.body)
		}
	}
	if strings.Contains(after.body, "Platforms") {
		t.Errorf("the deleted value is still there: %s", after.body)
	}
	if et := after.header.Get("ETag"); et == "" || et == before.header.Get("ETag") {
		t.Errorf("ETag %q after the write, %q before: want a new one", et, before.header.Get("ETag"))
	}
	if len(e.events) != 1 || e.events[0].Action != issuefields.ActionAdded || len(e.events[0].Changes) != 5 {
		t.Errorf("events: %+v, want one of 5 changes", e.events)
	}
	// A value written again as it is changes nothing: no event.
	e.query(t, writer, setValues, map[string]any{"input": map[string]any{"issueId": ids.Issue(1),
		"issueFields": []any{map[string]any{"fieldId": ids.Field("octo-org", 2), "numberValue": 8}}}})
	if len(e.events) != 1 {
		t.Errorf("%d events after a write that changed nothing, want 1", len(e.events))
	}
}

func TestSetIssueFieldValueRefused(t *testing.T) {
	e := newEnv(t, options{})
	before := e.send(t, http.MethodGet, valuesPath, writer, "")
	for _, tt := range []struct {
		token string
		items []any
		typ   string
		says  string
	}{
		{writer, []any{map[string]any{"fieldId": ids.Field("octo-org", 4), "textValue": "fine"},
			map[string]any{"fieldId": ids.Field("octo-org", 2), "textValue": "not a number"}}, "UNPROCESSABLE", `Field \"Estimate\" is a number field`},
		{writer, []any{map[string]any{"fieldId": ids.Field("octo-org", 1), "singleSelectOptionId": ids.Option("octo-org", 5, 51)}}, "UNPROCESSABLE", "Priority"},
		{writer, []any{map[string]any{"fieldId": ids.Field("other-org", 4), "textValue": "x"}}, "UNPROCESSABLE", "is not the id of an issue field"},
		{writer, []any{map[string]any{"fieldId": ids.Field("octo-org", 4), "textValue": "x", "dateValue": "2026-01-01"}}, "UNPROCESSABLE", "exactly one"},
		{reader, []any{map[string]any{"fieldId": ids.Field("octo-org", 4), "textValue": "x"}}, "FORBIDDEN", "Resource not accessible"},
		{noPush, []any{map[string]any{"fieldId": ids.Field("octo-org", 4), "textValue": "x"}}, "FORBIDDEN", "Must have push access"},
	} {
		got := e.query(t, tt.token, setValues, map[string]any{"input": map[string]any{"issueId": ids.Issue(1), "issueFields": tt.items}})
		if !strings.HasPrefix(got, `{"data":{"setIssueFieldValue":null},"errors":[{"type":"`+tt.typ+`","path":["setIssueFieldValue"]`) || !strings.Contains(got, tt.says) {
			t.Errorf("%s %v: %s, want %s saying %s", tt.token, tt.items, got, tt.typ, tt.says)
		}
	}
	if after := e.send(t, http.MethodGet, valuesPath, writer, ""); after.body != before.body || len(e.events) != 0 {
		t.Errorf("a refused write changed the values or notified: %s, %d events", after.body, len(e.events))
	}
}

func TestCloseAndReopenIssue(t *testing.T) {
	e := newEnv(t, options{})
	const closeIssue = `mutation($input: CloseIssueInput!) { closeIssue(input: $input) { issue { number state stateReason closed } } }`
	e.expect(t, writer, closeIssue, map[string]any{"input": map[string]any{"issueId": ids.Issue(2), "stateReason": "NOT_PLANNED"}},
		`{"data":{"closeIssue":{"issue":{"number":2,"state":"CLOSED","stateReason":"NOT_PLANNED","closed":true}}}}`)
	e.expect(t, reader, `{ repository(owner: "octo-org", name: "hello-world") { issues(first: 10, states: [CLOSED]) { nodes { number } } } }`, nil,
		`{"data":{"repository":{"issues":{"nodes":[{"number":2}]}}}}`)
	e.expect(t, writer, `mutation { reopenIssue(input: {issueId: "`+ids.Issue(2)+`"}) { issue { state stateReason closedAt } } }`, nil,
		`{"data":{"reopenIssue":{"issue":{"state":"OPEN","stateReason":"REOPENED","closedAt":null}}}}`)
}

// Reopening an issue that is open changes nothing, as PATCH of state open
// changes nothing: no state reason, the same ETag.
func TestReopenAnOpenIssueChangesNothing(t *testing.T) {
	e := newEnv(t, options{})
	before := e.send(t, http.MethodGet, valuesPath, writer, "")
	e.expect(t, writer, `mutation { reopenIssue(input: {issueId: "`+ids.Issue(1)+`"}) { issue { state stateReason } } }`, nil,
		`{"data":{"reopenIssue":{"issue":{"state":"OPEN","stateReason":null}}}}`)
	if after := e.send(t, http.MethodGet, valuesPath, writer, ""); after.header.Get("Etag") != before.header.Get("Etag") {
		t.Errorf("ETag %s after reopening an open issue, want %s", after.header.Get("Etag"), before.header.Get("Etag"))
	}
}

// Closing a closed issue with another reason changes its reason alone, as
// PATCH of state_reason does: it was closed when it was.
func TestCloseAClosedIssueKeepsWhenItClosed(t *testing.T) {
	const data = `{
	  "organizations": [{"login": "octo-org"}],
	  "repositories": [{"owner": "octo-org", "name": "roadmap", "issues": [
	    {"number": 1, "state": "closed", "state_reason": "completed", "created_at": "2020-01-02T03:04:05Z"}]}],
	  "tokens": [{"token": "rw-token", "kind": "fine_grained_pat", "login": "octocat",
	    "repositories": {"octo-org/roadmap": {"issues": "write", "push": true}}}]
	}`
	e := newEnv(t, options{data: data})
	e.expect(t, "rw-token", `mutation { closeIssue(input: {issueId: "`+ids.Issue(1)+`", stateReason: NOT_PLANNED}) { issue { stateReason closedAt } } }`, nil,
		`{"data":{"closeIssue":{"issue":{"stateReason":"NOT_PLANNED","closedAt":"2020-01-02T03:04:05Z"}}}}`)
}

// A token with issues=write and no push access (a triager) closes and
// reopens an issue over GraphQL as PATCH of state lets it, and a reader is
// refused as PATCH refuses it.
func TestCloseIssueNeedsWhatPatchOfStateNeeds(t *testing.T) {
	e := newEnv(t, options{})
	const closeIssue = `mutation($input: CloseIssueInput!) { closeIssue(input: $input) { issue { number state } } }`
	e.expect(t, noPush, closeIssue, map[string]any{"input": map[string]any{"issueId": ids.Issue(2)}},
		`{"data":{"closeIssue":{"issue":{"number":2,"state":"CLOSED"}}}}`)
	e.expect(t, noPush, `mutation { reopenIssue(input: {issueId: "`+ids.Issue(2)+`"}) { issue { state } } }`, nil,
		`{"data":{"reopenIssue":{"issue":{"state":"OPEN"}}}}`)
	got := e.query(t, reader, closeIssue, map[string]any{"input": map[string]any{"issueId": ids.Issue(2)}})
	if !strings.HasPrefix(got, `{"data":{"closeIssue":null},"errors":[{"type":"FORBIDDEN"`) || !strings.Contains(got, "issues=write") {
		t.Errorf("closeIssue by a reader: %s, want FORBIDDEN naming issues=write", got)
	}
}

func TestSecondaryWriteLimit(t *testing.T) {
	e := newEnv(t, options{limits: issuefields.WriteLimits{PerMinute: 2, PerHour: -1}})
	item := func(text string) map[string]any {
		return map[string]any{"input": map[string]any{"issueId": ids.Issue(1),
			"issueFields": []any{map[string]any{"fieldId": ids.Field("octo-org", 4), "textValue": text}}}}
	}
	// Reads count nothing.
	for range 3 {
		e.query(t, writer, `{ viewer { login } }`, nil)
	}
	e.query(t, writer, setValues, item("one"))
	// Two mutations in one document are two writes: over the limit, neither
	// runs.
	body := `{"query":"mutation($a: SetIssueFieldValueInput!) { a: setIssueFieldValue(input: $a) { clientMutationId } b: setIssueFieldValue(input: $a) { clientMutationId } }","variables":{"a":{"issueId":"` +
		ids.Issue(1) + `","issueFields":[{"fieldId":"` + ids.Field("octo-org", 4) + `","textValue":"two"}]}}}`
	a := e.send(t, http.MethodPost, "/graphql", writer, body)
	if a.status != http.StatusOK || !strings.HasPrefix(a.body, `{"data":null,"errors":[{"type":"RATE_LIMITED"`) || !strings.Contains(a.body, "secondary rate limit") ||
		a.header.Get("Retry-After") == "" {
		t.Errorf("two mutations over the limit: %d Retry-After %q %s", a.status, a.header.Get("Retry-After"), a.body)
	}
	if got := e.send(t, http.MethodGet, valuesPath, writer, ""); !strings.Contains(got.body, `"value":"one"`) {
		t.Errorf("values after the refused document: %s", got.body)
	}
}

func TestPermissionsAsREST(t *testing.T) {
	e := newEnv(t, options{})
	// The outsider sees no private repository over REST, and none here:
	// the answer is the one of a repository that does not exist.
	if a := e.send(t, http.MethodGet, "/repos/octo-org/roadmap/issues/1/issue-field-values", outsider, ""); a.status != http.StatusNotFound {
		t.Fatalf("REST: %d, want 404", a.status)
	}
	got := e.query(t, outsider, `{ repository(owner: "octo-org", name: "roadmap") { issue(number: 1) { id } } }`, nil)
	if got != `{"data":{"repository":null},"errors":[{"type":"NOT_FOUND","path":["repository"],"locations":[{"line":1,"column":3}],"message":"Could not resolve to a Repository with the name 'octo-org/roadmap'."}]}` {
		t.Errorf("private repository: %s", got)
	}
	// Nor through its node id, nor its issue's.
	var roadmap struct {
		Data struct {
			Repository struct {
				ID    string
				Issue struct{ ID string }
			}
		}
	}
	decode(t, e.query(t, reader, `{ repository(owner: "octo-org", name: "roadmap") { id issue(number: 1) { id } } }`, nil), &roadmap)
	roadmapIssue := roadmap.Data.Repository.Issue.ID
	for _, id := range []string{roadmap.Data.Repository.ID, roadmapIssue} {
		if id == "" {
			t.Fatal("the reader does not see roadmap")
		}
		got := e.query(t, outsider, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id})
		if !strings.Contains(got, `"node":null`) || !strings.Contains(got, "NOT_FOUND") {
			t.Errorf("node %s: %s", id, got)
		}
		if got := e.query(t, reader, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id}); got != `{"data":{"node":{"id":"`+id+`"}}}` {
			t.Errorf("the reader's node %s: %s", id, got)
		}
	}
	// The reader reads it, as over REST.
	if got := e.query(t, reader, `{ repository(owner: "octo-org", name: "roadmap") { issue(number: 1) { number } } }`, nil); got != `{"data":{"repository":{"issue":{"number":1}}}}` {
		t.Errorf("reader: %s", got)
	}
	// A mutation on an issue the caller cannot see is NOT_FOUND.
	got = e.query(t, outsider, setValues, map[string]any{"input": map[string]any{"issueId": roadmapIssue,
		"issueFields": []any{map[string]any{"fieldId": ids.Field("octo-org", 4), "textValue": "x"}}}})
	if !strings.Contains(got, `"type":"NOT_FOUND"`) {
		t.Errorf("outsider's mutation: %s", got)
	}
}

// TestMutationAnswerReadsAsAQuery checks that what a mutation's answer reads
// besides the issue it wrote is read as a query reads it: a token that may
// write a private repository's values with pull_requests=write, and may not
// read its issues, writes, and is refused the read.
func TestMutationAnswerReadsAsAQuery(t *testing.T) {
	const data = `{
	  "organizations": [{"login": "octo-org", "fields": [{"id": 4, "name": "Summary", "data_type": "text"}]}],
	  "repositories": [{"owner": "octo-org", "name": "roadmap", "private": true, "issues": [{"number": 1}, {"number": 2}]}],
	  "tokens": [{"token": "pr-token", "kind": "app_installation", "login": "ci[bot]",
	    "repositories": {"octo-org/roadmap": {"issues": "none", "pull_requests": "write", "push": true}}},
	    {"token": "rw-token", "kind": "fine_grained_pat", "login": "octocat",
	    "repositories": {"octo-org/roadmap": {"issues": "write", "push": true}}}]
	}`
	e := newEnv(t, options{data: data})
	if a := e.send(t, http.MethodGet, "/repos/octo-org/roadmap/issues/2/issue-field-values", "pr-token", ""); a.status != http.StatusForbidden {
		t.Fatalf("REST read: %d, want 403", a.status)
	}
	got := e.query(t, "pr-token", `mutation($input: SetIssueFieldValueInput!) { setIssueFieldValue(input: $input) {
	  issue { number repository { issue(number: 2) { number } } } } }`, map[string]any{"input": map[string]any{
		"issueId": ids.Issue(1), "issueFields": []any{map[string]any{"fieldId": ids.Field("octo-org", 4), "textValue": "by CI"}}}})
	if !strings.HasPrefix(got, `{"data":{"setIssueFieldValue":{"issue":{"number":1,"repository":{"issue":null}}}},"errors":[{"type":"FORBIDDEN","path":["setIssueFieldValue","issue","repository","issue"]`) {
		t.Errorf("the mutation's answer: %s", got)
	}
	if q := e.query(t, "pr-token", `{ repository(owner: "octo-org", name: "roadmap") { issue(number: 2) { number } } }`, nil); !strings.Contains(q, `"type":"FORBIDDEN"`) {
		t.Errorf("the query: %s", q)
	}
	// The repository's issues are a read too: the answer lists none of them.
	got = e.query(t, "pr-token", `mutation($input: SetIssueFieldValueInput!) { setIssueFieldValue(input: $input) {
	  issue { number repository { issues(first: 10) { totalCount nodes { number } } } } } }`, map[string]any{"input": map[string]any{
		"issueId": ids.Issue(1), "issueFields": []any{map[string]any{"fieldId": ids.Field("octo-org", 4), "textValue": "by CI again"}}}})
	if strings.Contains(got, `"number":2`) || !strings.Contains(got, `"type":"FORBIDDEN","path":["setIssueFieldValue","issue","repository","issues"]`) {
		t.Errorf("the mutation's answer lists the issues that the token may not read: %s", got)
	}
	// So are its fields, which whoever reads its issues may list.
	got = e.query(t, "pr-token", `mutation($input: SetIssueFieldValueInput!) { setIssueFieldValue(input: $input) {
	  issue { number repository { issueFields(first: 10) { totalCount } } } } }`, map[string]any{"input": map[string]any{
		"issueId": ids.Issue(1), "issueFields": []any{map[string]any{"fieldId": ids.Field("octo-org", 4), "textValue": "by CI once more"}}}})
	if !strings.Contains(got, `"type":"FORBIDDEN","path":["setIssueFieldValue","issue","repository","issueFields"]`) {
		t.Errorf("the mutation's answer lists the fields of a repository whose issues the token may not read: %s", got)
	}
	// Nor does the answer that another caller got for the same document,
	// which left the issue as it was, reach it.
	const listFields = `mutation($input: SetIssueFieldValueInput!) { setIssueFieldValue(input: $input) {
	  issue { number repository { issueFields(first: 10) { totalCount } } } } }`
	same := map[string]any{"input": map[string]any{
		"issueId": ids.Issue(1), "issueFields": []any{map[string]any{"fieldId": ids.Field("octo-org", 4), "textValue": "the same"}}}}
	for _, token := range []string{"rw-token", "rw-token"} {
		if got := e.query(t, token, listFields, same); !strings.Contains(got, `"totalCount":1`) {
			t.Fatalf("the mutation's answer to a token that reads the issues: %s", got)
		}
	}
	if got := e.query(t, "pr-token", listFields, same); !strings.Contains(got, `"type":"FORBIDDEN"`) {
		t.Errorf("the mutation's answer to a token that may not read the issues, after another's: %s", got)
	}
}
