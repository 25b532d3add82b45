package issues

import (
	"cmp"
	"slices"
	"time"

	"github.com/issuefields/issuefields"
)

// sortBy orders items, each of which issue gives the issue of, by the
// issues' creation time (by "created" or "") or update time ("updated"),
// newest first unless ascending, and by repository and number where the
// times are equal, so that pages are stable.
func sortBy[T any](items []T, issue func(T) issuefields.Issue, by string, ascending bool) {
	at := func(is issuefields.Issue) time.Time {
		if by == "updated" {
			return cmp.Or(is.UpdatedAt, is.CreatedAt)
		}
		return cmp.Or(is.CreatedAt, is.UpdatedAt)
	}
	slices.SortStableFunc(items, func(x, y T) int {
		a, b := issue(x), issue(y)
		order := cmp.Or(at(a).Compare(at(b)), cmp.Compare(a.Repository.ID, b.Repository.ID), cmp.Compare(a.Number, b.Number))
		if ascending {
			return order
		}
		return -order
	})
}
