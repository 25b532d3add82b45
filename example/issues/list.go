package issues

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// listQuery is what the query of a list asks for.
type listQuery struct {
	state     string   // open, closed or all
	labels    []string // every one of them, compared case-insensitively
	sort      string   // created or updated
	ascending bool
	since     time.Time // updated at or after; zero for any time
}

// readListQuery reads the query of c's list, or returns the 422 of every
// parameter that is invalid.
func readListQuery(c *issuefields.Call) (listQuery, error) {
	q := c.Request().URL.Query()
	lq := listQuery{state: "open", sort: "created"}
	var problems []any
	choose := func(name string, allowed []string, into *string) {
		if v := q.Get(name); v != "" {
			if !slices.Contains(allowed, v) {
				problems = append(problems, problem{Resource: "Issue", Code: "invalid", Field: name,
					Message: name + " must be one of " + strings.Join(allowed, ", ") + "."})
				return
			}
			*into = v
		}
	}
	direction := "desc"
	choose("state", []string{"open", "closed", "all"}, &lq.state)
	choose("sort", []string{"created", "updated"}, &lq.sort)
	choose("direction", []string{"asc", "desc"}, &direction)
	lq.ascending = direction == "asc"
	for name := range strings.SplitSeq(q.Get("labels"), ",") {
		if name = strings.TrimSpace(name); name != "" {
			lq.labels = append(lq.labels, name)
		}
	}
	if v := q.Get("since"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			problems = append(problems, problem{Resource: "Issue", Code: "invalid", Field: "since",
				Message: "since must be a timestamp in ISO 8601 format: YYYY-MM-DDTHH:MM:SSZ."})
		}
		lq.since = t
	}
	if len(problems) > 0 {
		return lq, c.Invalid(problems...)
	}
	return lq, nil
}

// matches reports whether is is one that lq lists.
func (lq listQuery) matches(is issuefields.Issue) bool {
	if lq.state != "all" && stateOf(is) != lq.state {
		return false
	}
	for _, want := range lq.labels {
		if !slices.ContainsFunc(is.Labels, func(l string) bool { return strings.EqualFold(l, want) }) {
			return false
		}
	}
	return lq.since.IsZero() || !is.UpdatedAt.Before(lq.since)
}

// stateOf returns the state of is, open for a record that gives none.
func stateOf(is issuefields.Issue) string {
	if is.State == "" {
		return "open"
	}
	return is.State
}

// list serves GET of a repository's issues: a page of those the query
// names, with Link to the others.
func (s *server) list(c *issuefields.Call) error {
	owner, name := path(c)
	snap, err := c.ReadIssue(owner, name, 0)
	if err != nil {
		return err
	}
	if s.store == nil {
		return errNoIssueStore
	}
	lq, err := readListQuery(c)
	if err != nil {
		return err
	}
	all, err := s.store.Issues(c.Request().Context(), issuefields.IssueQuery{Repositories: []int64{snap.Repository.ID}})
	if err != nil {
		return err
	}
	var found []issuefields.Issue
	for _, is := range all {
		if lq.matches(is) {
			found = append(found, is)
		}
	}
	sortBy(found, func(is issuefields.Issue) issuefields.Issue { return is }, lq.sort, lq.ascending)
	lo, hi := c.Page(len(found))
	items := make([]webhook.IssueObject, 0, hi-lo)
	for _, is := range found[lo:hi] {
		one := snap
		one.Issue, one.IssueErr = is, nil
		items = append(items, s.object(c, one))
	}
	return c.WriteJSON(http.StatusOK, items)
}
