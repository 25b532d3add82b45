package issuefields

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Pagination of lists.
const (
	// defaultPerPage is the page size of a list without per_page.
	defaultPerPage = 30
	// maxPerPage is the largest page size; a larger per_page is served as
	// maxPerPage.
	maxPerPage = 100
)

// page is one page of a list of n items.
type page struct {
	number, perPage int
	// last is the number of the last page, at least 1.
	last int
}

// pageOf reads page and per_page from rawQuery. A value that is not a
// positive integer falls back to its default, as the API is lenient here.
func pageOf(rawQuery string, n int) page {
	p := page{number: 1, perPage: defaultPerPage}
	if rawQuery != "" {
		query, _ := url.ParseQuery(rawQuery)
		p.number = positiveOr(query.Get("page"), 1)
		p.perPage = min(positiveOr(query.Get("per_page"), defaultPerPage), maxPerPage)
	}
	p.last = max(1, (n+p.perPage-1)/p.perPage)
	return p
}

// positiveOr parses s as a positive integer, or returns def. A positive
// integer too large for an int counts as the largest int, so that a page far
// past the end is past the end, not the first page.
func positiveOr(s string, def int) int {
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil && !errors.Is(err, strconv.ErrRange) || n < 1 {
		return def
	}
	return n // Atoi gives math.MaxInt for a positive integer out of range
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
// first page. The links are absolute URLs of r, under base, with its other
// query parameters.
func (p page) link(base string, r *http.Request) string {
	if p.last == 1 && p.number == 1 {
		return ""
	}
	self := selfURL(base, r)
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
