package server

import (
	"context"
	"crypto/sha256"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
)

// A tokenTable is the server's issuefields.TokenVerifier: it knows a fixed set
// of tokens, each with a kind, a login and permissions per repository. It
// keeps only the SHA-256 of each token, so a presented token is never compared
// with a stored one byte by byte: its hash is looked up. It is safe for
// concurrent use because it does not change after loading.
type tokenTable struct {
	byHash map[[sha256.Size]byte]*tokenEntry
}

// A tokenEntry is what the table knows about one token: everything but the
// token itself.
type tokenEntry struct {
	principal issuefields.Principal
	// expiresAt is the time from which the token is refused; the zero time
	// means never.
	expiresAt time.Time
	// repos are the token's permissions by repository ID, which stays the
	// same when a repository is renamed or transferred. A repository that is
	// not listed is not visible to the token.
	repos map[int64]issuefields.RepositoryPermissions
	// orgs are the token's organization permissions by lower-cased login.
	// An organization that is not listed is visible, with no permission,
	// when it owns one of the token's repositories (it is in owners, by
	// lower-cased login) or when allOrgs is set.
	orgs    map[string]issuefields.OrganizationPermissions
	owners  map[string]bool
	allOrgs bool
}

// newTokenEntry returns the entry of a token of principal, with no
// permissions yet.
func newTokenEntry(principal issuefields.Principal) *tokenEntry {
	return &tokenEntry{
		principal: principal,
		repos:     make(map[int64]issuefields.RepositoryPermissions),
		orgs:      make(map[string]issuefields.OrganizationPermissions),
		owners:    make(map[string]bool),
	}
}

// newTokenTable returns an empty table.
func newTokenTable() *tokenTable {
	return &tokenTable{byHash: make(map[[sha256.Size]byte]*tokenEntry)}
}

// add adds token with the given entry. It reports false, and adds nothing, if
// the table already has the token.
func (t *tokenTable) add(token string, e *tokenEntry) bool {
	h := sha256.Sum256([]byte(token))
	if _, ok := t.byHash[h]; ok {
		return false
	}
	e.principal.Permissions, e.principal.OrganizationPermissions = e.permissions, e.organizationPermissions
	t.byHash[h] = e
	return true
}

// remap returns a table of the same tokens whose permissions follow repos, a
// map from repository IDs of one store to the repositories of another. A
// repository whose ID is not in repos is left out of every token's
// permissions.
func (t *tokenTable) remap(repos map[int64]issuefields.Repository) *tokenTable {
	m := newTokenTable()
	for h, e := range t.byHash {
		moved := newTokenEntry(e.principal)
		moved.expiresAt, moved.orgs, moved.allOrgs = e.expiresAt, e.orgs, e.allOrgs
		for id, p := range e.repos {
			if to, ok := repos[id]; ok {
				moved.repos[to.ID] = p
				moved.owners[strings.ToLower(to.Owner)] = true
			}
		}
		moved.principal.Permissions, moved.principal.OrganizationPermissions = moved.permissions, moved.organizationPermissions
		m.byHash[h] = moved
	}
	return m
}

// entry returns the entry of token, or nil if the table does not know it.
func (t *tokenTable) entry(token string) *tokenEntry {
	return t.byHash[sha256.Sum256([]byte(token))]
}

// VerifyToken returns the principal of token. It returns
// issuefields.ErrBadCredentials for a token the table does not know or whose
// expiry has passed.
func (t *tokenTable) VerifyToken(_ context.Context, token string) (*issuefields.Principal, error) {
	e := t.entry(token)
	// The clock is read only for a token that expires.
	if e == nil || !e.expiresAt.IsZero() && e.expired(time.Now()) {
		return nil, issuefields.ErrBadCredentials
	}
	return &e.principal, nil
}

// expired reports whether the token is refused at now.
func (e *tokenEntry) expired(now time.Time) bool {
	return !e.expiresAt.IsZero() && !now.Before(e.expiresAt)
}

// permissions returns the token's permissions in repo: those listed for it,
// found by its stable ID, and none (not even visibility) otherwise.
func (e *tokenEntry) permissions(_ context.Context, repo issuefields.Repository) (issuefields.RepositoryPermissions, error) {
	return e.repos[repo.ID], nil
}

// organizationPermissions returns the token's permissions in the
// organization org: those listed for it, and otherwise none. A token sees an
// organization that it lists, that owns one of its repositories, or any
// organization if it sees every one.
func (e *tokenEntry) organizationPermissions(_ context.Context, org string) (issuefields.OrganizationPermissions, error) {
	key := strings.ToLower(org)
	if p, ok := e.orgs[key]; ok {
		return p, nil
	}
	return issuefields.OrganizationPermissions{Visible: e.allOrgs || e.owners[key]}, nil
}
