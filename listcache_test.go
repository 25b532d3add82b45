package issuefields_test

import (
	"testing"

	"github.com/issuefields/issuefields"
)

// TestListCacheChangesNoAnswer checks that a handler that keeps the lists it
// rendered answers, through writes, deletes and pages, exactly as handlers
// that never saw the store before: the same bodies and Link headers as one
// over a store with the same data, and the ETags that a new handler over the
// same store gives. (Two stores never give the same ETag.)
func TestListCacheChangesNoAnswer(t *testing.T) {
	store := newFixtureStore(t)
	cached := newConfiguredHandler(t, issuefields.Config{Store: store})
	viewer := func() *issuefields.Handler { return newConfiguredHandler(t, issuefields.Config{Store: store}) }
	uncached := newConfiguredHandler(t, issuefields.Config{Store: newFixtureStore(t)})
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
		if got.header.Get("Link") != want.header.Get("Link") {
			t.Errorf("%s %s: Link %q, want %q", s.method, s.target, got.header.Get("Link"), want.header.Get("Link"))
		}
		list := s.target
		if s.method != "GET" {
			list = path
		}
		if tag := do(t, viewer(), "GET", list, writerToken, "").header.Get("ETag"); got.header.Get("ETag") != tag {
			t.Errorf("%s %s: ETag %q, want %q", s.method, s.target, got.header.Get("ETag"), tag)
		}
		if got.status != want.status || got.body != want.body {
			t.Errorf("%s %s: %d %s\nwant %d %s", s.method, s.target, got.status, got.body, want.status, want.body)
		}
	}
}
