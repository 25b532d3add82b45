package issuefields

import (
	"context"
	"errors"
	"slices"
)

// The refusals of the authorization decision, besides ErrNotFound (a caller
// who may not see the repository or organization) and the errors of a
// Principal's permission functions. The answer table (answer.go) turns each
// into its status.
var (
	// errRequiresAuthentication refuses an anonymous caller an operation
	// that needs a token: 401.
	errRequiresAuthentication = errors.New("requires authentication")
	// errTokenKindNotAccepted refuses a token of a kind that the values
	// routes do not accept: 403.
	errTokenKindNotAccepted = errors.New("token kind not accepted")
	// errNotAccessible refuses a token whose permissions or scopes do not
	// cover the operation: 403.
	errNotAccessible = errors.New("resource not accessible")
	// errNoPushAccess refuses a write to a token whose permissions would
	// allow it, but whose user has no push access: 403.
	errNoPushAccess = errors.New("no push access")
)

// operation is what a request asks to do, as authorization sees it.
type operation int

const (
	listValues   operation = iota + 1 // list an issue's field values
	writeValues                       // add, set or delete an issue's field values
	listFields                        // list an organization's issue fields
	manageFields                      // create, update or delete an organization's issue fields
	readIssues                        // a host's Route with method GET: read issues, as listValues
	writeIssues                       // a host's Route with another method: create or change issues
)

// writes reports whether op changes something, and so counts toward the
// secondary rate limit.
func (op operation) writes() bool {
	return op == writeValues || op == manageFields || op == writeIssues
}

// The OAuth scopes of classic tokens that the field management routes accept.
const (
	scopeReadOrg  = "read:org"
	scopeWriteOrg = "write:org"
	scopeAdminOrg = "admin:org"
)

// authorizeRepository decides whether principal (nil for an anonymous
// caller) may perform op, listValues, writeValues, readIssues or
// writeIssues, on the issues of repo. It is the one decision of access to
// values, made before a body is read or an issue is shown. For writeIssues
// it decides only that the caller has a token and sees repo: the Route
// decides the permissions its write needs. It returns nil, ErrNotFound, one
// of the refusals above, or the error of principal.Permissions.
func authorizeRepository(ctx context.Context, op operation, repo Repository, principal *Principal) error {
	if principal == nil {
		switch {
		case repo.Private:
			return ErrNotFound
		case op.writes():
			return errRequiresAuthentication
		}
		return nil
	}
	if !principal.Kind.accepted() {
		return errTokenKindNotAccepted
	}
	perms, err := principal.permissionsFor(ctx, repo)
	if err != nil {
		return err
	}
	if repo.Private && !perms.Visible {
		return ErrNotFound
	}
	switch {
	case !op.writes():
		if repo.Private && !perms.Issues.allows(PermissionRead) {
			return notAccessibleBy(principal.Kind)
		}
		return nil
	case op == writeIssues:
		return nil
	}
	if !perms.Issues.allows(PermissionWrite) && !perms.PullRequests.allows(PermissionWrite) {
		return notAccessibleBy(principal.Kind)
	}
	if !perms.Push {
		return errNoPushAccess
	}
	return nil
}

// authorizeOrganization decides whether principal (nil for an anonymous
// caller) may perform op, listFields or manageFields, on the issue fields of
// the organization org. Every caller needs a token. App and fine-grained
// tokens need the organization permission issue_fields (read to list, write
// to manage); classic and OAuth app tokens need the scope read:org (or
// write:org, admin:org) to list and admin:org to manage. It returns nil,
// ErrNotFound for an organization the token may not see, one of the
// refusals above, or the error of principal.OrganizationPermissions.
func authorizeOrganization(ctx context.Context, op operation, org string, principal *Principal) error {
	if principal == nil {
		return errRequiresAuthentication
	}
	perms, err := principal.organizationPermissionsFor(ctx, org)
	if err != nil {
		return err
	}
	if !perms.Visible {
		return ErrNotFound
	}
	if principal.Kind.accepted() {
		level := PermissionRead
		if op.writes() {
			level = PermissionWrite
		}
		if !perms.IssueFields.allows(level) {
			return lacksPermission(principal.Kind, "the organization permission issue_fields="+string(level))
		}
		return nil
	}
	scopes := []string{scopeAdminOrg}
	if !op.writes() {
		scopes = append(scopes, scopeWriteOrg, scopeReadOrg)
	}
	if !slices.ContainsFunc(principal.Scopes, func(s string) bool { return slices.Contains(scopes, s) }) {
		return lacksPermission(principal.Kind, "the scope "+scopes[len(scopes)-1])
	}
	return nil
}
