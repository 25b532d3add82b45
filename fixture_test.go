package issuefields_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// The fixture every handler test starts from.
//
// Organization octo-org has one field of each data type. Its repositories:
// hello-world (public) with issues 1 (a value of every type), 2 (no values),
// 3 (deleted), 4 (transferred to hello-world issue 40) and 5 (transferred to
// secret issue 50); secret (private) with issue 1; old-name, renamed to
// renamed, with issue 1. User octocat owns the public personal, issue 1.
const (
	org        = "octo-org"
	publicRepo = "hello-world"
	secretRepo = "secret"

	notesID    = 1 // text
	priorityID = 2 // single_select: High (11), Medium (12), Low (13)
	estimateID = 3 // number
	dueID      = 4 // date
	labelsID   = 5 // multi_select: Frontend (51), Backend (52), Docs (53)
)

// Tokens of the fixture. Each can do what its name says in every repository.
const (
	writerToken       = "writer-token"        // fine-grained PAT: issues write, push
	prWriterToken     = "pr-writer-token"     // app installation: pull_requests write, push
	appUserToken      = "app-user-token"      // app user: issues write, push
	readerToken       = "reader-token"        // fine-grained PAT: issues read
	noPushToken       = "no-push-token"       // fine-grained PAT: issues write, no push
	blindToken        = "blind-token"         // fine-grained PAT: sees no private repository
	visibleOnlyToken  = "visible-only-token"  // fine-grained PAT: sees repositories, no permission
	classicToken      = "classic-token"       // classic PAT: not accepted
	oauthToken        = "oauth-token"         // OAuth app token: not accepted
	unavailableToken  = "unavailable-token"   // the verifier reports itself unavailable
	brokenVerifyToken = "broken-verify-token" // the verifier fails
)

var fixtureFields = []issuefields.Field{
	{ID: notesID, Name: "Notes", DataType: issuefields.DataTypeText},
	{ID: priorityID, Name: "Priority", DataType: issuefields.DataTypeSingleSelect, Options: []issuefields.FieldOption{
		{ID: 11, Name: "High", Color: "red"}, {ID: 12, Name: "Medium", Color: "yellow"}, {ID: 13, Name: "Low", Color: "green"}}},
	{ID: estimateID, Name: "Estimate", DataType: issuefields.DataTypeNumber},
	{ID: dueID, Name: "Due", DataType: issuefields.DataTypeDate},
	{ID: labelsID, Name: "Labels", DataType: issuefields.DataTypeMultiSelect, Options: []issuefields.FieldOption{
		{ID: 51, Name: "Frontend", Color: "blue"}, {ID: 52, Name: "Backend", Color: "green"}, {ID: 53, Name: "Docs", Color: "gray"}}},
}

// fixtureValues are the values of hello-world issue 1 (and secret issue 1).
var fixtureValues = []issuefields.Value{
	{FieldID: notesID, Text: "Needs a design review"},
	{FieldID: priorityID, OptionIDs: []int64{11}},
	{FieldID: estimateID, Number: 5},
	{FieldID: dueID, Date: "2025-12-25"},
	{FieldID: labelsID, OptionIDs: []int64{51, 52}},
}

// newFixtureStore returns a memstore holding the fixture.
func newFixtureStore(t testing.TB) *memstore.Store {
	t.Helper()
	s := memstore.New()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.AddOrganization(org))
	for _, f := range fixtureFields {
		must(s.AddField(org, f))
	}
	for _, repo := range []struct {
		owner, name string
		private     bool
	}{{org, publicRepo, false}, {org, secretRepo, true}, {org, "old-name", false}, {"octocat", "personal", false}} {
		_, err := s.AddRepository(repo.owner, repo.name, repo.private)
		must(err)
	}
	for _, n := range []int64{1, 2, 3, 4, 5, 40} {
		must(s.AddIssue(org, publicRepo, n))
	}
	must(s.AddIssue(org, secretRepo, 1))
	must(s.AddIssue(org, "old-name", 1))
	must(s.AddIssue("octocat", "personal", 1))
	must(s.SetValues(org, publicRepo, 1, fixtureValues))
	must(s.SetValues(org, secretRepo, 1, fixtureValues))
	must(s.DeleteIssue(org, publicRepo, 3))
	must(s.TransferIssue(org, publicRepo, 4, org, publicRepo, 40))
	must(s.TransferIssue(org, publicRepo, 5, org, secretRepo, 50))
	must(s.RenameRepository(org, "old-name", "renamed"))
	return s
}

// principalWith returns a principal with perms in every repository.
func principalWith(kind issuefields.TokenKind, login string, perms issuefields.RepositoryPermissions) *issuefields.Principal {
	return &issuefields.Principal{Kind: kind, Login: login,
		Permissions: func(context.Context, issuefields.Repository) (issuefields.RepositoryPermissions, error) {
			return perms, nil
		}}
}

// fixtureVerifier knows the fixture's tokens.
var fixtureVerifier = issuefields.TokenVerifierFunc(func(ctx context.Context, token string) (*issuefields.Principal, error) {
	const w, r, none = issuefields.PermissionWrite, issuefields.PermissionRead, issuefields.PermissionNone
	switch token {
	case writerToken:
		return principalWith(issuefields.FineGrainedPersonalAccessToken, "writer", issuefields.RepositoryPermissions{Visible: true, Issues: w, PullRequests: none, Push: true}), nil
	case prWriterToken:
		return principalWith(issuefields.AppInstallationToken, "pr-bot[bot]", issuefields.RepositoryPermissions{Visible: true, PullRequests: w, Push: true}), nil
	case appUserToken:
		return principalWith(issuefields.AppUserToken, "app-user", issuefields.RepositoryPermissions{Visible: true, Issues: w, Push: true}), nil
	case readerToken:
		return principalWith(issuefields.FineGrainedPersonalAccessToken, "reader", issuefields.RepositoryPermissions{Visible: true, Issues: r}), nil
	case noPushToken:
		return principalWith(issuefields.FineGrainedPersonalAccessToken, "no-push", issuefields.RepositoryPermissions{Visible: true, Issues: w}), nil
	case blindToken:
		return principalWith(issuefields.FineGrainedPersonalAccessToken, "blind", issuefields.RepositoryPermissions{}), nil
	case visibleOnlyToken:
		return principalWith(issuefields.FineGrainedPersonalAccessToken, "visible-only", issuefields.RepositoryPermissions{Visible: true}), nil
	case classicToken:
		return principalWith(issuefields.ClassicPersonalAccessToken, "classic", issuefields.RepositoryPermissions{Visible: true, Issues: w, Push: true}), nil
	case oauthToken:
		return principalWith(issuefields.OAuthAppToken, "oauth", issuefields.RepositoryPermissions{Visible: true, Issues: w, Push: true}), nil
	case unavailableToken:
		return nil, issuefields.ErrUnavailable
	case brokenVerifyToken:
		return nil, io.ErrUnexpectedEOF
	}
	return nil, issuefields.ErrBadCredentials
})

// newFixtureHandler returns a handler over a fresh fixture store.
func newFixtureHandler(t testing.TB) (*issuefields.Handler, *memstore.Store) {
	t.Helper()
	s := newFixtureStore(t)
	h, err := issuefields.New(issuefields.Config{Store: s, Verifier: fixtureVerifier, Logger: discardLogger})
	if err != nil {
		t.Fatal(err)
	}
	return h, s
}

// response is an answer of the handler, its body read.
type response struct {
	status int
	header http.Header
	body   string
}

// json decodes the body into v, failing the test if it is not JSON.
func (r response) json(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.body), v); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, r.body)
	}
}

// do sends a request to h. token may be "" for no Authorization header.
func do(t testing.TB, h http.Handler, method, target, token, body string) response {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return serve(h, req)
}

// serve sends req to h and reads the answer.
func serve(h http.Handler, req *http.Request) response {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return response{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
}

// valuesPath is the path of an issue's values.
func valuesPath(owner, repo string, number int) string {
	return "/repos/" + owner + "/" + repo + "/issues/" + itoa(number) + "/issue-field-values"
}

func itoa(n int) string { return strconv.Itoa(n) }

// discardLogger keeps the handler's log lines out of test output.
var discardLogger = slog.New(slog.DiscardHandler)
