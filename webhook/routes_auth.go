package webhook

import (
	"slices"

	"github.com/issuefields/issuefields"
)

// authorize decides whether c's principal may do what c's route does with the
// hooks of its scope. An organization's hooks need the organization
// permission organization_hooks (read for the GETs, write for the rest), or
// for classic tokens the scope admin:org_hook; a repository's hooks need the
// repository permission repository_hooks, or the scopes read:repo_hook (the
// GETs), write:repo_hook or admin:repo_hook. A token that cannot see the
// owner gets 404, as an owner that does not exist; one that sees it without
// the permission, 403 that names it; an anonymous caller 401, or 404 for a
// private repository.
func (rt *routes) authorize(c *hookCall) error {
	p := c.Principal()
	if p == nil {
		if c.repo != nil && c.repo.Private {
			return issuefields.ErrNotFound
		}
		return c.RequireToken()
	}
	level := issuefields.PermissionRead
	if c.route.write {
		level = issuefields.PermissionWrite
	}
	var visible bool
	var granted issuefields.Permission
	if c.org {
		var perms issuefields.OrganizationPermissions
		if p.OrganizationPermissions != nil {
			var err error
			if perms, err = p.OrganizationPermissions(c.ctx(), c.scope.Organization); err != nil {
				return err
			}
		}
		visible, granted = perms.Visible, perms.OrganizationHooks
	} else {
		var perms issuefields.RepositoryPermissions
		if p.Permissions != nil {
			var err error
			if perms, err = p.Permissions(c.ctx(), *c.repo); err != nil {
				return err
			}
		}
		visible, granted = perms.Visible || !c.repo.Private, perms.RepositoryHooks
	}
	if !visible {
		return issuefields.ErrNotFound
	}
	if usesScopes(p.Kind) {
		scopes := []string{"admin:org_hook"}
		if !c.org {
			scopes = []string{"admin:repo_hook", "write:repo_hook"}
			if !c.route.write {
				scopes = append(scopes, "read:repo_hook")
			}
		}
		if !slices.ContainsFunc(p.Scopes, func(s string) bool { return slices.Contains(scopes, s) }) {
			return c.NotAccessible("the scope " + scopes[len(scopes)-1])
		}
		return nil
	}
	if !allows(granted, level) {
		return c.NotAccessible("the permission " + permission(c.org, c.route.write))
	}
	return nil
}

// usesScopes reports whether tokens of kind carry OAuth scopes rather than
// permissions: classic personal access tokens and OAuth app tokens.
func usesScopes(kind issuefields.TokenKind) bool {
	return kind == issuefields.ClassicPersonalAccessToken || kind == issuefields.OAuthAppToken
}

// allows reports whether granted is at least level.
func allows(granted, level issuefields.Permission) bool {
	return granted == issuefields.PermissionWrite || granted == issuefields.PermissionRead && level == issuefields.PermissionRead
}
