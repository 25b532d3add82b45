package issues

import "github.com/issuefields/issuefields"

// MayWrite decides whether the caller of c may create or change issues of
// repo (their state, as GraphQL's closeIssue and reopenIssue change it, too),
// as GitHub decides it: it needs issues=write (403 naming it
// otherwise). It reports whether the caller has push access too, without
// which a request's issue_field_values, labels and assignees are dropped.
// c.ReadIssue has checked that the caller has a token and sees repo. The
// caller's write then counts toward the secondary rate limit.
func MayWrite(c *issuefields.Call, repo issuefields.Repository) (push bool, err error) {
	var perms issuefields.RepositoryPermissions
	if p := c.Principal(); p != nil && p.Permissions != nil {
		if perms, err = p.Permissions(c.Request().Context(), repo); err != nil {
			return false, err
		}
	}
	if perms.Issues != issuefields.PermissionWrite {
		return false, c.NotAccessible("the permission issues=write")
	}
	return perms.Push, c.LimitWrite()
}
