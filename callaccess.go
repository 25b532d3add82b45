package issuefields

import "fmt"

// The access methods of a Call, for a Route that serves reads and writes
// on one method, as GraphQL does on POST: the decisions stay the handler's
// (authorizeRepository, authorizeOrganization, the secondary rate limit);
// the Route says which of them a request needs.

// ReadOnly makes the rest of the request a read: ReadIssue authorizes the
// caller as a Route with method GET does (a private repository's issues
// need the issues permission at read), and nothing counts toward the
// secondary rate limit. A Route whose method is not GET calls it before it
// reads anything, for a request that changes nothing.
func (c *Call) ReadOnly() {
	if c.c.route.op == readIssues {
		return
	}
	rt := *c.c.route
	rt.op = readIssues
	c.c.route = &rt
}

// LimitWrites applies the secondary rate limit of writes to n writes of the
// request, once however often it is called (LimitWrite is LimitWrites(1)),
// and returns the 422 with Retry-After of a caller over it. A request that
// makes several writes, as a GraphQL document with several mutations does,
// counts each before it makes any; when the limit refuses one, those it
// allowed before it stay spent, since a WriteLimiter gives none back.
func (c *Call) LimitWrites(n int) error {
	if c.c.limited {
		return c.c.limitErr
	}
	c.c.limited = true
	if c.c.principal == nil {
		return nil
	}
	for range n {
		if c.c.limitErr = c.h.allowWrite(c.c); c.c.limitErr != nil {
			break
		}
	}
	return c.c.limitErr
}

// MayWriteValues returns nil when the caller may change the field values of
// the issues of repo, as the values routes decide it (a token of an
// accepted kind, the issues or pull_requests permission at write, push
// access), and otherwise their refusal: 401, 403, or 404 for a repository
// the caller may not see.
func (c *Call) MayWriteValues(repo Repository) error {
	return authorizeRepository(c.c.ctx(), writeValues, repo, c.c.principal)
}

// OrganizationFields returns the fields of the organization org, in the
// organization's order, to a caller that GET /orgs/{org}/issue-fields
// would answer: it needs a token with the organization's issue_fields
// permission at read (or a classic scope that lists fields), and gets 404
// for an organization it may not see, or that the store does not know.
func (c *Call) OrganizationFields(org string) ([]Field, error) {
	if err := authorizeOrganization(c.c.ctx(), listFields, org, c.c.principal); err != nil {
		return nil, err
	}
	if c.h.fields == nil {
		return nil, fmt.Errorf("%w: the store does not manage fields", ErrNotFound)
	}
	return c.h.fields.OrganizationFields(c.c.ctx(), org)
}
