package issuefields

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Pagination of lists.
const (
	// DefaultPerPage is the page size of a list without per_page.
	DefaultPerPage = 30
	// MaxPerPage is the largest page size; a larger per_page is served as
	// MaxPerPage.
	MaxPerPage = 100
)

// page is one page of a list of n items.
type page struct {
	number, perPage int
	// last is the number of the last page, at least 1.
	last int
}

// pageOf reads page and per_page from query. A value that is not a positive
// integer falls back to its default, as the API is lenient here.
func pageOf(query url.Values, n int) page {
	p := page{
		number:  positiveOr(query.Get("page"), 1),
		perPage: min(positiveOr(query.Get("per_page"), DefaultPerPage), MaxPerPage),
	}
	p.last = max(1, (n+p.perPage-1)/p.perPage)
	return p
}

// positiveOr parses s as a positive integer, or returns def.
func positiveOr(s string, def int) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return def
	}
	return n
}

// bounds returns the half-open range of item indexes on p.
func (p page) bounds(n int) (lo, hi int) {
	if p.number > p.last {
		return n, n
	}
	lo = (p.number - 1) * p.perPage
	return lo, min(lo+p.perPage, n)
}

// link returns the Link header for p, or "" when the whole list fits on the
// first page. self is the absolute URL of the request; the links keep its
// other query parameters.
func (p page) link(self *url.URL) string {
	if p.last == 1 && p.number == 1 {
		return ""
	}
	var rels []string
	add := func(rel string, number int) {
		u := *self
		q := u.Query()
		q.Set("page", strconv.Itoa(number))
		u.RawQuery = q.Encode()
		rels = append(rels, "<"+u.String()+`>; rel="`+rel+`"`)
	}
	if p.number > 1 {
		add("first", 1)
	}
	if p.number > 1 && p.number <= p.last {
		add("prev", p.number-1)
	}
	if p.number < p.last {
		add("next", p.number+1)
	}
	if p.number != p.last {
		add("last", p.last)
	}
	return strings.Join(rels, ", ")
}

// setLink sets the Link header of a page, if it has one.
func (p page) setLink(w http.ResponseWriter, self *url.URL) {
	if l := p.link(self); l != "" {
		w.Header().Set("Link", l)
	}
}
