package datafile

import (
	"context"
	"crypto/sha256"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
)

// Tokens are the tokens of a data file, as an issuefields.TokenVerifier: a
// fixed set of tokens, each with a kind, a login and permissions per
// repository and organization. They keep only the SHA-256 of each token, so a
// presented token is never compared with a stored one byte by byte: its hash
// is looked up. They are safe for concurrent use because they do not change
// after loading.
type Tokens struct {
	byHash map[[sha256.Size]byte]*tokenEntry
}

// A tokenEntry is what Tokens know about one token: everything but the
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

// newTokens returns Tokens that know no token.
func newTokens() *Tokens {
	return &Tokens{byHash: make(map[[sha256.Size]byte]*tokenEntry)}
}

// add adds token with the given entry. It reports false, and adds nothing, if
// t already hold the token.
func (t *Tokens) add(token string, e *tokenEntry) bool {
	h := sha256.Sum256([]byte(token))
	if _, ok := t.byHash[h]; ok {
		return false
	}
	e.principal.Permissions, e.principal.OrganizationPermissions = e.permissions, e.organizationPermissions
	t.byHash[h] = e
	return true
}

// remap returns the same tokens with permissions that follow repos, a map
// from repository IDs of one store to the repositories of another. A
// repository whose ID is not in repos is left out of every token's
// permissions.
func (t *Tokens) remap(repos map[int64]issuefields.Repository) *Tokens {
	m := newTokens()
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

// entry returns the entry of token, or nil for a token not in t.
func (t *Tokens) entry(token string) *tokenEntry {
	return t.byHash[sha256.Sum256([]byte(token))]
}

// VerifyToken returns the principal of token. It returns
// issuefields.ErrBadCredentials for a token not in t or whose expiry has
// passed.
func (t *Tokens) VerifyToken(_ context.Context, token string) (*issuefields.Principal, error) {
	e := t.entry(token)
	// The clock is read only for a token that expires.
	if e == nil || !e.expiresAt.IsZero() && e.expired(time.Now()) {
		return nil, issuefields.ErrBadCredentials
	}
	return &e.principal, nil
}

// Principal returns the principal of token whether or not it has expired, or
// nil for a token not in t.
func (t *Tokens) Principal(token string) *issuefields.Principal {
	if e := t.entry(token); e != nil {
		return &e.principal
	}
	return nil
}

// Expired reports whether token is refused at now because it has expired,
// and the time from which it is refused.
func (t *Tokens) Expired(token string, now time.Time) (bool, time.Time) {
	e := t.entry(token)
	if e == nil {
		return false, time.Time{}
	}
	return e.expired(now), e.expiresAt
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
