package issuefields_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// errorResponse is an error body of the values routes as a client decodes
// it.
type errorResponse struct {
	Message          string            `json:"message"`
	DocumentationURL string            `json:"documentation_url"`
	Status           string            `json:"status"`
	Code             string            `json:"code"`
	URL              string            `json:"url"`
	Errors           []validationError `json:"errors"`
}

// validationError is one item of the errors of a 422 of the values routes.
type validationError struct {
	Resource string `json:"resource"`
	Field    string `json:"field"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Index    *int   `json:"index"`
}

// listItem is one item of a list of values, as a client decodes it.
type listItem struct {
	IssueFieldID       int64                `json:"issue_field_id"`
	IssueFieldName     string               `json:"issue_field_name"`
	NodeID             string               `json:"node_id"`
	DataType           issuefields.DataType `json:"data_type"`
	Value              any                  `json:"value"`
	SingleSelectOption *listOption          `json:"single_select_option,omitempty"`
	MultiSelectOptions []listOption         `json:"multi_select_options,omitempty"`
}

// listOption is a selected option of a list item.
type listOption struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

// Bounds and defaults that the documentation gives.
const (
	defaultMaxBodyBytes = 1 << 20 // Config.MaxBodyBytes
	defaultPerPage      = 30      // a list without per_page
	maxItems            = 25      // items of one write
)

// writeBody returns a request body that writes items, each a JSON object.
func writeBody(items ...string) string {
	return `{"issue_field_values":[` + strings.Join(items, ",") + `]}`
}

// fieldItem returns a request item for field id with value, written as JSON.
func fieldItem(id int, value string) string {
	return fmt.Sprintf(`{"field_id":%d,"value":%s}`, id, value)
}

// anIssue names an issue by its repository's owner and name and its number.
type anIssue struct {
	owner, repo string
	number      int64
}

// issueAt names issue number of owner/repo.
func issueAt(owner, repo string, number int64) anIssue { return anIssue{owner, repo, number} }

// readStored returns what s holds for the issue is, and its version.
func readStored(t testing.TB, s issuefields.Store, is anIssue) ([]issuefields.Value, issuefields.Version) {
	t.Helper()
	snap, err := s.Snapshot(context.Background(), is.owner, is.repo, is.number)
	if err == nil {
		err = snap.IssueErr
	}
	if err != nil {
		t.Fatalf("Snapshot(%q, %q, %d): %v", is.owner, is.repo, is.number, err)
	}
	return snap.Issue.Values, snap.Issue.Version
}

// newConfiguredHandler returns a handler for cfg, with the fixture's verifier
// and a logger that discards unless cfg sets them.
func newConfiguredHandler(t testing.TB, cfg issuefields.Config) *issuefields.Handler {
	t.Helper()
	if cfg.Verifier == nil {
		cfg.Verifier = fixtureVerifier
	}
	if cfg.Logger == nil {
		cfg.Logger = discardLogger
	}
	h, err := issuefields.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// doWithHeader sends a request with the given headers (name, value pairs) to h.
// token may be "" for no Authorization header.
func doWithHeader(t testing.TB, h *issuefields.Handler, method, target, token, body string, header ...string) response {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return serve(h, req)
}

// The organization and repository of newWideStore.
const (
	wideOrg  = "wide-org"
	wideRepo = "wide"
)

// newWideStore returns a store whose organization wide-org has n text fields,
// with IDs 1 to n and names "Field 1" to "Field n" in that order, and whose
// public repository wide-org/wide has issue 1 with a value "value i" for
// each of the fields 1 to filled, and issue 2 with none.
func newWideStore(t testing.TB, n, filled int) *memstore.Store {
	t.Helper()
	s := memstore.New()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.AddOrganization(wideOrg))
	for i := 1; i <= n; i++ {
		must(s.AddField(wideOrg, issuefields.Field{ID: int64(i), Name: fmt.Sprintf("Field %d", i), DataType: issuefields.DataTypeText}))
	}
	_, err := s.AddRepository(wideOrg, wideRepo, false)
	must(err)
	must(s.AddIssue(wideOrg, wideRepo, 1))
	must(s.AddIssue(wideOrg, wideRepo, 2))
	values := make([]issuefields.Value, filled)
	for i := range values {
		values[i] = issuefields.Value{FieldID: int64(i + 1), Text: fmt.Sprintf("value %d", i+1)}
	}
	must(s.SetValues(wideOrg, wideRepo, 1, values))
	return s
}

// fieldIDs returns the issue_field_id of each item of a list body.
func fieldIDs(t testing.TB, r response) []int64 {
	t.Helper()
	var items []listItem
	r.json(t, &items)
	ids := make([]int64, len(items))
	for i, it := range items {
		ids[i] = it.IssueFieldID
	}
	return ids
}

// idRange returns the integers from lo to hi.
func idRange(lo, hi int) []int64 {
	ids := []int64{}
	for i := lo; i <= hi; i++ {
		ids = append(ids, int64(i))
	}
	return ids
}
