package issuefields_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// Tokens that the tests of the permission model add to the fixture's.
const (
	appReaderToken    = "app-reader-token"        // app installation: issues read
	appSeeingToken    = "app-seeing-token"        // app user: sees repositories, no permission
	publicWriterToken = "public-writer-token"     // fine-grained PAT: issues write and push, sees no private repository
	expiredToken      = "expired-token"           // fine-grained PAT past its expiry
	leakyToken        = "leaky-token-5f2c"        // the verifier fails with an error that quotes the token
	leakyBusyToken    = "leaky-busy-token-9e1d"   // the verifier is unavailable, with an error that quotes the token
	unknownToken      = "unknown-token-41b7"      // a token nobody issued
	malformedToken    = "token-in-a-header-8c3a0" // sent only inside malformed headers
)

// authVerifier knows the fixture's tokens and the ones above.
var authVerifier = issuefields.TokenVerifierFunc(func(ctx context.Context, token string) (*issuefields.Principal, error) {
	const w, r = issuefields.PermissionWrite, issuefields.PermissionRead
	switch token {
	case appReaderToken:
		return principalWith(issuefields.AppInstallationToken, "reader-bot[bot]", issuefields.RepositoryPermissions{Visible: true, Issues: r}), nil
	case appSeeingToken:
		return principalWith(issuefields.AppUserToken, "app-seeing", issuefields.RepositoryPermissions{Visible: true}), nil
	case publicWriterToken:
		p := principalWith(issuefields.FineGrainedPersonalAccessToken, "public-writer", issuefields.RepositoryPermissions{})
		p.Permissions = func(_ context.Context, repo issuefields.Repository) (issuefields.RepositoryPermissions, error) {
			if repo.Private {
				return issuefields.RepositoryPermissions{}, nil
			}
			return issuefields.RepositoryPermissions{Visible: true, Issues: w, Push: true}, nil
		}
		return p, nil
	case expiredToken:
		return nil, fmt.Errorf("token expired at 2025-01-01T00:00:00Z: %w", issuefields.ErrBadCredentials)
	case leakyToken:
		return nil, &url.Error{Op: "Get", URL: "https://auth.example/introspect?token=" + token, Err: errors.New("connection refused")}
	case leakyBusyToken:
		return nil, fmt.Errorf("introspecting token %s: %w", token, issuefields.ErrUnavailable)
	}
	return fixtureVerifier(ctx, token)
})

// authHandler returns a handler for cfg, with authVerifier unless cfg names
// another verifier.
func authHandler(t testing.TB, cfg issuefields.Config) *issuefields.Handler {
	t.Helper()
	if cfg.Verifier == nil {
		cfg.Verifier = authVerifier
	}
	return newConfiguredHandler(t, cfg)
}

// authRequest returns a request with one Authorization header per value of auth.
func authRequest(method, target string, auth []string, body string) *http.Request {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	for _, v := range auth {
		req.Header.Add("Authorization", v)
	}
	return req
}

// bearer returns the Authorization header values that present token.
func bearer(token string) []string { return []string{"Bearer " + token} }

// authOp is one of the four operations, with a request that succeeds for a
// caller who may perform it on issue 1 of a fixture repository.
type authOp struct {
	method string
	write  bool
	suffix string // what follows the values path
	body   string
	// success is the status of the operation when it is allowed.
	success int
	// permissions is the X-Accepted-Service-Permissions of the operation.
	permissions string
}

var authOps = []authOp{
	{method: http.MethodGet, success: http.StatusOK, permissions: "issues=read"},
	{method: http.MethodPost, write: true, body: `{"issue_field_values":[{"field_id":1,"value":"Changed"}]}`,
		success: http.StatusOK, permissions: "issues=write; pull_requests=write"},
	{method: http.MethodPut, write: true, body: `{"issue_field_values":[{"field_id":1,"value":"Changed"}]}`,
		success: http.StatusOK, permissions: "issues=write; pull_requests=write"},
	{method: http.MethodDelete, write: true, suffix: "/1",
		success: http.StatusNoContent, permissions: "issues=write; pull_requests=write"},
}

// target returns the operation's path for issue number of owner/repo.
func (op authOp) target(owner, repo string, number int) string {
	return valuesPath(owner, repo, number) + op.suffix
}

// authOutcome is the status and message of a refusal; the zero value means
// the operation is allowed.
type authOutcome struct {
	status  int
	message string
}

var (
	authAllowed        = authOutcome{}
	authRequiresAuth   = authOutcome{http.StatusUnauthorized, "Requires authentication"}
	authBadCredentials = authOutcome{http.StatusUnauthorized, "Bad credentials"}
	authNotFound       = authOutcome{http.StatusNotFound, "Not Found"}
	authKindRefused    = authOutcome{http.StatusForbidden, "This endpoint accepts only app user access tokens, app installation access tokens and fine-grained personal access tokens."}
	authByPAT          = authOutcome{http.StatusForbidden, "Resource not accessible by personal access token"}
	authByApp          = authOutcome{http.StatusForbidden, "Resource not accessible by integration"}
	authNoPush         = authOutcome{http.StatusForbidden, "Must have push access to this repository"}
)

// authCell is a cell of the permission table: a caller and a repository, and
// what list and the writes answer.
type authCell struct {
	name        string
	auth        []string
	repo        string
	list, write authOutcome
}

var authCells = []authCell{
	{"no Authorization, public repository", nil, publicRepo, authAllowed, authRequiresAuth},
	{"no Authorization, private repository", nil, secretRepo, authNotFound, authNotFound},
	{"malformed header, public repository", []string{"Basic d3JpdGVyLXRva2Vu"}, publicRepo, authBadCredentials, authBadCredentials},
	{"malformed header, private repository", []string{"Bearer writer-token extra"}, secretRepo, authBadCredentials, authBadCredentials},
	{"token and a no-break space (U+00A0), public repository", []string{"Bearer " + writerToken + "\u00a0"}, publicRepo, authBadCredentials, authBadCredentials},
	{"token and an em space (U+2003), private repository", []string{"Bearer " + writerToken + "\u2003"}, secretRepo, authBadCredentials, authBadCredentials},
	{"token with a control character", []string{"Bearer " + writerToken + "\x7f"}, publicRepo, authBadCredentials, authBadCredentials},
	{"unknown token, public repository", bearer(unknownToken), publicRepo, authBadCredentials, authBadCredentials},
	{"unknown token, private repository", bearer(unknownToken), secretRepo, authBadCredentials, authBadCredentials},
	{"expired token", bearer(expiredToken), publicRepo, authBadCredentials, authBadCredentials},
	{"classic PAT, public repository", bearer(classicToken), publicRepo, authKindRefused, authKindRefused},
	{"classic PAT, private repository", bearer(classicToken), secretRepo, authKindRefused, authKindRefused},
	{"OAuth app token, public repository", bearer(oauthToken), publicRepo, authKindRefused, authKindRefused},
	{"OAuth app token, private repository", bearer(oauthToken), secretRepo, authKindRefused, authKindRefused},
	{"token cannot see the private repository", bearer(blindToken), secretRepo, authNotFound, authNotFound},
	{"writer cannot see the private repository", bearer(publicWriterToken), secretRepo, authNotFound, authNotFound},
	{"PAT sees the private repository, issues below read", bearer(visibleOnlyToken), secretRepo, authByPAT, authByPAT},
	{"app token sees the private repository, issues below read", bearer(appSeeingToken), secretRepo, authByApp, authByApp},
	{"PAT with issues read, private repository", bearer(readerToken), secretRepo, authAllowed, authByPAT},
	{"app token with issues read, private repository", bearer(appReaderToken), secretRepo, authAllowed, authByApp},
	{"PAT without permission, public repository", bearer(visibleOnlyToken), publicRepo, authAllowed, authByPAT},
	{"PAT that sees no private repository, public repository", bearer(blindToken), publicRepo, authAllowed, authByPAT},
	{"app token with issues read, public repository", bearer(appReaderToken), publicRepo, authAllowed, authByApp},
	{"no push access, public repository", bearer(noPushToken), publicRepo, authAllowed, authNoPush},
	{"no push access, private repository", bearer(noPushToken), secretRepo, authAllowed, authNoPush},
	{"PAT with issues write and push, private repository", bearer(writerToken), secretRepo, authAllowed, authAllowed},
	{"app installation with pull_requests write and push, private repository", bearer(prWriterToken), secretRepo, authByApp, authAllowed},
	{"app user with issues write and push, public repository", bearer(appUserToken), publicRepo, authAllowed, authAllowed},
	{"writer of public repositories, public repository", bearer(publicWriterToken), publicRepo, authAllowed, authAllowed},
}

// storeState is what a request could change in the fixture: the values and
// versions of issue 1 of the public and the private repository.
type storeState map[string]storedValues

// storedValues is one issue's values and version, as the store holds them.
type storedValues struct {
	Values  []issuefields.Value
	Version issuefields.Version
}

// stateOf returns the part of s's state that the tests may change.
func stateOf(t *testing.T, s *memstore.Store) storeState {
	t.Helper()
	ctx := context.Background()
	state := storeState{}
	for _, name := range []string{publicRepo, secretRepo} {
		snap, err := s.Snapshot(ctx, org, name, 1)
		if err != nil {
			t.Fatal(err)
		}
		state[name] = storedValues{snap.Issue.Values, snap.Issue.Version}
	}
	return state
}

// errorMessage returns the message of an error body, or "" for another body.
func errorMessage(resp response) string {
	var body struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal([]byte(resp.body), &body)
	return body.Message
}

// checkCell sends op with body to issue 1 of the cell's repository on a fresh
// fixture, and checks the answer and that the store changed exactly when the
// cell allows a write.
func checkCell(t *testing.T, c authCell, op authOp, body string) {
	t.Helper()
	s := newFixtureStore(t)
	h := authHandler(t, issuefields.Config{Store: s})
	before := stateOf(t, s)
	resp := serve(h, authRequest(op.method, op.target(org, c.repo, 1), c.auth, body))
	after := stateOf(t, s)

	want := c.list
	if op.write {
		want = c.write
	}
	if got := resp.header.Get("X-Accepted-Service-Permissions"); got != op.permissions {
		t.Errorf("X-Accepted-Service-Permissions = %q, want %q", got, op.permissions)
	}
	if want == authAllowed {
		if resp.status != op.success {
			t.Errorf("status = %d, want %d (allowed); body: %s", resp.status, op.success, resp.body)
		}
	} else if got := (authOutcome{resp.status, errorMessage(resp)}); got != want {
		t.Errorf("got %d %q, want %d %q; body: %s", got.status, got.message, want.status, want.message, resp.body)
	}
	diff := cmp.Diff(before, after)
	switch wantChange := want == authAllowed && op.write; {
	case wantChange && diff == "":
		t.Errorf("the allowed write changed nothing in the store")
	case !wantChange && diff != "":
		t.Errorf("the store changed (-before +after):\n%s", diff)
	}
}

// TestPermissionTable sends every operation for every cell of the permission
// table through the handler.
func TestPermissionTable(t *testing.T) {
	for _, c := range authCells {
		for _, op := range authOps {
			t.Run(c.name+"/"+op.method, func(t *testing.T) {
				checkCell(t, c, op, op.body)
			})
		}
	}
}

// TestRefusalBeforeBody checks that a refused write answers its refusal
// whatever its body: authorization is decided before the body is read.
func TestRefusalBeforeBody(t *testing.T) {
	bodies := []struct{ name, body string }{
		{"not JSON", "not json"},
		{"empty", ""},
		{"unknown field", `{"issue_field_values":[{"field_id":999,"value":"x"}]}`},
		{"invalid value", `{"issue_field_values":[{"field_id":2,"value":"Urgent"}]}`},
	}
	for _, c := range authCells {
		if c.write == authAllowed {
			continue
		}
		for _, op := range authOps {
			if op.method != http.MethodPost && op.method != http.MethodPut {
				continue
			}
			for _, b := range bodies {
				t.Run(c.name+"/"+op.method+"/"+b.name, func(t *testing.T) {
					checkCell(t, c, op, b.body)
				})
			}
		}
	}
}

// TestAcceptedPermissionsHeader checks that answers of the four operations
// other than the table's carry X-Accepted-Service-Permissions too.
func TestAcceptedPermissionsHeader(t *testing.T) {
	h := authHandler(t, issuefields.Config{Store: newFixtureStore(t)})
	targets := []struct {
		name                 string
		owner, repo          string
		number               int
		wantList, wantWrites int
	}{
		{"repository that does not exist", org, "no-such-repo", 1, 404, 404},
		{"issue that does not exist", org, publicRepo, 99, 404, 404},
		{"deleted issue", org, publicRepo, 3, 410, 404},
		{"transferred issue", org, publicRepo, 4, 301, 307},
		{"renamed repository", org, "old-name", 1, 301, 307},
		{"repository with .git", org, publicRepo + ".git", 1, 404, 404},
		{"issue number 0", org, publicRepo, 0, 404, 404},
	}
	for _, tt := range targets {
		for _, op := range authOps {
			t.Run(tt.name+"/"+op.method, func(t *testing.T) {
				resp := serve(h, authRequest(op.method, op.target(tt.owner, tt.repo, tt.number), bearer(writerToken), op.body))
				want := tt.wantList
				if op.write {
					want = tt.wantWrites
				}
				if resp.status != want {
					t.Errorf("status = %d, want %d; body: %s", resp.status, want, resp.body)
				}
				if got := resp.header.Get("X-Accepted-Service-Permissions"); got != op.permissions {
					t.Errorf("X-Accepted-Service-Permissions = %q, want %q", got, op.permissions)
				}
			})
		}
	}
}

// TestInvisibleIsNotFound checks that a caller who may not see a private
// repository gets exactly the answer for a repository or issue that does not
// exist, so that it cannot tell them apart.
func TestInvisibleIsNotFound(t *testing.T) {
	s := newFixtureStore(t)
	if _, err := s.AddRepository(org, "old-secret", true); err != nil {
		t.Fatal(err)
	}
	if err := s.AddIssue(org, "old-secret", 1); err != nil {
		t.Fatal(err)
	}
	if err := s.RenameRepository(org, "old-secret", "new-secret"); err != nil {
		t.Fatal(err)
	}
	h := authHandler(t, issuefields.Config{Store: s})
	callers := []struct {
		name string
		auth []string
		// writesPublic is true for a caller who may write to the public repository.
		writesPublic bool
	}{
		{"anonymous", nil, false},
		{"token that sees no private repository", bearer(blindToken), false},
		{"writer that sees no private repository", bearer(publicWriterToken), true},
	}
	type probe struct{ name, hidden, missing string }
	for _, caller := range callers {
		for _, op := range authOps {
			probes := []probe{
				{"private repository", op.target(org, secretRepo, 1), op.target(org, "no-such-repo", 1)},
				{"private repository, other case", op.target("OCTO-ORG", "Secret", 1), op.target("no-such-org", secretRepo, 1)},
				{"renamed private repository", op.target(org, "old-secret", 1), op.target(org, "no-such-repo", 1)},
			}
			if !op.write || caller.writesPublic {
				probes = append(probes, probe{"issue transferred to a private repository", op.target(org, publicRepo, 5), op.target(org, publicRepo, 99)})
			}
			for _, p := range probes {
				t.Run(caller.name+"/"+op.method+"/"+p.name, func(t *testing.T) {
					hidden := serve(h, authRequest(op.method, p.hidden, caller.auth, op.body))
					missing := serve(h, authRequest(op.method, p.missing, caller.auth, op.body))
					if hidden.status != http.StatusNotFound || missing.status != http.StatusNotFound {
						t.Fatalf("statuses = %d (hidden), %d (missing), want 404 for both", hidden.status, missing.status)
					}
					if hidden.body != missing.body {
						t.Errorf("bodies differ:\nhidden:  %s\nmissing: %s", hidden.body, missing.body)
					}
					for _, header := range []http.Header{hidden.header, missing.header} {
						header.Del("X-Service-Request-Id")
					}
					if diff := cmp.Diff(missing.header, hidden.header); diff != "" {
						t.Errorf("headers differ (-missing +hidden):\n%s", diff)
					}
				})
			}
		}
	}
}

// TestTransferredIntoPrivate checks that an issue transferred into a private
// repository redirects only a caller who may see that repository.
func TestTransferredIntoPrivate(t *testing.T) {
	h := authHandler(t, issuefields.Config{Store: newFixtureStore(t)})
	callers := []struct {
		name string
		auth []string
		// writes is true for a caller who may write to the public
		// repository, so that its writes reach the transfer.
		writes      bool
		seesPrivate bool
	}{
		{"anonymous", nil, false, false},
		{"token that sees no private repository", bearer(blindToken), false, false},
		{"writer that sees no private repository", bearer(publicWriterToken), true, false},
		{"reader", bearer(readerToken), false, true},
		{"writer", bearer(writerToken), true, true},
		{"app installation", bearer(prWriterToken), true, true},
	}
	for _, caller := range callers {
		for _, op := range authOps {
			if op.write && !caller.writes {
				continue
			}
			t.Run(caller.name+"/"+op.method, func(t *testing.T) {
				resp := serve(h, authRequest(op.method, op.target(org, publicRepo, 5), caller.auth, op.body))
				wantStatus, wantLocation := http.StatusNotFound, ""
				if caller.seesPrivate {
					wantStatus, wantLocation = http.StatusMovedPermanently, "http://example.com"+op.target(org, secretRepo, 50)
					if op.write {
						wantStatus = http.StatusTemporaryRedirect
					}
				}
				if resp.status != wantStatus {
					t.Errorf("status = %d, want %d; body: %s", resp.status, wantStatus, resp.body)
				}
				if got := resp.header.Get("Location"); got != wantLocation {
					t.Errorf("Location = %q, want %q", got, wantLocation)
				}
				if !caller.seesPrivate && strings.Contains(resp.body, secretRepo) {
					t.Errorf("the answer names the private repository: %s", resp.body)
				}
			})
		}
	}
}

// countingVerifier wraps authVerifier, recording the tokens it is asked to
// verify and counting the calls of its principals' Permissions.
type countingVerifier struct {
	mu              sync.Mutex
	tokens          []string
	permissionCalls int
}

func (v *countingVerifier) VerifyToken(ctx context.Context, token string) (*issuefields.Principal, error) {
	v.mu.Lock()
	v.tokens = append(v.tokens, token)
	v.mu.Unlock()
	p, err := authVerifier(ctx, token)
	if p == nil {
		return p, err
	}
	counted := *p
	counted.Permissions = func(ctx context.Context, repo issuefields.Repository) (issuefields.RepositoryPermissions, error) {
		v.mu.Lock()
		v.permissionCalls++
		v.mu.Unlock()
		return p.Permissions(ctx, repo)
	}
	return &counted, err
}

// TestVerifierCalls checks when the handler asks the verifier and the
// principal's Permissions, and with which token.
func TestVerifierCalls(t *testing.T) {
	tests := []struct {
		name string
		auth []string
		// transferred sends the request to the issue that was transferred
		// to the private repository, instead of to issue 1.
		transferred         bool
		wantTokens          []string
		wantPermissionCalls int
	}{
		{"no Authorization", nil, false, nil, 0},
		{"Bearer", bearer(writerToken), false, []string{writerToken}, 1},
		{"token", []string{"token " + writerToken}, false, []string{writerToken}, 1},
		{"lower-case scheme and spaces", []string{"bearer   " + writerToken + "  "}, false, []string{writerToken}, 1},
		{"token of a kind not accepted", bearer(classicToken), false, []string{classicToken}, 0},
		{"unknown token", bearer(unknownToken), false, []string{unknownToken}, 0},
		{"scheme without token", []string{"Bearer"}, false, nil, 0},
		{"scheme and a space", []string{"Bearer "}, false, nil, 0},
		{"unknown scheme", []string{"Basic " + writerToken}, false, nil, 0},
		{"inner space", []string{"Bearer " + writerToken + " x"}, false, nil, 0},
		{"two headers", []string{"Bearer " + writerToken, "Bearer " + writerToken}, false, nil, 0},
		{"issue transferred to another repository", bearer(writerToken), true, []string{writerToken}, 2},
	}
	for _, tt := range tests {
		for _, op := range authOps {
			t.Run(tt.name+"/"+op.method, func(t *testing.T) {
				v := new(countingVerifier)
				h := authHandler(t, issuefields.Config{Store: newFixtureStore(t), Verifier: v})
				number := 1
				if tt.transferred {
					number = 5
				}
				serve(h, authRequest(op.method, op.target(org, publicRepo, number), tt.auth, op.body))
				if diff := cmp.Diff(tt.wantTokens, v.tokens); diff != "" {
					t.Errorf("tokens verified (-want +got):\n%s", diff)
				}
				if v.permissionCalls != tt.wantPermissionCalls {
					t.Errorf("Permissions called %d times, want %d", v.permissionCalls, tt.wantPermissionCalls)
				}
			})
		}
	}
}

// TestVerifierFaults checks the answers to a verifier or a Permissions
// function that fails: 503 when it is unavailable, 500 otherwise, and never
// the cause in the answer, which goes to the log instead.
func TestVerifierFaults(t *testing.T) {
	const cause = "dial tcp 10.1.2.3:5432: connection reset"
	failingPermissions := func(err error) issuefields.TokenVerifier {
		return issuefields.TokenVerifierFunc(func(context.Context, string) (*issuefields.Principal, error) {
			return &issuefields.Principal{Kind: issuefields.FineGrainedPersonalAccessToken, Login: "writer",
				Permissions: func(context.Context, issuefields.Repository) (issuefields.RepositoryPermissions, error) {
					return issuefields.RepositoryPermissions{}, err
				}}, nil
		})
	}
	failingVerifier := func(p *issuefields.Principal, err error) issuefields.TokenVerifier {
		return issuefields.TokenVerifierFunc(func(context.Context, string) (*issuefields.Principal, error) {
			return p, err
		})
	}
	tests := []struct {
		name       string
		verifier   issuefields.TokenVerifier
		wantStatus int
		cause      string // logged, never answered
	}{
		{"verifier unavailable", failingVerifier(nil, issuefields.ErrUnavailable), http.StatusServiceUnavailable, ""},
		{"verifier unavailable, wrapped", failingVerifier(nil, fmt.Errorf("%s: %w", cause, issuefields.ErrUnavailable)), http.StatusServiceUnavailable, cause},
		{"verifier fails", failingVerifier(nil, errors.New(cause)), http.StatusInternalServerError, cause},
		{"verifier returns neither principal nor error", failingVerifier(nil, nil), http.StatusInternalServerError, ""},
		{"Permissions unavailable", failingPermissions(fmt.Errorf("%s: %w", cause, issuefields.ErrUnavailable)), http.StatusServiceUnavailable, cause},
		{"Permissions fails", failingPermissions(errors.New(cause)), http.StatusInternalServerError, cause},
	}
	for _, tt := range tests {
		for _, op := range authOps {
			t.Run(tt.name+"/"+op.method, func(t *testing.T) {
				var log bytes.Buffer
				s := newFixtureStore(t)
				h := authHandler(t, issuefields.Config{Store: s, Verifier: tt.verifier, Logger: slog.New(slog.NewTextHandler(&log, nil))})
				before := stateOf(t, s)
				resp := serve(h, authRequest(op.method, op.target(org, publicRepo, 1), bearer(writerToken), op.body))
				var body struct {
					Message string `json:"message"`
					Code    string `json:"code"`
				}
				resp.json(t, &body)
				if resp.status != tt.wantStatus || body.Message == "" {
					t.Errorf("got %d %q, want %d and a message", resp.status, body.Message, tt.wantStatus)
				}
				if tt.wantStatus == http.StatusServiceUnavailable && (resp.header.Get("Retry-After") == "" || body.Code != "service_unavailable") {
					t.Errorf("503 without Retry-After or code service_unavailable: Retry-After %q, body %s", resp.header.Get("Retry-After"), resp.body)
				}
				if tt.cause != "" {
					if strings.Contains(resp.body, tt.cause) {
						t.Errorf("the answer shows the cause: %s", resp.body)
					}
					if !strings.Contains(log.String(), tt.cause) {
						t.Errorf("the log lacks the cause %q:\n%s", tt.cause, log.String())
					}
				}
				if diff := cmp.Diff(before, stateOf(t, s)); diff != "" {
					t.Errorf("the store changed (-before +after):\n%s", diff)
				}
			})
		}
	}
}

// principalStore is a memstore that records, for each read and write of
// values, the principal its context carries.
type principalStore struct {
	*memstore.Store
	mu   sync.Mutex
	seen []seenPrincipal
}

// seenPrincipal is what one store call found in its context.
type seenPrincipal struct {
	Call  string
	Found bool
	Kind  issuefields.TokenKind
	Login string
}

func (s *principalStore) record(ctx context.Context, call string) {
	seen := seenPrincipal{Call: call}
	if p, ok := issuefields.PrincipalFromContext(ctx); ok {
		seen.Found, seen.Kind, seen.Login = true, p.Kind, p.Login
	}
	s.mu.Lock()
	s.seen = append(s.seen, seen)
	s.mu.Unlock()
}

func (s *principalStore) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	s.record(ctx, "Snapshot")
	return s.Store.Snapshot(ctx, owner, name, number)
}

func (s *principalStore) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	s.record(ctx, "UpdateIssue")
	return s.Store.UpdateIssue(ctx, snap, next)
}

// TestPrincipalFromContext checks that the store sees, through
// PrincipalFromContext, the caller of an authenticated request, and no one
// for an anonymous one.
func TestPrincipalFromContext(t *testing.T) {
	callers := []struct {
		name   string
		auth   []string
		want   seenPrincipal // Call is ignored
		writes bool
	}{
		{"anonymous", nil, seenPrincipal{}, false},
		{"reader", bearer(readerToken), seenPrincipal{Found: true, Kind: issuefields.FineGrainedPersonalAccessToken, Login: "reader"}, false},
		{"writer", bearer(writerToken), seenPrincipal{Found: true, Kind: issuefields.FineGrainedPersonalAccessToken, Login: "writer"}, true},
		{"app installation", bearer(prWriterToken), seenPrincipal{Found: true, Kind: issuefields.AppInstallationToken, Login: "pr-bot[bot]"}, true},
	}
	for _, caller := range callers {
		for _, op := range authOps {
			if op.write && !caller.writes {
				continue
			}
			t.Run(caller.name+"/"+op.method, func(t *testing.T) {
				s := &principalStore{Store: newFixtureStore(t)}
				h := authHandler(t, issuefields.Config{Store: s})
				resp := serve(h, authRequest(op.method, op.target(org, publicRepo, 1), caller.auth, op.body))
				if resp.status != op.success {
					t.Fatalf("status = %d, want %d; body: %s", resp.status, op.success, resp.body)
				}
				wrote := false
				for _, seen := range s.seen {
					wrote = wrote || seen.Call == "UpdateIssue"
					want := caller.want
					want.Call = seen.Call
					if seen != want {
						t.Errorf("%s saw %+v, want %+v", seen.Call, seen, want)
					}
				}
				if len(s.seen) == 0 || wrote != op.write {
					t.Errorf("store calls %+v: want values read, and written only by a write", s.seen)
				}
			})
		}
	}
}

// TestTokensNeverShown sends requests with tokens, good and bad, and checks
// that no token appears in the log or in an answer.
func TestTokensNeverShown(t *testing.T) {
	var log bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h := authHandler(t, issuefields.Config{Store: newFixtureStore(t), Logger: logger})
	headers := [][]string{
		bearer(writerToken), bearer(readerToken), bearer(noPushToken), bearer(blindToken), bearer(classicToken),
		bearer(expiredToken), bearer(unknownToken), bearer(unavailableToken), bearer(brokenVerifyToken),
		bearer(leakyToken), bearer(leakyBusyToken),
		{"Basic " + malformedToken},
		{"Bearer " + malformedToken + " " + malformedToken},
		{"Bearer " + malformedToken, "token " + malformedToken},
	}
	tokens := []string{writerToken, readerToken, noPushToken, blindToken, classicToken,
		expiredToken, unknownToken, unavailableToken, brokenVerifyToken, leakyToken, leakyBusyToken, malformedToken}
	for _, auth := range headers {
		for _, op := range authOps {
			for _, repo := range []string{publicRepo, secretRepo} {
				resp := serve(h, authRequest(op.method, op.target(org, repo, 1), auth, op.body))
				answer := fmt.Sprint(resp.header) + resp.body
				for _, token := range tokens {
					if strings.Contains(answer, token) {
						t.Errorf("%s %s with %q: the answer shows token %q: %s", op.method, repo, auth, token, answer)
					}
				}
			}
		}
	}
	if log.Len() == 0 {
		t.Fatal("nothing was logged")
	}
	for _, token := range tokens {
		if strings.Contains(log.String(), token) {
			t.Errorf("the log shows token %q:\n%s", token, log.String())
		}
	}
}
