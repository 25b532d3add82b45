package issuefields

import (
	"context"
	"errors"
	"slices"
)

// Errors of the authorization decision, besides ErrNotFound (a caller who may
// not see the repository or organization) and the errors of a Principal's
// permission functions. Authorize and AuthorizeOrganization return them,
// wrapped or not; the handler answers them with the statuses in errors.go.
var (
	// ErrRequiresAuthentication refuses an anonymous caller an operation
	// that needs a token. It becomes 401 Requires authentication.
	ErrRequiresAuthentication = errors.New("issuefields: requires authentication")
	// ErrTokenKindNotAccepted refuses a token of a kind that the values
	// routes do not accept (TokenKind.Accepted). It becomes 403.
	ErrTokenKindNotAccepted = errors.New("issuefields: token kind not accepted")
	// ErrNotAccessible refuses a token whose permissions or scopes do not
	// cover the operation. It becomes 403 Resource not accessible.
	ErrNotAccessible = errors.New("issuefields: resource not accessible")
	// ErrNoPushAccess refuses a write to a token whose permissions would
	// allow it, but whose user has no push access. It becomes 403.
	ErrNoPushAccess = errors.New("issuefields: no push access")
)

// Operation is what a request asks to do, as authorization sees it.
type Operation int

// The operations of the API.
const (
	// ListValues lists the field values of an issue.
	ListValues Operation = iota + 1
	// WriteValues adds, sets or deletes field values of an issue.
	WriteValues
	// ListFields lists the issue fields of an organization.
	ListFields
	// ManageFields creates, updates or deletes issue fields of an
	// organization.
	ManageFields
)

// writes reports whether op changes something, and so counts toward the
// secondary rate limit.
func (op Operation) writes() bool { return op == WriteValues || op == ManageFields }

// Organization permission scopes of classic personal access tokens and OAuth
// app tokens, which the field management routes accept.
const (
	ScopeReadOrg  = "read:org"
	ScopeWriteOrg = "write:org"
	ScopeAdminOrg = "admin:org"
)

// OrganizationPermissions is what a token may do in one organization. The
// zero value grants nothing.
type OrganizationPermissions struct {
	// Visible reports whether the token may see the organization. One that
	// it may not see answers 404, exactly as an organization that does not
	// exist.
	Visible bool
	// IssueFields is the token's "Issue fields" organization permission, which
	// app and fine-grained tokens need to list (read) and manage (write) the
	// organization's fields. Classic tokens need scopes instead.
	IssueFields Permission
}

// Authorize decides whether principal (nil for an anonymous caller) may
// perform op, ListValues or WriteValues, on the issues of repo. It is the one
// decision of access to values: the handler calls it before it reads a body
// or looks an issue up, and a host may call it to tell what a token can do.
// It returns nil, ErrNotFound, ErrRequiresAuthentication,
// ErrTokenKindNotAccepted, ErrNotAccessible, ErrNoPushAccess, or the error of
// principal.Permissions.
func Authorize(ctx context.Context, op Operation, repo Repository, principal *Principal) error {
	if principal == nil {
		switch {
		case repo.Private:
			return ErrNotFound
		case op.writes():
			return ErrRequiresAuthentication
		}
		return nil
	}
	if err := checkKind(op, principal); err != nil {
		return err
	}
	perms, err := principal.permissionsFor(ctx, repo)
	if err != nil {
		return err
	}
	if repo.Private && !perms.Visible {
		return ErrNotFound
	}
	if !op.writes() {
		if repo.Private && !perms.Issues.allows(PermissionRead) {
			return notAccessibleBy(principal.Kind)
		}
		return nil
	}
	if !perms.Issues.allows(PermissionWrite) && !perms.PullRequests.allows(PermissionWrite) {
		return notAccessibleBy(principal.Kind)
	}
	if !perms.Push {
		return ErrNoPushAccess
	}
	return nil
}

// AuthorizeOrganization decides whether principal (nil for an anonymous
// caller) may perform op, ListFields or ManageFields, on the issue fields of
// the organization org. Every caller needs a token. App and fine-grained
// tokens need the organization permission issue_fields (read to list, write
// to manage); classic and OAuth app tokens need the scope read:org (or
// write:org, admin:org) to list and admin:org to manage. It returns nil,
// ErrNotFound for an organization the token may not see,
// ErrRequiresAuthentication, ErrNotAccessible, or the error of
// principal.OrganizationPermissions.
func AuthorizeOrganization(ctx context.Context, op Operation, org string, principal *Principal) error {
	if principal == nil {
		return ErrRequiresAuthentication
	}
	perms, err := principal.organizationPermissionsFor(ctx, org)
	if err != nil {
		return err
	}
	if !perms.Visible {
		return ErrNotFound
	}
	if principal.Kind.Accepted() {
		level := PermissionRead
		if op.writes() {
			level = PermissionWrite
		}
		if !perms.IssueFields.allows(level) {
			return lacksPermission(principal.Kind, "the organization permission issue_fields="+string(level))
		}
		return nil
	}
	scopes := []string{ScopeAdminOrg}
	if !op.writes() {
		scopes = append(scopes, ScopeWriteOrg, ScopeReadOrg)
	}
	if !slices.ContainsFunc(principal.Scopes, func(s string) bool { return slices.Contains(scopes, s) }) {
		return lacksPermission(principal.Kind, "the scope "+scopes[len(scopes)-1])
	}
	return nil
}

// checkKind refuses a token of a kind that op does not accept: the values
// routes accept app and fine-grained tokens only.
func checkKind(op Operation, principal *Principal) error {
	if (op == ListValues || op == WriteValues) && !principal.Kind.Accepted() {
		return ErrTokenKindNotAccepted
	}
	return nil
}
