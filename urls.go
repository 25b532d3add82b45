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
// mount point written escaped, with rawQuery: under base, the configured
// public base URL, or when base is empty, under the scheme, Host and mount
// prefix of the request r.
func absoluteURL(base string, r *http.Request, escapedPath, rawQuery string) *url.URL {
	if base != "" {
		if u, err := url.Parse(base + escapedPath); err == nil {
			u.RawQuery = rawQuery
			return u
		}
	}
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

// selfURL returns the absolute URL of the request, under base.
func selfURL(base string, r *http.Request) *url.URL {
	return absoluteURL(base, r, r.URL.EscapedPath(), r.URL.RawQuery)
}

// repositoryPath returns the escaped API path of repo, below the handler's
// mount point.
func repositoryPath(repo Repository) string {
	return "/repos/" + url.PathEscape(repo.Owner) + "/" + url.PathEscape(repo.Name)
}

// redirect answers that what the path of r names is now in repo, as its
// issue number (0 for the repository alone): the segments of the path that
// name the repository, and the issue, are those of the new place, and what
// follows them (a value's path, say) and the query stay, under base.
func redirect(base string, r *http.Request, repo Repository, number int64) error {
	path, named := repositoryPath(repo), 3 // repos/{owner}/{repo}
	if number > 0 {
		path, named = path+"/issues/"+strconv.FormatInt(number, 10), 5 // …/issues/{number}
	}
	path += pathAfter(r.URL.EscapedPath(), named)
	return movedTo(absoluteURL(base, r, path, r.URL.RawQuery).String())
}

// pathAfter returns what follows the first n segments of the path p, from
// the slash on ("/a/b/c" after 1 is "/b/c"), or "" when p has no more.
func pathAfter(p string, n int) string {
	at := 0
	for ; n > 0; n-- {
		next := strings.IndexByte(p[at+1:], '/')
		if next < 0 {
			return ""
		}
		at += 1 + next
	}
	return p[at:]
}
