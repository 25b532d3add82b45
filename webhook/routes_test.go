package webhook_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// apiBase is the configured public address of the API in the route tests.
// Every request they send has the Host evil.example, which no URL of an
// answer or a body may show.
const apiBase = "https://api.example.test/api/v3"

// api serves the webhook routes over a world. Its receiver gets the deliveries of
// the hooks that tests create with it as their URL.
type api struct {
	*world
	srv      *httptest.Server
	notifier *webhook.Notifier
	rc       *receiver
}

// newAPI starts a handler that serves the routes over a fresh world, with a
// Notifier whose BaseURL is apiBase.
func newAPI(t *testing.T) *api {
	t.Helper()
	a := &api{world: newWorld(t)}
	a.rc = newReceiver(t, nil)
	a.notifier = newNotifier(t, webhook.Options{Store: a.hooks, BaseURL: apiBase})
	a.srv = httptest.NewServer(newHandler(t, issuefields.Config{Store: a.data, Notifier: a.notifier}))
	t.Cleanup(a.srv.Close)
	return a
}

// newHandler returns the handler of cfg that serves the webhook routes of
// cfg's Store and Notifier (a *webhook.Notifier) besides the API, with the
// verifier of the tests and a log that discards, unless cfg says otherwise.
func newHandler(t *testing.T, cfg issuefields.Config) *issuefields.Handler {
	t.Helper()
	routes, err := webhook.NewRoutes(webhook.RoutesConfig{Store: cfg.Store, Notifier: cfg.Notifier.(*webhook.Notifier)})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Routes = append(cfg.Routes, routes...)
	if cfg.Verifier == nil {
		cfg.Verifier = verifier{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	h, err := issuefields.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// answer is an answer of the routes.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the answer's body into v, or fails the test.
func (a answer) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(a.body, v); err != nil {
		t.Fatalf("decoding the answer %.300q: %v", a.body, err)
	}
}

// object returns the answer's body, a JSON object.
func (a answer) object(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	a.json(t, &m)
	return m
}

// do sends a request with token ("" for none), header (name, value pairs,
// a name given twice sent twice) and body ("" for none) to the routes, with
// the Host evil.example, and returns the answer. Its header has Connection:
// close when the server closed the connection, which net/http tells in
// resp.Close rather than in the header.
func (a *api) do(t *testing.T, method, path, token, body string, header ...string) answer {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, a.srv.URL+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "evil.example"
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	resp, err := a.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return answerOf(t, resp)
}

// answerOf reads resp whole into an answer, whose header has Connection:
// close when resp closes its connection.
func answerOf(t *testing.T, resp *http.Response) answer {
	t.Helper()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Close {
		resp.Header.Set("Connection", "close")
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: data}
}

// mustDo is do that fails the test unless the answer has the status want.
func (a *api) mustDo(t *testing.T, want int, method, path, token, body string) answer {
	t.Helper()
	got := a.do(t, method, path, token, body)
	if got.status != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, got.status, got.body, want)
	}
	return got
}

// The prefixes of the routes of octo-org's hooks and of octo-org/hello-world's.
const (
	orgHooks  = "/orgs/octo-org/hooks"
	repoHooks = "/repos/octo-org/hello-world/hooks"
)

// verifier knows the tokens of the route tests, each named for what it may
// do. The fine-grained and app tokens see octo-org and its repositories
// and nothing else; the classic ones see them too, and have the scopes
// their names give.
type verifier struct{}

func (verifier) VerifyToken(_ context.Context, token string) (*issuefields.Principal, error) {
	const read, write, none = issuefields.PermissionRead, issuefields.PermissionWrite, issuefields.PermissionNone
	fine, app, classic := issuefields.FineGrainedPersonalAccessToken, issuefields.AppInstallationToken, issuefields.ClassicPersonalAccessToken
	switch token {
	case "admin":
		return grant(fine, "octocat", write, write), nil
	case "reader":
		return grant(fine, "monalisa", read, read), nil
	case "no-hooks":
		return grant(fine, "writer", none, none), nil
	case "app":
		return grant(app, "octo-app[bot]", write, write), nil
	case "app-reader":
		return grant(app, "octo-app[bot]", read, read), nil
	case "stranger":
		return &issuefields.Principal{Kind: fine, Login: "stranger"}, nil
	case "admin:org_hook", "read:repo_hook", "write:repo_hook", "admin:repo_hook", "repo":
		return grant(classic, "classic", none, none, token), nil
	}
	return nil, issuefields.ErrBadCredentials
}

// grant returns a principal of kind that sees octo-org and its
// repositories, with the hooks permissions orgHooks and repoHooks there,
// and scopes.
func grant(kind issuefields.TokenKind, login string, orgHooks, repoHooks issuefields.Permission, scopes ...string) *issuefields.Principal {
	return &issuefields.Principal{Kind: kind, Login: login, Scopes: scopes,
		OrganizationPermissions: func(_ context.Context, org string) (issuefields.OrganizationPermissions, error) {
			if !strings.EqualFold(org, "octo-org") {
				return issuefields.OrganizationPermissions{}, nil
			}
			return issuefields.OrganizationPermissions{Visible: true, OrganizationHooks: orgHooks}, nil
		},
		Permissions: func(_ context.Context, repo issuefields.Repository) (issuefields.RepositoryPermissions, error) {
			if !strings.EqualFold(repo.Owner, "octo-org") {
				return issuefields.RepositoryPermissions{}, nil
			}
			return issuefields.RepositoryPermissions{Visible: true, Issues: issuefields.PermissionWrite, Push: true,
				RepositoryHooks: repoHooks}, nil
		},
	}
}

// permissionOf returns the X-Accepted-Service-Permissions of a request of
// method to path.
func permissionOf(method, path string) string {
	name := "repository_hooks"
	if strings.HasPrefix(path, "/orgs/") {
		name = "organization_hooks"
	}
	if method == http.MethodGet {
		return name + "=read"
	}
	return name + "=write"
}

// checkPermissionHeader checks the X-Accepted-Service-Permissions of an
// answer to method and path.
func checkPermissionHeader(t *testing.T, got answer, method, path string) {
	t.Helper()
	if h, want := got.header.Get("X-Accepted-Service-Permissions"), permissionOf(method, path); h != want {
		t.Errorf("%s %s: X-Accepted-Service-Permissions %q, want %q", method, path, h, want)
	}
}
