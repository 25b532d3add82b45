package issues_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// numbers returns the numbers of the issues of a list.
func numbers(t *testing.T, a answer) []int64 {
	t.Helper()
	var list []issueObject
	a.decode(t, &list)
	out := []int64{}
	for _, is := range list {
		out = append(out, is.Number)
	}
	return out
}

func TestListIssues(t *testing.T) {
	w := newWorld(t)
	for i := range 3 {
		if a := w.do(t, "POST", "/repos/octo-org/hello-world/issues", writer, `{"title": "New `+string(rune('a'+i))+`"}`); a.status != http.StatusCreated {
			t.Fatalf("create: %d %s", a.status, a.body)
		}
	}
	for _, c := range []struct {
		query string
		want  []int64
	}{
		{"", []int64{5, 4, 3, 1}},
		{"?state=closed", []int64{2}},
		{"?state=all&direction=asc", []int64{1, 2, 3, 4, 5}},
		{"?state=all&labels=BUG", []int64{2}},
		{"?state=all&sort=updated&direction=asc&since=2026-01-02T04:00:00Z", []int64{2, 3, 4, 5}},
	} {
		a := w.do(t, "GET", "/repos/octo-org/hello-world/issues"+c.query, "", "")
		if a.status != http.StatusOK {
			t.Fatalf("list%s: %d %s", c.query, a.status, a.body)
		}
		if got := numbers(t, a); !slices.Equal(got, c.want) {
			t.Errorf("list%s: %v; want %v", c.query, got, c.want)
		}
	}
	a := w.do(t, "GET", "/repos/octo-org/hello-world/issues?per_page=2&page=2", "", "")
	if got := numbers(t, a); !slices.Equal(got, []int64{3, 1}) {
		t.Errorf("page 2 of 2 a page: %v; want [3 1]", got)
	}
	link := a.header.Get("Link")
	if !strings.Contains(link, `page=1&per_page=2>; rel="first"`) || strings.Contains(link, `rel="next"`) {
		t.Errorf("Link %q; want first and prev, not next", link)
	}
	if !strings.Contains(a.body, `"issue_field_values":[`) {
		t.Errorf("list items without issue_field_values: %s", a.body)
	}
	for _, q := range []string{"?state=any", "?sort=comments", "?direction=up", "?since=yesterday"} {
		if a := w.do(t, "GET", "/repos/octo-org/hello-world/issues"+q, "", ""); a.status != http.StatusUnprocessableEntity {
			t.Errorf("list%s: %d %s; want 422", q, a.status, a.body)
		}
	}
	if a := w.do(t, "GET", "/repos/octo-org/secret/issues", outsider, ""); a.status != http.StatusNotFound {
		t.Errorf("private list for an outsider: %d; want 404", a.status)
	}
}
