package issuefields

import (
	"context"
	"errors"
	"net/http"
	"strings"
)

// ErrBadCredentials is what a TokenVerifier returns for a token it does not
// know or that has expired. It becomes 401 Bad credentials.
var ErrBadCredentials = errors.New("issuefields: bad credentials")

// TokenKind is the kind of access token a Principal authenticated with.
type TokenKind string

// The kinds of access token. The values routes accept the first three; a
// request made to them with a token of another kind is refused with 403.
const (
	AppUserToken                   TokenKind = "app_user"
	AppInstallationToken           TokenKind = "app_installation"
	FineGrainedPersonalAccessToken TokenKind = "fine_grained_pat"
	ClassicPersonalAccessToken     TokenKind = "classic_pat"
	OAuthAppToken                  TokenKind = "oauth_app"
)

// accepted reports whether the values routes accept tokens of kind k.
func (k TokenKind) accepted() bool {
	switch k {
	case AppUserToken, AppInstallationToken, FineGrainedPersonalAccessToken:
		return true
	}
	return false
}

// actor names the kind of caller in "Resource not accessible by …" messages,
// as the API this package serves words them.
func (k TokenKind) actor() string {
	if k == AppUserToken || k == AppInstallationToken {
		return "integration"
	}
	return "personal access token"
}

// Permission is an access level of a token's repository permission.
type Permission string

// The access levels. The zero Permission means PermissionNone.
const (
	PermissionNone  Permission = "none"
	PermissionRead  Permission = "read"
	PermissionWrite Permission = "write"
)

// allows reports whether p grants at least level. An unknown Permission
// grants nothing.
func (p Permission) allows(level Permission) bool {
	switch p {
	case PermissionWrite:
		return true
	case PermissionRead:
		return level == PermissionRead
	}
	return false
}

// RepositoryPermissions is what a token may do in one repository. The zero
// value grants nothing.
type RepositoryPermissions struct {
	// Visible reports whether the token may see the repository at all. A
	// private repository that a token may not see answers 404, exactly as a
	// repository that does not exist. Every token sees public repositories,
	// whatever Visible says.
	Visible bool
	// Issues is the token's "Issues" repository permission.
	Issues Permission
	// PullRequests is the token's "Pull requests" repository permission.
	PullRequests Permission
	// Push reports whether the token's user (or app) has push access to the
	// repository, which every write needs in addition to a permission.
	Push bool
	// RepositoryHooks is the token's "Webhooks" repository permission,
	// which the webhook package's routes for the repository's hooks need.
	RepositoryHooks Permission
}

// OrganizationPermissions is what a token may do in one organization. The
// zero value grants nothing.
type OrganizationPermissions struct {
	// Visible reports whether the token may see the organization. One that
	// it may not see answers 404, exactly as an organization that does not
	// exist.
	Visible bool
	// IssueFields is the token's "Issue fields" organization permission,
	// which app and fine-grained tokens need to list (read) and manage
	// (write) the organization's fields. Classic tokens need scopes instead.
	IssueFields Permission
	// OrganizationHooks is the token's "Webhooks" organization permission,
	// which the webhook package's routes for the organization's hooks need.
	OrganizationHooks Permission
}

// Principal is the caller a token stands for.
type Principal struct {
	// Kind is the kind of token the caller presented.
	Kind TokenKind
	// Login is the caller's login. The handler logs it and puts it in
	// notifications; it never decides access by it.
	Login string
	// Permissions reports what the token may do in repo. It is called for
	// the request's repository, and for the repository an issue was
	// transferred to, each time the handler finds the issue in a Snapshot:
	// once a request, and again for each fresh Snapshot that a write reads
	// when its first one proved stale. It is called with the request's
	// context, from many goroutines at once. A nil Permissions grants
	// nothing: the principal may list the values of public repositories'
	// issues and do nothing else. An error that wraps ErrUnavailable
	// becomes 503; any other error becomes 500.
	Permissions func(ctx context.Context, repo Repository) (RepositoryPermissions, error)
	// OrganizationPermissions reports what the token may do in the
	// organization org, a login as the request spells it (compare it
	// case-insensitively). The field management routes call it once per
	// request. A nil OrganizationPermissions grants nothing: every
	// organization answers 404.
	OrganizationPermissions func(ctx context.Context, org string) (OrganizationPermissions, error)
	// Scopes are the OAuth scopes of a classic personal access token or an
	// OAuth app token, such as "read:org" and "admin:org". Only the field
	// management routes read them.
	Scopes []string
}

// organizationPermissionsFor returns p's permissions in the organization org.
func (p *Principal) organizationPermissionsFor(ctx context.Context, org string) (OrganizationPermissions, error) {
	if p.OrganizationPermissions == nil {
		return OrganizationPermissions{}, nil
	}
	return p.OrganizationPermissions(ctx, org)
}

// permissionsFor returns p's permissions in repo.
func (p *Principal) permissionsFor(ctx context.Context, repo Repository) (RepositoryPermissions, error) {
	if p.Permissions == nil {
		return RepositoryPermissions{}, nil
	}
	return p.Permissions(ctx, repo)
}

// A TokenVerifier turns the token of a request's Authorization header into the
// Principal it stands for.
//
// The handler calls VerifyToken once for every request that carries one
// well-formed Authorization header, from many goroutines at once, with the
// request's context, before it looks at the request's body. token is the
// credential without its scheme (Bearer or token) and never empty. A request
// with a malformed Authorization header is answered 401 Bad credentials
// without a call.
//
// VerifyToken returns ErrBadCredentials (wrapped or not) for a token it does
// not know or that has expired, which becomes 401 Bad credentials; an error
// that wraps ErrUnavailable, which becomes 503; or any other error, which
// becomes 500 and is logged. It must not return a nil Principal without an
// error. The handler only reads the Principal, so a verifier may return the
// same one for every request with a token, one that it keeps, say.
//
// The handler never logs a token or shows it to a client; it cuts the token
// out of the text of VerifyToken's errors before it logs them.
type TokenVerifier interface {
	VerifyToken(ctx context.Context, token string) (*Principal, error)
}

// TokenVerifierFunc adapts an ordinary function to the TokenVerifier
// interface, as http.HandlerFunc does for http.Handler.
type TokenVerifierFunc func(ctx context.Context, token string) (*Principal, error)

// VerifyToken calls f(ctx, token).
func (f TokenVerifierFunc) VerifyToken(ctx context.Context, token string) (*Principal, error) {
	return f(ctx, token)
}

type principalKey struct{}

// principalContext is the context of an authenticated request: its parent,
// with the principal as the value of principalKey{}, as context.WithValue
// would make it, but as a value that the call of the request holds.
type principalContext struct {
	context.Context
	principal *Principal
}

// Value returns the principal for principalKey{}, and asks the parent for
// any other key.
func (c *principalContext) Value(key any) any {
	if key == (principalKey{}) {
		return c.principal
	}
	return c.Context.Value(key)
}

// PrincipalFromContext returns the Principal of the request that ctx belongs
// to, if the request was authenticated. The handler puts it in the context
// that it passes to the Store and the Notifier, so that a host can record who
// wrote what. It is the Principal that the TokenVerifier returned, which
// other requests may share: read it, never change it.
func PrincipalFromContext(ctx context.Context) (*Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(*Principal)
	return p, ok
}

// errMalformedAuthorization is the cause logged for an Authorization header
// that is not a single "Bearer <token>" or "token <token>".
var errMalformedAuthorization = errors.New("malformed Authorization header")

// bearerToken returns the token of r's Authorization header. present is false
// when r has no Authorization header. A header that is present but is not
// exactly one "Bearer <token>" or "token <token>" (scheme case-insensitive,
// token of visible ASCII) gives an error that wraps ErrBadCredentials.
func bearerToken(r *http.Request) (token string, present bool, err error) {
	values := r.Header["Authorization"]
	if len(values) == 0 {
		return "", false, nil
	}
	if len(values) > 1 {
		return "", true, errors.Join(ErrBadCredentials, errMalformedAuthorization)
	}
	scheme, rest, _ := strings.Cut(strings.Trim(values[0], " \t"), " ")
	token = strings.Trim(rest, " \t")
	if !strings.EqualFold(scheme, "bearer") && !strings.EqualFold(scheme, "token") || !isVisibleASCII(token) {
		return "", true, errors.Join(ErrBadCredentials, errMalformedAuthorization)
	}
	return token, true, nil
}

// isVisibleASCII reports whether s is not empty and every byte of it is a
// visible ASCII character: no space, no control character, nothing beyond
// ASCII (a Unicode space such as U+00A0 included).
func isVisibleASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return s != ""
}

// authenticate verifies the credentials of r, if it carries any. It returns a
// nil Principal for an anonymous request. It refuses bad credentials (401)
// whatever the repository or organization, so that this answer says nothing
// about which exist.
func authenticate(ctx context.Context, r *http.Request, verifier TokenVerifier) (*Principal, error) {
	token, present, err := bearerToken(r)
	if !present || err != nil {
		return nil, err
	}
	p, err := verifyToken(ctx, verifier, token)
	if err != nil {
		return nil, &redactedError{err: err, token: token}
	}
	if p == nil {
		return nil, errors.New("issuefields: TokenVerifier returned no Principal and no error")
	}
	return p, nil
}

// verifyToken calls verifier for token, and turns a panic of the verifier
// into an error that carries the panic's value and stack, so that the caller
// can cut the token out of them before they are logged.
func verifyToken(ctx context.Context, verifier TokenVerifier, token string) (p *Principal, err error) {
	defer func() {
		if v := recover(); v != nil {
			p, err = nil, panicked(v)
		}
	}()
	return verifier.VerifyToken(ctx, token)
}

// redactedError is an error of a TokenVerifier with the token cut out of its
// text. The handler logs the causes of 500 and 503 answers, and a verifier's
// error may quote the token it was given (a *url.Error quotes its URL, say).
type redactedError struct {
	err   error
	token string
}

func (e *redactedError) Error() string {
	return strings.ReplaceAll(e.err.Error(), e.token, "[token]")
}

func (e *redactedError) Unwrap() error { return e.err }
