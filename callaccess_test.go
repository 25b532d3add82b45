package issuefields_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
)

// TestRouteReadOnly checks that a POST Route whose request only reads, as a
// GraphQL query does, authorizes as a GET Route (the issues permission at
// read on a private repository, nothing more) and counts nothing toward the
// secondary rate limit.
func TestRouteReadOnly(t *testing.T) {
	query := issuefields.Route{Method: "POST", Path: "/query/{repo}", Serve: func(c *issuefields.Call) error {
		if c.Request().URL.Query().Get("read") == "only" {
			c.ReadOnly()
		}
		snap, err := c.ReadIssue(org, c.Request().PathValue("repo"), 1)
		if err != nil {
			return err
		}
		return c.WriteJSON(http.StatusOK, map[string]int64{"number": snap.Issue.Number})
	}}
	h := newRouteHandler(t, nil, query)
	// The limit is two writes an hour: queries, made read-only, take none.
	for range 3 {
		if r := do(t, h, "POST", "/query/"+publicRepo+"?read=only", readerToken, ""); r.status != http.StatusOK || r.body != `{"number":1}`+"\n" {
			t.Fatalf("a query: %d %s, want 200", r.status, r.body)
		}
	}
	if r := do(t, h, "POST", "/query/"+secretRepo+"?read=only", visibleOnlyToken, ""); r.status != http.StatusForbidden {
		t.Errorf("a query of a private repository without issues read: %d %s, want 403 as a GET Route answers", r.status, r.body)
	}
	if r := do(t, h, "POST", "/query/"+secretRepo+"?read=only", blindToken, ""); r.status != http.StatusNotFound {
		t.Errorf("a query of a private repository the token cannot see: %d, want 404", r.status)
	}
	// Without ReadOnly, the request is a write: it counts.
	for i, want := range []int{http.StatusOK, http.StatusOK, http.StatusUnprocessableEntity} {
		if r := do(t, h, "POST", "/query/"+publicRepo, readerToken, ""); r.status != want {
			t.Errorf("write %d: %d %s, want %d", i+1, r.status, r.body, want)
		}
	}
}

// TestRouteLimitWrites checks that LimitWrites counts n writes at once, and
// refuses a request that the n writes take over the limit.
func TestRouteLimitWrites(t *testing.T) {
	writes := issuefields.Route{Method: "POST", Path: "/writes/{n}", Serve: func(c *issuefields.Call) error {
		n, _ := strconv.Atoi(c.Request().PathValue("n"))
		if err := c.LimitWrites(n); err != nil {
			return err
		}
		c.WriteHeader(http.StatusNoContent)
		return nil
	}}
	h := newRouteHandler(t, nil, writes)
	if r := do(t, h, "POST", "/writes/3", writerToken, ""); r.status != http.StatusUnprocessableEntity || r.header.Get("Retry-After") == "" {
		t.Errorf("three writes over a limit of two: %d, Retry-After %q", r.status, r.header.Get("Retry-After"))
	}
	h = newRouteHandler(t, nil, writes)
	if r := do(t, h, "POST", "/writes/2", writerToken, ""); r.status != http.StatusNoContent {
		t.Errorf("two writes: %d %s, want 204", r.status, r.body)
	}
	if r := do(t, h, "POST", "/writes/1", writerToken, ""); r.status != http.StatusUnprocessableEntity {
		t.Errorf("a third: %d, want 422", r.status)
	}
}

// TestRouteMayWriteValues checks that MayWriteValues decides as the values
// routes' writes do.
func TestRouteMayWriteValues(t *testing.T) {
	may := issuefields.Route{Method: "POST", Path: "/may/{repo}", Serve: func(c *issuefields.Call) error {
		snap, err := c.ReadIssue(org, c.Request().PathValue("repo"), 0)
		if err != nil {
			return err
		}
		if err := c.MayWriteValues(snap.Repository); err != nil {
			return err
		}
		c.WriteHeader(http.StatusNoContent)
		return nil
	}}
	h := newRouteHandler(t, nil, may)
	for _, tt := range []struct {
		token string
		want  int
		says  string
	}{
		{writerToken, http.StatusNoContent, ""},
		{prWriterToken, http.StatusNoContent, ""},
		{readerToken, http.StatusForbidden, "Resource not accessible"},
		{noPushToken, http.StatusForbidden, "Must have push access"},
	} {
		r := do(t, h, "POST", "/may/"+publicRepo, tt.token, "")
		if r.status != tt.want || !strings.Contains(r.body, tt.says) {
			t.Errorf("%s: %d %s, want %d %s", tt.token, r.status, r.body, tt.want, tt.says)
		}
	}
}

// TestRouteOrganizationFields checks that OrganizationFields answers as
// GET /orgs/{org}/issue-fields decides.
func TestRouteOrganizationFields(t *testing.T) {
	list := issuefields.Route{Method: "GET", Path: "/fields/{org}", Serve: func(c *issuefields.Call) error {
		fields, err := c.OrganizationFields(c.Request().PathValue("org"))
		if err != nil {
			return err
		}
		return c.WriteJSON(http.StatusOK, map[string]int{"fields": len(fields)})
	}}
	h, _ := newFieldsHandler(t, issuefields.Config{Routes: []issuefields.Route{list}})
	for _, tt := range []struct {
		token, org string
		want       int
	}{
		{fieldsReaderToken, org, http.StatusOK},
		{classicReadToken, org, http.StatusOK},
		{fieldsVisibleToken, org, http.StatusForbidden},
		{fieldsBlindToken, org, http.StatusNotFound},
		{fieldsReaderToken, "no-such-org", http.StatusNotFound},
		{"", org, http.StatusUnauthorized},
	} {
		r := do(t, h, "GET", "/fields/"+tt.org, tt.token, "")
		rest := do(t, h, "GET", "/orgs/"+tt.org+"/issue-fields", tt.token, "")
		if r.status != tt.want || rest.status != tt.want {
			t.Errorf("%q on %s: %d (REST %d), want %d", tt.token, tt.org, r.status, rest.status, tt.want)
		}
		if tt.want == http.StatusOK && r.body != `{"fields":5}`+"\n" {
			t.Errorf("%q: %s, want the five fields", tt.token, r.body)
		}
	}
}

// TestRouteReadJSONAndWriteBody checks that ReadJSON gives the body whole,
// with ReadObject's refusals, and that WriteBody sends a body as it is.
func TestRouteReadJSONAndWriteBody(t *testing.T) {
	echo := issuefields.Route{Method: "POST", Path: "/echo", Serve: func(c *issuefields.Call) error {
		body, err := c.ReadJSON()
		if err != nil {
			return err
		}
		c.WriteBody(http.StatusOK, append(body, '\n'))
		return nil
	}}
	h := newRouteHandler(t, nil, echo)
	if r := do(t, h, "POST", "/echo", writerToken, `{"a": [1, {"b": "\u00e9"}]}`); r.status != http.StatusOK || r.body != `{"a": [1, {"b": "\u00e9"}]}`+"\n" ||
		r.header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("echo: %d %q %s, want the body as sent", r.status, r.header.Get("Content-Type"), r.body)
	}
	for _, body := range []string{``, `[1]`, `{"a": 1, "a": 2}`, `{"a": {"b": 1, "b": 1}}`, `{"a":`} {
		if r := do(t, h, "POST", "/echo", writerToken, body); r.status != http.StatusBadRequest {
			t.Errorf("%q: %d %s, want 400", body, r.status, r.body)
		}
	}
}

// TestRouteExplainNamesTheParts checks that Explain gives a refused body's
// parts after its message, and a rate limit's Retry-After on the answer.
func TestRouteExplainNamesTheParts(t *testing.T) {
	explain := issuefields.Route{Method: "POST", Path: "/explain", Serve: func(c *issuefields.Call) error {
		var err error
		if c.Request().URL.Query().Get("limit") != "" {
			err = c.LimitWrites(3)
		} else {
			_, err = c.ParseValues([]json.RawMessage{[]byte(`{"field_id": 3, "value": "x"}`)}, fixtureFields, false)
		}
		status, message := c.Explain(err)
		return c.WriteJSON(http.StatusOK, map[string]any{"status": status, "message": message})
	}}
	h := newRouteHandler(t, nil, explain)
	if r := do(t, h, "POST", "/explain", writerToken, ""); !strings.HasPrefix(r.body, `{"message":"Validation Failed: Field \"Estimate\" is a number field`) || !strings.Contains(r.body, `"status":422`) {
		t.Errorf("a refused value: %s", r.body)
	}
	if r := do(t, h, "POST", "/explain?limit=1", writerToken, ""); !strings.Contains(r.body, "secondary rate limit") || r.header.Get("Retry-After") == "" {
		t.Errorf("over the limit: %s, Retry-After %q", r.body, r.header.Get("Retry-After"))
	}
}
