package issuefields

import "net/http"

// The answer methods of a Call: what a host's issue routes need to read a
// request's path and query, and to answer, by the rules of the values
// routes: the numbers of paths (parsePositiveInt), conditional GET
// (etagListMatches), pagination with Link (paginate.go) and access to a
// repository's issues (authorizeRepository).

// IssueNumber returns the number that the path value name (such as
// "issue_number") writes, as the values routes read theirs: [1-9][0-9]*
// within int64, and otherwise ErrNotFound, which answers 404.
func (c *Call) IssueNumber(name string) (int64, error) {
	n, ok := parsePositiveInt(c.r.PathValue(name))
	if !ok {
		return 0, ErrNotFound
	}
	return n, nil
}

// NotModified sets etag as the answer's ETag, and reports whether the
// request's If-None-Match matches it (weakly, "*" included), in which case
// it has answered 304 with no body, as the values list does.
func (c *Call) NotModified(etag string) bool {
	c.c.w.setHeader("Etag", etag)
	if etagListMatches(headerList(c.r, "If-None-Match"), etag, true) {
		c.c.w.WriteHeader(http.StatusNotModified)
		return true
	}
	return false
}

// Page returns the half-open range of the indexes of a list of n items that
// the request's page shows, by its page and per_page parameters as the
// values list reads them (30 a page by default, at most 100, a value that is
// not a positive integer taken as its default, a page past the end empty),
// and sets the answer's Link header to the list's other pages when there is
// more than one.
func (c *Call) Page(n int) (lo, hi int) {
	p := pageOf(c.r.URL.RawQuery, n)
	if link := p.link(c.h.baseURL, c.r); link != "" {
		c.c.w.setHeader("Link", link)
	}
	return p.bounds(n)
}

// MayRead reports whether the caller may read the issues of repo, as the
// values list decides it: anyone a public repository's, a token that sees a
// private one with issues=read. It returns an error when the caller's token
// is of a kind that the values routes do not accept (403, whatever repo is),
// and when the caller's permissions could not be read (the error of
// Principal.Permissions).
func (c *Call) MayRead(repo Repository) (bool, error) {
	if p := c.c.principal; p != nil && !p.Kind.accepted() {
		return false, errTokenKindNotAccepted
	}
	err := authorizeRepository(c.c.ctx(), readIssues, repo, c.c.principal)
	if err == nil {
		return true, nil
	}
	if a := answerTo(err, c.c.route); a.status == http.StatusNotFound || a.status == http.StatusForbidden ||
		a.status == http.StatusUnauthorized {
		return false, nil
	}
	return false, err
}
