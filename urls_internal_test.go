package issuefields

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestMountPrefixReadsAsParsed checks that mountPrefix, which skips parsing
// the RequestURI when the handler sees the path the client sent, finds the
// prefix that parsing finds.
func TestMountPrefixReadsAsParsed(t *testing.T) {
	targets := []string{
		"/api/repos/o/r/issues/7/issue-field-values",
		"/api/repos/o/r/issues/7/issue-field-values?page=2&per_page=1",
		"/api/repos/octo%20org/a%2Bb/issues/7/issue-field-values",
		"/api/repos/oct%6F/r/issues/7/issue-field-values?",
		"/api/repos/%C3%BC/r/issues/7",
		"http://example.com/api/repos/o/r/issues/7/issue-field-values?page=2",
		"*",
	}
	for _, target := range targets {
		for _, strip := range []bool{false, true} {
			r := httptest.NewRequest(http.MethodGet, target, nil)
			if strip && len(r.URL.Path) > len("/api") {
				r.URL.Path = r.URL.Path[len("/api"):]
				if r.URL.RawPath != "" {
					r.URL.RawPath = r.URL.RawPath[len("/api"):]
				}
			}
			if got, want := mountPrefix(r), parsedMountPrefix(r); got != want {
				t.Errorf("%s, strip %v: mountPrefix = %q, parsed %q", target, strip, got, want)
			}
		}
	}
}
