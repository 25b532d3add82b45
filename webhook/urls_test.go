package webhook_test

import (
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// TestBodyURLs checks that every URL of a delivery's body is under the
// configured addresses: url and *_url under Options.BaseURL, html_url and
// the clone URLs under Options.WebURL.
func TestBodyURLs(t *testing.T) {
	tests := []struct {
		name     string
		opts     webhook.Options
		api, web string // the addresses the URLs must be under
		host     string // the host of git_url and ssh_url
	}{
		{
			name: "configured",
			opts: webhook.Options{BaseURL: "https://api.example.test/api/v3/", WebURL: "https://example.test"},
			api:  "https://api.example.test/api/v3", web: "https://example.test", host: "example.test",
		},
		{
			name: "defaults",
			api:  "http://127.0.0.1:8080", web: "http://127.0.0.1:8080", host: "127.0.0.1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bodies := bodiesOf(t, tt.opts, func(w *world) []issuefields.Event {
				return []issuefields.Event{newEvent(w.helloWorld, 7, octocat, setNotes("needs triage"))}
			})
			if len(bodies) != 1 {
				t.Fatalf("got %d deliveries, want 1", len(bodies))
			}
			event := object(t, bodies[0])
			checkMembers(t, event, map[string]any{
				"issue.url":              tt.api + "/repos/octo-org/hello-world/issues/7",
				"issue.html_url":         tt.web + "/octo-org/hello-world/issues/7",
				"issue.repository_url":   tt.api + "/repos/octo-org/hello-world",
				"repository.url":         tt.api + "/repos/octo-org/hello-world",
				"repository.html_url":    tt.web + "/octo-org/hello-world",
				"repository.clone_url":   tt.web + "/octo-org/hello-world.git",
				"repository.hooks_url":   tt.api + "/repos/octo-org/hello-world/hooks",
				"organization.url":       tt.api + "/orgs/octo-org",
				"organization.hooks_url": tt.api + "/orgs/octo-org/hooks",
				"sender.url":             tt.api + "/users/octocat",
				"sender.html_url":        tt.web + "/octocat",
				"repository.owner.url":   tt.api + "/users/octo-org",
				"repository.git_url":     "git://" + tt.host + "/octo-org/hello-world.git",
				"repository.ssh_url":     "git@" + tt.host + ":octo-org/hello-world.git",
				"issue.reactions.url":    tt.api + "/repos/octo-org/hello-world/issues/7/reactions",
				"issue.user.html_url":    tt.web + "/octo-org",
			})
			ping, _ := pingOf(t, tt.opts, anOrganizationRepositoryHook)
			for name, body := range map[string]map[string]any{"the issues event": event, "the ping": ping} {
				checkURLs(t, name, "", body, tt.api, tt.web, tt.host)
			}
		})
	}
}

// checkURLs checks every URL member of v, at path, in the delivery name.
func checkURLs(t *testing.T, name, path string, v any, api, web, host string) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			checkURLs(t, name, strings.TrimPrefix(path+"."+k, "."), x, api, web, host)
		}
	case string:
		key := path[strings.LastIndex(path, ".")+1:]
		var prefix string
		switch {
		case path == "hook.config.url":
			return // where the hook delivers
		case key == "html_url" || key == "clone_url" || key == "svn_url" || key == "avatar_url":
			prefix = web + "/"
		case key == "git_url":
			prefix = "git://" + host + "/"
		case key == "ssh_url":
			prefix = "git@" + host + ":"
		case key == "url" || strings.HasSuffix(key, "_url"):
			prefix = api + "/"
		default:
			return
		}
		if !strings.HasPrefix(v, prefix) {
			t.Errorf("%s: %s is %q, want it under %q", name, path, v, prefix)
		}
	}
}
