package issuefields

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestIssueURLReadsAsParsed checks that issueURL, which writes the URL on a
// plain host without parsing it, gives the URL that parsing gives
// (absoluteURL), for hosts plain and not, behind a mount prefix or not, and
// for owners and names that need escaping.
func TestIssueURLReadsAsParsed(t *testing.T) {
	hosts := []string{
		"example.com", "api.example.com:8080", "127.0.0.1:18080", "EXAMPLE.com", "a-b.c",
		"[::1]:8080", "example.com:", "example.com:http", "ex ample.com", "ex%41mple.com", "bücher.example", "",
	}
	repos := []Repository{
		{Owner: "octo-org", Name: "hello-world"},
		{Owner: "octo org", Name: "a+b;c,d"},
		{Owner: "oct%6F", Name: "ünï:côde@x"},
	}
	// Each request is sent to "/api" + the path of a route and has "/api"
	// removed when strip is set, as http.StripPrefix does.
	for _, host := range hosts {
		for _, repo := range repos {
			for _, strip := range []bool{false, true} {
				for _, overTLS := range []bool{false, true} {
					r := httptest.NewRequest(http.MethodPost, "/api/repos/o/r/issues/7/issue-field-values?page=2", nil)
					r.Host = host
					if overTLS {
						r.TLS = &tls.ConnectionState{}
					}
					if strip {
						r.URL.Path = r.URL.Path[len("/api"):]
					}
					issue := Issue{Repository: repo, Number: 7}
					got := issueURL(r, issue)
					want := absoluteURL(r, issuePath(repo, issue.Number), "").String()
					if got != want {
						t.Errorf("host %q, repo %s/%s, strip %v, TLS %v: issueURL = %q, parsed %q", host, repo.Owner, repo.Name, strip, overTLS, got, want)
					}
				}
			}
		}
	}
}

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
