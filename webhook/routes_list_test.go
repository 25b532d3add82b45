package webhook_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestRoutesListHooksPages checks the pages of the hooks list, and that
// their Link header is under the configured address, whatever the request's
// Host.
func TestRoutesListHooksPages(t *testing.T) {
	a := newAPI(t)
	for range 3 {
		a.addHook(t, orgScope("octo-org"), a.rc.URL)
	}
	tests := []struct {
		query     string
		wantCount int
		wantRels  []string
	}{
		{"", 3, nil},
		{"?per_page=2", 2, []string{"next", "last"}},
		{"?per_page=2&page=2", 1, []string{"first", "prev"}},
		{"?per_page=2&page=9", 0, []string{"first", "last"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got := a.mustDo(t, http.StatusOK, "GET", orgHooks+tt.query, "admin", "")
			var hooks []any
			got.json(t, &hooks)
			if len(hooks) != tt.wantCount {
				t.Errorf("%d hooks, want %d", len(hooks), tt.wantCount)
			}
			var rels []string
			for _, link := range strings.Split(got.header.Get("Link"), ", ") {
				if link == "" {
					continue
				}
				target, rel, _ := strings.Cut(link, "; ")
				if !strings.HasPrefix(target, "<"+apiBase+orgHooks+"?") {
					t.Errorf("the link %q is not under %s", link, apiBase)
				}
				rels = append(rels, strings.TrimSuffix(strings.TrimPrefix(rel, `rel="`), `"`))
			}
			if strings.Join(rels, " ") != strings.Join(tt.wantRels, " ") {
				t.Errorf("Link relations %q, want %q", rels, tt.wantRels)
			}
		})
	}
}

// TestRoutesMethodNotAllowed checks that a path of the routes answers 405,
// with Allow, for a method it does not serve; a path with GET serves HEAD
// too, as the API's do.
func TestRoutesMethodNotAllowed(t *testing.T) {
	a := newAPI(t)
	tests := []struct {
		method, path, wantAllow string
	}{
		{"PUT", orgHooks, "GET, HEAD, POST"},
		{"POST", repoHooks + "/1", "GET, HEAD, PATCH, DELETE"},
		{"DELETE", orgHooks + "/1/config", "GET, HEAD, PATCH"},
	}
	for _, tt := range tests {
		got := a.do(t, tt.method, tt.path, "admin", "")
		if got.status != http.StatusMethodNotAllowed || got.header.Get("Allow") != tt.wantAllow {
			t.Errorf("%s %s: %d, Allow %q; want 405, Allow %q", tt.method, tt.path, got.status, got.header.Get("Allow"), tt.wantAllow)
		}
	}
}
