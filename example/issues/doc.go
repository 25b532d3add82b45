// Package issues serves GitHub's issue routes in the example stand-in, as a
// host's issuefields.Routes: an issue, the issues of a repository, a new
// issue, a change of one, and the search of issues, each issue GitHub's
// issue object (webhook.Objects.Issue) with its issue_field_values as the
// values list gives them. Each route reads and writes through the
// issuefields.Call's issue methods, so that access, redirects, validation of
// values, ETags and the write sequence are the values routes' own.
//
// ParseSearch and Find, the search's query and its matching, are exported
// for a GraphQL package to search as the REST route does.
package issues
