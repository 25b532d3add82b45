package issuefields_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/issuefields/issuefields"
)

var linkRel = regexp.MustCompile(`^rel="([a-z]+)"$`)

// parseLink parses a Link header into its URLs by rel. It fails the test on a
// malformed link, a URL that is not absolute, and a rel given twice.
func parseLink(t testing.TB, header string) map[string]*url.URL {
	t.Helper()
	links := map[string]*url.URL{}
	if header == "" {
		return links
	}
	for _, part := range strings.Split(header, ",") {
		target, param, ok := strings.Cut(strings.TrimSpace(part), ";")
		m := linkRel.FindStringSubmatch(strings.TrimSpace(param))
		if !ok || m == nil || !strings.HasPrefix(target, "<") || !strings.HasSuffix(target, ">") {
			t.Fatalf("malformed link %q in Link %q", part, header)
		}
		u, err := url.Parse(target[1 : len(target)-1])
		if err != nil || !u.IsAbs() || u.Host == "" {
			t.Fatalf("link %q is not an absolute URL (%v)", target, err)
		}
		if _, dup := links[m[1]]; dup {
			t.Fatalf("rel %q twice in Link %q", m[1], header)
		}
		links[m[1]] = u
	}
	return links
}

// linkPages returns the page number of each link by rel.
func linkPages(t testing.TB, links map[string]*url.URL) map[string]int {
	t.Helper()
	pages := map[string]int{}
	for rel, u := range links {
		n, err := strconv.Atoi(u.Query().Get("page"))
		if err != nil {
			t.Fatalf("link %s has no page number: %s", rel, u)
		}
		pages[rel] = n
	}
	return pages
}

func TestPageSizeAndNumber(t *testing.T) {
	const n = 250
	h := newConfiguredHandler(t, issuefields.Config{Store: newWideStore(t, n, n)})
	for _, tc := range []struct {
		query  string
		lo, hi int // the field IDs of the page
	}{
		{"", 1, 30},
		{"?per_page=10", 1, 10},
		{"?per_page=1", 1, 1},
		{"?per_page=100", 1, 100},
		{"?per_page=101", 1, 100},
		{"?per_page=1000000", 1, 100},
		{"?per_page=0", 1, 30},
		{"?per_page=-1", 1, 30},
		{"?per_page=abc", 1, 30},
		{"?per_page=", 1, 30},
		{"?per_page=1.5", 1, 30},
		{"?page=2", 31, 60},
		{"?page=0", 1, 30},
		{"?page=-1", 1, 30},
		{"?page=abc", 1, 30},
		{"?page=", 1, 30},
		{"?page=2.0", 1, 30},
		{"?page=3&per_page=100", 201, 250},
		{"?page=2&per_page=101", 101, 200},
		{"?page=abc&per_page=abc", 1, 30},
		{"?page=9&per_page=0", 241, 250},
	} {
		r := do(t, h, "GET", valuesPath(wideOrg, wideRepo, 1)+tc.query, "", "")
		if got, want := fieldIDs(t, r), idRange(tc.lo, tc.hi); r.status != http.StatusOK || !cmp.Equal(want, got) {
			t.Errorf("GET %q: %d, field ids %v, want 200 and %d to %d", tc.query, r.status, got, tc.lo, tc.hi)
		}
	}
}

func TestLinkHeader(t *testing.T) {
	for _, tc := range []struct {
		name      string
		values    int
		query     string
		lo, hi    int            // the field IDs of the page; hi < lo for none
		wantPages map[string]int // rel → page; nil for no Link
	}{
		{"first page", 75, "per_page=10", 1, 10, map[string]int{"next": 2, "last": 8}},
		{"page 1 given", 75, "per_page=10&page=1", 1, 10, map[string]int{"next": 2, "last": 8}},
		{"second page", 75, "per_page=10&page=2", 11, 20, map[string]int{"first": 1, "prev": 1, "next": 3, "last": 8}},
		{"middle page", 75, "per_page=10&page=4", 31, 40, map[string]int{"first": 1, "prev": 3, "next": 5, "last": 8}},
		{"last page", 75, "per_page=10&page=8", 71, 75, map[string]int{"first": 1, "prev": 7}},
		{"past the end", 75, "per_page=10&page=9", 1, 0, map[string]int{"first": 1, "last": 8}},
		{"far past the end", 75, "per_page=10&page=1000", 1, 0, map[string]int{"first": 1, "last": 8}},
		{"default page size", 75, "", 1, 30, map[string]int{"next": 2, "last": 3}},
		{"two full pages, second", 60, "page=2", 31, 60, map[string]int{"first": 1, "prev": 1}},
		{"one full page", 30, "", 1, 30, nil},
		{"one page", 5, "per_page=5", 1, 5, nil},
		{"no values", 0, "", 1, 0, nil},
		{"no values, past the end", 0, "page=2", 1, 0, map[string]int{"first": 1, "last": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newConfiguredHandler(t, issuefields.Config{Store: newWideStore(t, max(tc.values, 1), tc.values)})
			path := valuesPath(wideOrg, wideRepo, 1)
			r := do(t, h, "GET", path+"?"+tc.query, "", "")
			if got, want := fieldIDs(t, r), idRange(tc.lo, tc.hi); r.status != http.StatusOK || !cmp.Equal(want, got) {
				t.Errorf("%d, field ids %v, want 200 and %v", r.status, got, want)
			}
			if tc.hi < tc.lo && r.body != "[]\n" {
				t.Errorf("body %s, want []", r.body)
			}
			header := r.header.Get("Link")
			if tc.wantPages == nil {
				if header != "" {
					t.Errorf("Link %q, want none", header)
				}
				return
			}
			links := parseLink(t, header)
			if diff := cmp.Diff(tc.wantPages, linkPages(t, links)); diff != "" {
				t.Errorf("Link %q: pages by rel (-want +got):\n%s", header, diff)
			}
			for rel, u := range links {
				want, _ := url.ParseQuery(tc.query)
				want.Set("page", strconv.Itoa(tc.wantPages[rel]))
				if u.Scheme != "http" || u.Host != "example.com" || u.Path != path || !cmp.Equal(want, u.Query()) {
					t.Errorf("link %s is %s, want http://example.com%s?%s", rel, u, path, want.Encode())
				}
			}
		})
	}
}

// TestLinksKeepQuery checks that links keep every other query parameter,
// repeated and escaped ones included.
func TestLinksKeepQuery(t *testing.T) {
	h := newConfiguredHandler(t, issuefields.Config{Store: newWideStore(t, 75, 75)})
	query := "tag=a&per_page=10&q=a+b%26c&tag=b&page=3&empty="
	r := do(t, h, "GET", valuesPath(wideOrg, wideRepo, 1)+"?"+query, "", "")
	links := parseLink(t, r.header.Get("Link"))
	if len(links) != 4 {
		t.Fatalf("Link %q, want four rels", r.header.Get("Link"))
	}
	for rel, u := range links {
		got := u.Query()
		got.Del("page")
		want := url.Values{"tag": {"a", "b"}, "per_page": {"10"}, "q": {"a b&c"}, "empty": {""}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("link %s %s: query (-want +got):\n%s", rel, u, diff)
		}
	}
}

// TestFollowingNextVisitsEveryValue walks the next links from the first page
// and checks that it meets every value once, in order.
func TestFollowingNextVisitsEveryValue(t *testing.T) {
	const n = 75
	h := newConfiguredHandler(t, issuefields.Config{Store: newWideStore(t, n, n)})
	for _, perPage := range []string{"", "per_page=7", "per_page=75", "per_page=100"} {
		var got []int64
		target := valuesPath(wideOrg, wideRepo, 1) + "?" + perPage
		for pages := 0; target != ""; pages++ {
			if pages > n {
				t.Fatalf("per_page %q: more than %d pages", perPage, n)
			}
			r := do(t, h, "GET", target, "", "")
			got = append(got, fieldIDs(t, r)...)
			target = ""
			if next, ok := parseLink(t, r.header.Get("Link"))["next"]; ok {
				target = next.String()
			}
		}
		if want := idRange(1, n); !cmp.Equal(want, got) {
			t.Errorf("per_page %q: following next met %v", perPage, got)
		}
	}
}
