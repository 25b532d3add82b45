package issuefields

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// mountPrefix returns the part of the request's path that the host removed
// before the handler saw the request (with http.StripPrefix, say), so that the
// URLs the handler writes keep it. It is empty when the handler serves the
// whole path.
func mountPrefix(r *http.Request) string {
	if r.RequestURI == "" {
		return ""
	}
	if path, _, _ := strings.Cut(r.RequestURI, "?"); path == r.URL.EscapedPath() {
		return "" // the path as the client sent it: nothing was removed
	}
	return parsedMountPrefix(r)
}

// parsedMountPrefix is mountPrefix for any request, found by parsing the
// request's RequestURI.
func parsedMountPrefix(r *http.Request) string {
	original, err := url.ParseRequestURI(r.RequestURI)
	if err != nil {
		return ""
	}
	full, rest := original.EscapedPath(), r.URL.EscapedPath()
	prefix, ok := strings.CutSuffix(full, rest)
	if !ok {
		return ""
	}
	return prefix
}

// absoluteURL returns the absolute URL of path, a path below the handler's
// mount point written escaped, with rawQuery.
func absoluteURL(r *http.Request, escapedPath, rawQuery string) *url.URL {
	scheme := requestScheme(r)
	u, err := url.Parse(scheme + "://" + r.Host + mountPrefix(r) + escapedPath)
	if err != nil {
		u = &url.URL{Scheme: scheme, Host: r.Host, Path: escapedPath}
	}
	u.RawQuery = rawQuery
	return u
}

// requestScheme returns the scheme the request r came by.
func requestScheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

// plainHost reports whether host is a name or an IPv4 address of letters,
// digits, dots and hyphens, with an optional numeric port: such a host reads
// the same after url.Parse and URL.String, so an absolute URL on it can be
// written without them.
func plainHost(host string) bool {
	name, port, hasPort := strings.Cut(host, ":")
	if name == "" || hasPort && port == "" {
		return false
	}
	for _, c := range []byte(name) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	for _, c := range []byte(port) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// selfURL returns the absolute URL of the request.
func selfURL(r *http.Request) *url.URL {
	return absoluteURL(r, r.URL.EscapedPath(), r.URL.RawQuery)
}

// issuePath returns the escaped API path of the issue number of repo, below
// the handler's mount point.
func issuePath(repo Repository, number int64) string {
	return "/repos/" + url.PathEscape(repo.Owner) + "/" + url.PathEscape(repo.Name) +
		"/issues/" + strconv.FormatInt(number, 10)
}

// issueURL returns the absolute API URL of issue under the base URL of the
// request r.
func issueURL(r *http.Request, issue Issue) string {
	path := issuePath(issue.Repository, issue.Number)
	if plainHost(r.Host) {
		// The escaped path and prefix read the same after parsing, too:
		// skip the parse that absoluteURL does for any host.
		return requestScheme(r) + "://" + r.Host + mountPrefix(r) + path
	}
	return absoluteURL(r, path, "").String()
}

// redirect answers that the issue of c is now issue number of repo. The new
// URL has the same suffix and query as the request.
func (c *call) redirect(repo Repository, number int64) error {
	path := issuePath(repo, number) + "/issue-field-values"
	if c.route.hasFieldID {
		path += "/" + strconv.FormatInt(c.fieldID, 10)
	}
	return movedTo(absoluteURL(c.r, path, c.r.URL.RawQuery).String())
}
