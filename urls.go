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
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	u, err := url.Parse(scheme + "://" + r.Host + mountPrefix(r) + escapedPath)
	if err != nil {
		u = &url.URL{Scheme: scheme, Host: r.Host, Path: escapedPath}
	}
	u.RawQuery = rawQuery
	return u
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
	return absoluteURL(r, issuePath(issue.Repository, issue.Number), "").String()
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
