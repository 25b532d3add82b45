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

// errorResponse is an error body as a client decodes it.
type errorResponse struct {
	Message          string                   `json:"message"`
	DocumentationURL string                   `json:"documentation_url"`
	Status           string                   `json:"status"`
	Code             string                   `json:"code"`
	URL              string                   `json:"url"`
	Errors           []issuefields.FieldError `json:"errors"`
}

// writeBody returns a request body that writes items, each a JSON object.
func writeBody(items ...string) string {
	return `{"issue_field_values":[` + strings.Join(items, ",") + `]}`
}

// fieldItem returns a request item for field id with value, written as JSON.
func fieldItem(id int, value string) string {
	return fmt.Sprintf(`{"field_id":%d,"value":%s}`, id, value)
}

// issueKeyOf returns the store key of issue number of owner/repo.
func issueKeyOf(t testing.TB, s issuefields.Store, owner, repo string, number int64) issuefields.IssueKey {
	t.Helper()
	r, err := s.Repository(context.Background(), owner, repo)
	if err != nil {
		t.Fatalf("Repository(%q, %q): %v", owner, repo, err)
	}
	is, err := s.Issue(context.Background(), r, number)
	if err != nil {
		t.Fatalf("Issue(%q/%q#%d): %v", owner, repo, number, err)
	}
	return is.Key()
}

// readStored returns what s holds for key, and its version.
func readStored(t testing.TB, s issuefields.Store, key issuefields.IssueKey) ([]issuefields.Value, issuefields.Version) {
	t.Helper()
	values, version, err := s.Values(context.Background(), key)
	if err != nil {
		t.Fatalf("Values(%+v): %v", key, err)
	}
	return values, version
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
		must(s.AddField(wideOrg, issuefields.Field{ID: int64(i), Name: fmt.Sprintf("Field %d", i), DataType: issuefields.Text}))
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
	var items []issuefields.FieldValue
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
