package webhook_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestRoutesAuthorization checks who may use the routes: 404 for a caller
// that cannot see the owner, 401 for an anonymous one (but for a private
// repository), whether the organization exists or not, 403 naming the
// permission or scope for one that sees the owner without it; and the
// X-Accepted-Service-Permissions header on every answer.
func TestRoutesAuthorization(t *testing.T) {
	a := newAPI(t)
	orgHook := itoa(a.addHook(t, orgScope("octo-org"), a.rc.URL).ID)
	repoHook := itoa(a.addHook(t, repoScope(a.helloWorld), a.rc.URL).ID)
	privateHooks := "/repos/octo-org/secret-plans/hooks"
	tests := []struct {
		name, token, method, path string
		want                      int
		wantMessage               string // in the message of an error
	}{
		{"anonymous, an organization", "", "GET", orgHooks, 401, "Requires authentication"},
		{"anonymous, an unknown organization", "", "GET", "/orgs/nobody/hooks", 401, "Requires authentication"},
		{"anonymous, a user, not an organization", "", "POST", "/orgs/octocat/hooks", 401, "Requires authentication"},
		{"anonymous, a public repository", "", "GET", repoHooks, 401, "Requires authentication"},
		{"anonymous, a private repository", "", "GET", privateHooks, 404, "Not Found"},
		{"an unknown token", "nope", "GET", orgHooks, 401, "Bad credentials"},
		{"a stranger, an organization", "stranger", "GET", orgHooks, 404, "Not Found"},
		{"a stranger, a private repository", "stranger", "GET", privateHooks, 404, "Not Found"},
		{"a stranger, a public repository", "stranger", "GET", repoHooks, 403, "repository_hooks=read"},
		{"no hooks permission, organization", "no-hooks", "GET", orgHooks, 403, "the permission organization_hooks=read"},
		{"no hooks permission, repository", "no-hooks", "POST", repoHooks + "/" + repoHook + "/pings", 403,
			"the permission repository_hooks=write"},
		{"read, listing an organization's", "reader", "GET", orgHooks, 200, ""},
		{"read, a hook's deliveries", "reader", "GET", orgHooks + "/" + orgHook + "/deliveries", 200, ""},
		{"read, a repository's hook", "reader", "GET", repoHooks + "/" + repoHook + "/config", 200, ""},
		{"read, creating", "reader", "POST", orgHooks, 403, "Resource not accessible by personal access token: it needs the permission organization_hooks=write"},
		{"read, changing", "reader", "PATCH", repoHooks + "/" + repoHook, 403, "repository_hooks=write"},
		{"read, deleting", "reader", "DELETE", orgHooks + "/" + orgHook, 403, "organization_hooks=write"},
		{"read, pinging", "reader", "POST", repoHooks + "/" + repoHook + "/pings", 403, "repository_hooks=write"},
		{"an app with write", "app", "POST", orgHooks + "/" + orgHook + "/pings", 204, ""},
		{"an app with read", "app-reader", "POST", orgHooks + "/" + orgHook + "/pings", 403,
			"Resource not accessible by integration: it needs the permission organization_hooks=write"},
		{"admin:org_hook, pinging", "admin:org_hook", "POST", orgHooks + "/" + orgHook + "/pings", 204, ""},
		{"admin:org_hook, listing", "admin:org_hook", "GET", orgHooks, 200, ""},
		{"admin:org_hook, a repository's", "admin:org_hook", "GET", repoHooks, 403, "the scope read:repo_hook"},
		{"repo, an organization's", "repo", "GET", orgHooks, 403, "the scope admin:org_hook"},
		{"repo, a repository's", "repo", "GET", repoHooks, 403, "the scope read:repo_hook"},
		{"read:repo_hook, listing", "read:repo_hook", "GET", repoHooks, 200, ""},
		{"read:repo_hook, pinging", "read:repo_hook", "POST", repoHooks + "/" + repoHook + "/pings", 403, "the scope write:repo_hook"},
		{"write:repo_hook, pinging", "write:repo_hook", "POST", repoHooks + "/" + repoHook + "/pings", 204, ""},
		{"write:repo_hook, listing", "write:repo_hook", "GET", repoHooks, 200, ""},
		{"admin:repo_hook, pinging", "admin:repo_hook", "POST", repoHooks + "/" + repoHook + "/pings", 204, ""},
		{"admin:repo_hook, an organization's", "admin:repo_hook", "GET", orgHooks, 403, "the scope admin:org_hook"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := a.do(t, tt.method, tt.path, tt.token, "")
			if got.status != tt.want {
				t.Fatalf("%s %s: %d %s, want %d", tt.method, tt.path, got.status, got.body, tt.want)
			}
			checkPermissionHeader(t, got, tt.method, tt.path)
			if tt.wantMessage == "" {
				return
			}
			body := got.object(t)
			if msg, _ := body["message"].(string); !strings.Contains(msg, tt.wantMessage) {
				t.Errorf("message %q, want it to contain %q", msg, tt.wantMessage)
			}
			checkErrorBody(t, body, tt.want)
		})
	}
}

// checkErrorBody checks the members that every error answer has.
func checkErrorBody(t *testing.T, body map[string]any, status int) {
	t.Helper()
	if doc, _ := body["documentation_url"].(string); !strings.HasPrefix(doc, "https://docs.github.com/rest/") {
		t.Errorf("documentation_url %q, want one of GitHub's pages", doc)
	}
	if body["status"] != itoa(int64(status)) {
		t.Errorf("status %v, want %q", body["status"], itoa(int64(status)))
	}
}

// TestRoutesAPIVersion checks that the routes answer the versions of the
// API, and refuse the others.
func TestRoutesAPIVersion(t *testing.T) {
	a := newAPI(t)
	tests := []struct {
		version string
		want    int
	}{
		{"", http.StatusOK},
		{"2026-03-10", http.StatusOK},
		{"2022-11-28", http.StatusOK},
		{"2020-01-01", http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			var header []string
			if tt.version != "" {
				header = []string{"X-Service-Api-Version", tt.version}
			}
			got := a.do(t, "GET", orgHooks, "admin", "", header...)
			if got.status != tt.want {
				t.Fatalf("%d %s, want %d", got.status, got.body, tt.want)
			}
			checkPermissionHeader(t, got, "GET", orgHooks)
			if tt.want != http.StatusOK {
				body := got.object(t)
				checkErrorBody(t, body, tt.want)
				if msg, _ := body["message"].(string); !strings.Contains(msg, tt.version) {
					t.Errorf("message %q, want it to name %s", msg, tt.version)
				}
			}
		})
	}
}
