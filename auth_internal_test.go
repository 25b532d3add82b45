package issuefields

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The messages of the permission model, as a client reads them.
const (
	authMsgRequiresAuthentication = "Requires authentication"
	authMsgBadCredentials         = "Bad credentials"
	authMsgNotFound               = "Not Found"
	authMsgNotAccessibleByPAT     = "Resource not accessible by personal access token"
	authMsgNotAccessibleByApp     = "Resource not accessible by integration"
	authMsgNoPushAccess           = "Must have push access to this repository"
	authMsgKindNotAccepted        = "This endpoint accepts only app user access tokens, app installation access tokens and fine-grained personal access tokens."
)

// grantingPrincipal returns a principal of kind whose permissions are perms
// in every repository.
func grantingPrincipal(kind TokenKind, perms RepositoryPermissions) *Principal {
	return &Principal{Kind: kind, Login: string(kind), Permissions: func(context.Context, Repository) (RepositoryPermissions, error) {
		return perms, nil
	}}
}

// decisionPrincipals are the tokens that decisionVerifier knows.
var decisionPrincipals = map[string]*Principal{
	"pat-writer":      grantingPrincipal(FineGrainedPersonalAccessToken, RepositoryPermissions{Visible: true, Issues: PermissionWrite, Push: true}),
	"app-pr-writer":   grantingPrincipal(AppInstallationToken, RepositoryPermissions{Visible: true, PullRequests: PermissionWrite, Push: true}),
	"app-user-writer": grantingPrincipal(AppUserToken, RepositoryPermissions{Visible: true, Issues: PermissionWrite, Push: true}),
	"pat-reader":      grantingPrincipal(FineGrainedPersonalAccessToken, RepositoryPermissions{Visible: true, Issues: PermissionRead}),
	"app-reader":      grantingPrincipal(AppInstallationToken, RepositoryPermissions{Visible: true, Issues: PermissionRead}),
	"pat-visible":     grantingPrincipal(FineGrainedPersonalAccessToken, RepositoryPermissions{Visible: true}),
	"app-user-seeing": grantingPrincipal(AppUserToken, RepositoryPermissions{Visible: true, PullRequests: PermissionRead}),
	"pat-blind":       grantingPrincipal(FineGrainedPersonalAccessToken, RepositoryPermissions{}),
	"pat-no-push":     grantingPrincipal(FineGrainedPersonalAccessToken, RepositoryPermissions{Visible: true, Issues: PermissionWrite}),
	"classic":         grantingPrincipal(ClassicPersonalAccessToken, RepositoryPermissions{Visible: true, Issues: PermissionWrite, Push: true}),
	"oauth":           grantingPrincipal(OAuthAppToken, RepositoryPermissions{Visible: true, Issues: PermissionWrite, Push: true}),
	"pat-no-func":     {Kind: FineGrainedPersonalAccessToken, Login: "no-func"},
}

// decisionVerifier knows decisionPrincipals and one expired token.
var decisionVerifier = TokenVerifierFunc(func(_ context.Context, token string) (*Principal, error) {
	if token == "expired" {
		return nil, fmt.Errorf("token expired at 2025-01-01T00:00:00Z: %w", ErrBadCredentials)
	}
	if p, ok := decisionPrincipals[token]; ok {
		return p, nil
	}
	return nil, ErrBadCredentials
})

// decisionAllowed is the decision for a request that may proceed.
var decisionAllowed = decision{}

// decision is the status and message of a refusal, or decisionAllowed.
type decision struct {
	status  int
	message string
}

func (o decision) String() string {
	if o == decisionAllowed {
		return "allowed"
	}
	return fmt.Sprintf("%d %q", o.status, o.message)
}

// decideAccess runs the access decision for r on repo: authenticate, then
// authorize.
func decideAccess(r *http.Request, op *route, repo Repository) decision {
	p, err := authenticate(r.Context(), r, decisionVerifier)
	if err == nil {
		err = authorizeRepository(r.Context(), op.op, repo, p)
	}
	if err == nil {
		return decisionAllowed
	}
	e := answerTo(err, op)
	return decision{e.status, e.message}
}

// TestAccessDecision checks the access decision against every cell of the
// permission table, for list and for the writes, and the parsing of the
// Authorization header.
func TestAccessDecision(t *testing.T) {
	public := Repository{ID: 1, Owner: "octo-org", Name: "hello-world", OwnedByOrganization: true}
	private := Repository{ID: 2, Owner: "octo-org", Name: "secret", Private: true, OwnedByOrganization: true}
	bearer := func(token string) []string { return []string{"Bearer " + token} }
	var (
		requiresAuth   = decision{http.StatusUnauthorized, authMsgRequiresAuthentication}
		badCredentials = decision{http.StatusUnauthorized, authMsgBadCredentials}
		notFound       = decision{http.StatusNotFound, authMsgNotFound}
		kindRefused    = decision{http.StatusForbidden, authMsgKindNotAccepted}
		byPAT          = decision{http.StatusForbidden, authMsgNotAccessibleByPAT}
		byApp          = decision{http.StatusForbidden, authMsgNotAccessibleByApp}
		noPush         = decision{http.StatusForbidden, authMsgNoPushAccess}
	)
	tests := []struct {
		name  string
		auth  []string // Authorization header values
		repo  Repository
		write bool
		want  decision
	}{
		// The cells of the table.
		{"no Authorization, public repository, list", nil, public, false, decisionAllowed},
		{"no Authorization, public repository, write", nil, public, true, requiresAuth},
		{"no Authorization, private repository, list", nil, private, false, notFound},
		{"no Authorization, private repository, write", nil, private, true, notFound},
		{"malformed header, list", []string{"Basic cGF0LXdyaXRlcg=="}, public, false, badCredentials},
		{"malformed header, write", []string{"Basic cGF0LXdyaXRlcg=="}, private, true, badCredentials},
		{"unknown token, list", bearer("no-such-token"), public, false, badCredentials},
		{"unknown token, write", bearer("no-such-token"), private, true, badCredentials},
		{"expired token, list", bearer("expired"), public, false, badCredentials},
		{"expired token, write", bearer("expired"), public, true, badCredentials},
		{"classic PAT, list", bearer("classic"), public, false, kindRefused},
		{"classic PAT, write", bearer("classic"), private, true, kindRefused},
		{"OAuth app token, list", bearer("oauth"), private, false, kindRefused},
		{"OAuth app token, write", bearer("oauth"), public, true, kindRefused},
		{"token cannot see the private repository, list", bearer("pat-blind"), private, false, notFound},
		{"token cannot see the private repository, write", bearer("pat-blind"), private, true, notFound},
		{"PAT sees the private repository, issues below read, list", bearer("pat-visible"), private, false, byPAT},
		{"app token sees the private repository, issues below read, list", bearer("app-user-seeing"), private, false, byApp},
		{"PAT lacks issues write and pull_requests write, write", bearer("pat-reader"), private, true, byPAT},
		{"app token lacks issues write and pull_requests write, write", bearer("app-reader"), private, true, byApp},
		{"app token with pull_requests read only, write", bearer("app-user-seeing"), public, true, byApp},
		{"permission fine, no push access, write", bearer("pat-no-push"), public, true, noPush},
		{"permission fine, no push access, private, write", bearer("pat-no-push"), private, true, noPush},
		// What the table allows.
		{"issues read, private repository, list", bearer("pat-reader"), private, false, decisionAllowed},
		{"issues write and push, private repository, write", bearer("pat-writer"), private, true, decisionAllowed},
		{"pull_requests write and push, write", bearer("app-pr-writer"), private, true, decisionAllowed},
		{"app user with issues write and push, write", bearer("app-user-writer"), public, true, decisionAllowed},
		{"no permission, public repository, list", bearer("pat-visible"), public, false, decisionAllowed},
		{"sees no private repository, public repository, list", bearer("pat-blind"), public, false, decisionAllowed},
		{"nil Permissions, public repository, list", bearer("pat-no-func"), public, false, decisionAllowed},
		{"nil Permissions, public repository, write", bearer("pat-no-func"), public, true, byPAT},
		{"nil Permissions, private repository, list", bearer("pat-no-func"), private, false, notFound},
		// The Authorization header.
		{"scheme token", []string{"token pat-writer"}, public, true, decisionAllowed},
		{"lower-case scheme", []string{"bearer pat-writer"}, public, true, decisionAllowed},
		{"upper-case scheme", []string{"TOKEN pat-writer"}, public, true, decisionAllowed},
		{"token with surrounding spaces", []string{"Bearer   pat-writer  "}, public, true, decisionAllowed},
		{"scheme without token", []string{"Bearer"}, public, false, badCredentials},
		{"scheme and a space", []string{"Bearer "}, public, false, badCredentials},
		{"empty header", []string{""}, public, false, badCredentials},
		{"token without scheme", []string{"pat-writer"}, public, false, badCredentials},
		{"two headers", []string{"Bearer pat-writer", "Bearer pat-writer"}, public, true, badCredentials},
		{"unknown scheme", []string{"Basic pat-writer"}, public, false, badCredentials},
		{"token with an inner space", []string{"Bearer pat writer"}, public, false, badCredentials},
		{"malformed header on a private repository", []string{"Bearer pat writer"}, private, false, badCredentials},
	}
	for _, tt := range tests {
		for _, op := range routes {
			if op.op != listValues && op.op != writeValues || op.op.writes() != tt.write {
				continue
			}
			t.Run(tt.name+"/"+op.method, func(t *testing.T) {
				r := httptest.NewRequest(op.method, "/", nil)
				for _, v := range tt.auth {
					r.Header.Add("Authorization", v)
				}
				if got := decideAccess(r, op, tt.repo); got != tt.want {
					t.Errorf("Authorization %q, %s repository: got %v, want %v", tt.auth, visibilityOf(tt.repo), got, tt.want)
				}
			})
		}
	}
}

// visibilityOf names whether repo is public or private.
func visibilityOf(repo Repository) string {
	if repo.Private {
		return "private"
	}
	return "public"
}
