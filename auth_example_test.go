package issuefields_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// issuedToken is what a host knows about a token it issued.
type issuedToken struct {
	login   string
	kind    issuefields.TokenKind
	expires time.Time
	// repos holds the token's permissions by Repository.ID, which stays the
	// same when a repository is renamed or transferred. A repository that is
	// not listed grants nothing, and a private one is then invisible.
	repos map[int64]issuefields.RepositoryPermissions
}

// verifierOf returns a TokenVerifier over the tokens a host issued.
func verifierOf(tokens map[string]issuedToken) issuefields.TokenVerifier {
	return issuefields.TokenVerifierFunc(func(ctx context.Context, token string) (*issuefields.Principal, error) {
		t, ok := tokens[token]
		if !ok || time.Now().After(t.expires) {
			return nil, issuefields.ErrBadCredentials
		}
		return &issuefields.Principal{
			Kind:  t.kind,
			Login: t.login,
			Permissions: func(ctx context.Context, repo issuefields.Repository) (issuefields.RepositoryPermissions, error) {
				return t.repos[repo.ID], nil
			},
		}, nil
	})
}

// A host plugs in its own tokens with TokenVerifierFunc: the verifier says
// who a token stands for, and the principal's Permissions what it may do in
// each repository. The handler decides the rest.
func ExampleTokenVerifierFunc() {
	store := memstore.New()
	_ = store.AddOrganization("octo-org")
	_ = store.AddField("octo-org", issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText})
	secret, _ := store.AddRepository("octo-org", "secret", true)
	_ = store.AddIssue("octo-org", "secret", 1)

	nextYear := time.Now().AddDate(1, 0, 0)
	h, err := issuefields.New(issuefields.Config{
		Store: store,
		Verifier: verifierOf(map[string]issuedToken{
			"alice-token": {login: "alice", kind: issuefields.FineGrainedPersonalAccessToken, expires: nextYear,
				repos: map[int64]issuefields.RepositoryPermissions{
					secret.ID: {Visible: true, Issues: issuefields.PermissionWrite, Push: true},
				}},
			"bob-token": {login: "bob", kind: issuefields.FineGrainedPersonalAccessToken, expires: nextYear},
			"old-token": {login: "carol", kind: issuefields.ClassicPersonalAccessToken, expires: nextYear},
			"expired":   {login: "dave", kind: issuefields.AppUserToken, expires: time.Now().AddDate(0, 0, -1)},
		}),
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		panic(err)
	}

	for _, token := range []string{"alice-token", "bob-token", "old-token", "expired", ""} {
		req := httptest.NewRequest("POST", "/repos/octo-org/secret/issues/1/issue-field-values",
			strings.NewReader(`{"issue_field_values": [{"field_id": 1, "value": "Reviewed"}]}`))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var body struct{ Message string }
		_ = json.Unmarshal(rec.Body.Bytes(), &body)
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%-13q %d %s", token, rec.Code, body.Message)))
	}
	// Output:
	// "alice-token" 200
	// "bob-token"   404 Not Found
	// "old-token"   403 This endpoint accepts only app user access tokens, app installation access tokens and fine-grained personal access tokens.
	// "expired"     401 Bad credentials
	// ""            404 Not Found
}

// auditStore is a Store that records who changed which issue.
type auditStore struct {
	issuefields.Store
}

// UpdateIssue writes through to the wrapped store and, when the write
// committed, records who made it.
func (s auditStore) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	version, err := s.Store.UpdateIssue(ctx, snap, next)
	if p, ok := issuefields.PrincipalFromContext(ctx); ok && err == nil {
		r := snap.Repository
		fmt.Printf("%s (%s) changed issue %d of %s/%s\n", p.Login, p.Kind, snap.Issue.Number, r.Owner, r.Name)
	}
	return version, err
}

// A Store (or a Notifier) finds the caller of a request with
// PrincipalFromContext, to keep an audit trail.
func ExamplePrincipalFromContext() {
	store := memstore.New()
	_ = store.AddOrganization("octo-org")
	_ = store.AddField("octo-org", issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText})
	repo, _ := store.AddRepository("octo-org", "hello-world", false)
	_ = store.AddIssue("octo-org", "hello-world", 7)

	h, err := issuefields.New(issuefields.Config{
		Store: auditStore{store},
		Verifier: verifierOf(map[string]issuedToken{
			"bot-token": {login: "triage-bot[bot]", kind: issuefields.AppInstallationToken, expires: time.Now().AddDate(1, 0, 0),
				repos: map[int64]issuefields.RepositoryPermissions{
					repo.ID: {Visible: true, PullRequests: issuefields.PermissionWrite, Push: true},
				}},
		}),
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		panic(err)
	}
	req := httptest.NewRequest("PUT", "/repos/octo-org/hello-world/issues/7/issue-field-values",
		strings.NewReader(`{"issue_field_values": [{"field_id": 1, "value": "Triaged"}]}`))
	req.Header.Set("Authorization", "token bot-token")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	fmt.Println(rec.Code)
	// Output:
	// triage-bot[bot] (app_installation) changed issue 7 of octo-org/hello-world
	// 200
}
