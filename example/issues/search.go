package issues

import (
	"errors"
	"net/http"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// searchResult is the answer of a search, in GitHub's shape.
type searchResult struct {
	TotalCount        int          `json:"total_count"`
	IncompleteResults bool         `json:"incomplete_results"`
	Items             []searchItem `json:"items"`
}

// searchItem is an issue that a search found: the issue object with
// GitHub's score, which the stand-in does not rank by.
type searchItem struct {
	webhook.IssueObject
	Score float64 `json:"score"`
}

// search serves GET /search/issues: a page of the issues, of those the
// caller may read, that q finds, newest first unless sort and order say
// otherwise, with Link to the other pages.
func (s *server) search(c *issuefields.Call) error {
	if s.store == nil {
		return errNoIssueStore
	}
	query := c.Request().URL.Query()
	q, by, order := query.Get("q"), query.Get("sort"), query.Get("order")
	var problems []any
	invalid := func(field, code, message string) {
		problems = append(problems, problem{Resource: "Search", Field: field, Code: code, Message: message})
	}
	parsed, err := ParseSearch(q)
	var unknown *UnknownQualifierError
	switch {
	case q == "":
		invalid("q", "missing", "q is required: the query, such as repo:OWNER/NAME field.Priority:High.")
	case errors.As(err, &unknown):
		invalid("q", "invalid", unknown.Error())
	}
	if by != "" && by != "created" && by != "updated" {
		invalid("sort", "invalid", "sort must be created or updated.")
	}
	if order != "" && order != "asc" && order != "desc" {
		invalid("order", "invalid", "order must be asc or desc.")
	}
	if len(problems) > 0 {
		return c.Invalid(problems...)
	}
	found, err := Find(c.Request().Context(), s.store, parsed, c.MayRead)
	if err != nil {
		return err
	}
	sortBy(found, func(snap issuefields.Snapshot) issuefields.Issue { return snap.Issue }, by, order == "asc")
	lo, hi := c.Page(len(found))
	out := searchResult{TotalCount: len(found), Items: make([]searchItem, 0, hi-lo)}
	for _, snap := range found[lo:hi] {
		out.Items = append(out.Items, searchItem{IssueObject: s.object(c, snap), Score: 1})
	}
	return c.WriteJSON(http.StatusOK, out)
}
