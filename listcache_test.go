package issuefields_test

import (
	"testing"

	"github.com/issuefields/issuefields"
)

// TestListCacheChangesNoAnswer checks that a handler that keeps its rendered
// lists answers exactly as one that keeps none (ListCacheBytes < 0): the same
// bodies, ETags and Link headers, through writes, deletes and pages.
func TestListCacheChangesNoAnswer(t *testing.T) {
	cached := newConfiguredHandler(t, issuefields.Config{Store: newFixtureStore(t)})
	uncached := newConfiguredHandler(t, issuefields.Config{Store: newFixtureStore(t), ListCacheBytes: -1})
	path := valuesPath(org, publicRepo, 1)
	steps := []struct{ method, target, body string }{
		{"GET", path, ""},
		{"GET", path, ""},
		{"GET", path + "?per_page=2&page=2", ""},
		{"POST", path, writeBody(fieldItem(notesID, `"changed"`))},
		{"GET", path, ""},
		{"PUT", path, writeBody(fieldItem(dueID, `"2026-01-31"`))},
		{"GET", path + "?per_page=1", ""},
		{"DELETE", path + "/" + itoa(dueID), ""},
		{"GET", path, ""},
		{"GET", valuesPath("octocat", "personal", 1), ""},
	}
	for _, s := range steps {
		want := do(t, uncached, s.method, s.target, writerToken, s.body)
		got := do(t, cached, s.method, s.target, writerToken, s.body)
		for _, name := range []string{"ETag", "Link"} {
			if got.header.Get(name) != want.header.Get(name) {
				t.Errorf("%s %s: %s %q, want %q", s.method, s.target, name, got.header.Get(name), want.header.Get(name))
			}
		}
		if got.status != want.status || got.body != want.body {
			t.Errorf("%s %s: %d %s\nwant %d %s", s.method, s.target, got.status, got.body, want.status, want.body)
		}
	}
}
