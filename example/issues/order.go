package issues

import (
	"cmp"
	"slices"
	"time"

	"github.com/issuefields/issuefields"
)

// sortIssues orders issues by their creation time (sort "created") or
// their update time ("updated"), newest first unless ascending, and by
// number where the times are equal, so that pages are stable.
func sortIssues(issues []issuefields.Issue, by string, ascending bool) {
	at := func(is issuefields.Issue) time.Time {
		if by == "updated" {
			return cmp.Or(is.UpdatedAt, is.CreatedAt)
		}
		return cmp.Or(is.CreatedAt, is.UpdatedAt)
	}
	slices.SortStableFunc(issues, func(a, b issuefields.Issue) int {
		order := cmp.Or(at(a).Compare(at(b)), cmp.Compare(a.Repository.ID, b.Repository.ID), cmp.Compare(a.Number, b.Number))
		if ascending {
			return order
		}
		return -order
	})
}
