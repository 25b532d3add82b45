// Package rulestest checks a Handler, through HTTP alone, against the rules
// of field definitions (bounds, names that look alike or hide characters)
// and the edges of the values routes that a test from outside found (a page
// number past the largest integer, a number that rounds to zero or whose
// integer part is past 2^53, a path with //). The rules are the handler's, so every store must give the same
// answers: the core module runs the suite over memstore, and pgstore over
// PostgreSQL.
package rulestest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A Harness is a Handler over a fresh store, and what the suite may do with
// it.
type Harness struct {
	// Handler serves the API at the root, over a store that is a
	// FieldManager.
	Handler http.Handler
	// Org is an organization without fields, and Repo the name of a
	// repository of Org with the live issue 1, which holds no values.
	Org, Repo string
	// Token is a bearer token that may manage Org's fields and write the
	// values of Repo's issues, under no secondary rate limit.
	Token string
}

// Run runs every case of the suite as a subtest of t, each named with the
// rule it checks, over a harness from newHarness.
func Run(t *testing.T, newHarness func(t *testing.T) Harness) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.run(&client{t: t, h: newHarness(t)})
		})
	}
}

// cases are the cases of the suite.
var cases = []struct {
	name string
	run  func(c *client)
}{
	{"an organization has at most 25 fields: the 26th is refused with 422 naming the bound", tooManyFields},
	{"a select field has at most 50 options: the 51st is refused with 422 naming the bound", tooManyOptions},
	{"a description has at most 1,024 characters, for a field and for an option", longDescriptions},
	{"a field name the same as another's after NFKC, case folding and removing invisible characters is taken", lookAlikeFieldNames},
	{"an option name the same as another option's of the field after NFKC, case folding and removing invisible characters is taken", lookAlikeOptionNames},
	{"a name with white space at an end, a control or bidirectional character, or nothing visible is refused", hiddenNames},
	{"a page number past the largest integer is a page past the end", pagePastMaxInt},
	{"a number that is not zero but rounds to zero is refused, as one too large is", numbersRoundingToZero},
	{"a number whose integer part is beyond ±2^53 is refused with 422 naming the bound; ±2^53 itself is kept", numbersBeyondExactIntegers},
	{"a path with // is a JSON 404", doubleSlashPaths},
}

// A client sends the harness's handler requests with the harness's token.
type client struct {
	t *testing.T
	h Harness
}

// An answer is the status, the headers and the body of an answer.
type answer struct {
	status int
	header http.Header
	body   string
}

// do sends a request and returns the answer.
func (c *client) do(method, path, body string) answer {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+c.h.Token)
	rec := httptest.NewRecorder()
	c.h.Handler.ServeHTTP(rec, req)
	return answer{rec.Code, rec.Header(), rec.Body.String()}
}

// fieldsPath is the path of the organization's fields.
func (c *client) fieldsPath() string { return "/orgs/" + c.h.Org + "/issue-fields" }

// valuesPath is the path of the values of issue 1.
func (c *client) valuesPath() string {
	return "/repos/" + c.h.Org + "/" + c.h.Repo + "/issues/1/issue-field-values"
}

// A field is a field as the field management routes answer it.
type field struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Options []struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"options"`
}

// create creates a field from body, ending the case unless it succeeds.
func (c *client) create(body string) field {
	c.t.Helper()
	a := c.do(http.MethodPost, c.fieldsPath(), body)
	var f field
	if err := json.Unmarshal([]byte(a.body), &f); a.status != http.StatusOK || err != nil {
		c.t.Fatalf("POST %s %s: %d %s, want 200 and the field", c.fieldsPath(), body, a.status, a.body)
	}
	return f
}

// fields returns the organization's fields as the list answers them.
func (c *client) fields() string {
	c.t.Helper()
	a := c.do(http.MethodGet, c.fieldsPath(), "")
	if a.status != http.StatusOK {
		c.t.Fatalf("GET %s: %d %s", c.fieldsPath(), a.status, a.body)
	}
	return a.body
}

// refused sends a request that must be refused with 422 in GitHub's
// validation-error-simple shape, with an error that contains want (ignoring
// case), and checks that it changed no field.
func (c *client) refused(method, path, body, want string) {
	c.t.Helper()
	before := c.fields()
	a := c.do(method, path, body)
	var e struct {
		Message string   `json:"message"`
		Errors  []string `json:"errors"`
	}
	if err := json.Unmarshal([]byte(a.body), &e); a.status != http.StatusUnprocessableEntity || err != nil ||
		!strings.Contains(strings.ToLower(strings.Join(e.Errors, "\n")), strings.ToLower(want)) {
		c.t.Errorf("%s %s %s: %d %s, want 422 with an error that says %q", method, path, abbreviate(body), a.status, a.body, want)
	}
	if after := c.fields(); after != before {
		c.t.Errorf("%s %s %s was refused but changed the fields from %s to %s", method, path, abbreviate(body), before, after)
	}
}

// abbreviate returns body, or its beginning when it is long.
func abbreviate(body string) string {
	if len(body) > 200 {
		return body[:200] + "…"
	}
	return body
}

// quote returns s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// options returns n options named "Option 1" to "Option n", as JSON.
func options(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf(`{"name":"Option %d","color":"gray"}`, i+1)
	}
	return "[" + strings.Join(items, ",") + "]"
}
