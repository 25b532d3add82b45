package issues_test

import (
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/issuefields/issuefields/example/issues"
)

// searchResult is what the tests read of a search's answer.
type searchResult struct {
	TotalCount        int           `json:"total_count"`
	IncompleteResults bool          `json:"incomplete_results"`
	Items             []issueObject `json:"items"`
}

func TestSearchIssues(t *testing.T) {
	w := newWorld(t)
	search := func(token, q string, extra ...string) answer {
		t.Helper()
		return w.do(t, "GET", "/search/issues?q="+url.QueryEscape(q)+strings.Join(extra, ""), token, "")
	}
	for _, c := range []struct {
		token, q string
		want     []string // owner/name#number, in the answer's order
	}{
		{"", "repo:octo-org/hello-world", []string{"hello-world#2", "hello-world#1"}},
		{"", "is:issue is:open", []string{"spoon-knife#1", "hello-world#1"}},
		{"", "state:closed", []string{"hello-world#2"}},
		{reader, "org:octo-org is:open", []string{"secret#1", "hello-world#1"}},
		{outsider, "org:octo-org is:open", []string{"hello-world#1"}},
		{"", "field.priority:high", []string{"hello-world#1"}},
		{"", "field.PRIORITY:Low", nil},
		{"", "field.Estimate:3.0 crash", []string{"hello-world#1"}},
		{"", `"on save"`, []string{"hello-world#1"}},
		{"", "crashes", []string{"hello-world#1"}},
		{"", "is:open is:closed", nil},
		{"", "field.Nothing:1", nil},
	} {
		a := search(c.token, c.q, "&advanced_search=true")
		if a.status != http.StatusOK {
			t.Errorf("q=%s: %d %s; want 200", c.q, a.status, a.body)
			continue
		}
		var got searchResult
		a.decode(t, &got)
		var found []string
		for _, is := range got.Items {
			found = append(found, path.Base(is.RepositoryURL)+"#"+strconv.FormatInt(is.Number, 10))
		}
		if !slices.Equal(found, c.want) || got.TotalCount != len(c.want) || got.IncompleteResults {
			t.Errorf("q=%s as %q: %v, total %d; want %v", c.q, c.token, found, got.TotalCount, c.want)
		}
	}
	if a := search("", "field.Priority:High"); !strings.Contains(a.body, `"issue_field_values":[{"issue_field_id":1,`) {
		t.Errorf("found issue without its values: %s", a.body)
	}
	a := search("", "repo:octo-org/hello-world", "&per_page=1&sort=created&order=asc")
	var page searchResult
	a.decode(t, &page)
	if page.TotalCount != 2 || len(page.Items) != 1 || page.Items[0].Number != 1 || !strings.Contains(a.header.Get("Link"), `rel="next"`) {
		t.Errorf("first page of 1: %+v, Link %q", page, a.header.Get("Link"))
	}
	for _, c := range []struct{ q, extra, message string }{
		{"label:bug", "", "label:bug"},
		{"is:pr", "", "is:pr"},
		{"", "", "q is required"},
		{"crash", "&sort=comments", "sort"},
	} {
		if a := search("", c.q, c.extra); a.status != http.StatusUnprocessableEntity || !strings.Contains(a.body, c.message) {
			t.Errorf("q=%s%s: %d %s; want 422 naming %q", c.q, c.extra, a.status, a.body, c.message)
		}
	}
	for _, q := range []string{"crash", "repo:nobody/nothing"} {
		if a := search(classic, q); a.status != http.StatusForbidden {
			t.Errorf("q=%s with a classic token: %d; want 403", q, a.status)
		}
	}
}

func TestParseSearch(t *testing.T) {
	s, err := issues.ParseSearch(`repo:o/r org:O field."Due date":2026-04-01 field.Summary:"a: b" "two words" one STATE:open`)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Repositories, []string{"o/r"}) || !slices.Equal(s.Organizations, []string{"O"}) || s.State != "open" ||
		!slices.Equal(s.Fields, []issues.FieldValue{{Name: "Due date", Value: "2026-04-01"}, {Name: "Summary", Value: "a: b"}}) ||
		!slices.Equal(s.Words, []string{"two words", "one"}) {
		t.Errorf("ParseSearch: %+v", s)
	}
	for _, q := range []string{"repo:nameonly", "state:merged", "-repo:o/r", "http://x"} {
		if _, err := issues.ParseSearch(q); err == nil {
			t.Errorf("ParseSearch(%q) accepted it", q)
		}
	}
}
