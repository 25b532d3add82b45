package webhook_test

import (
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// pingOf pings a hook of a fresh world through a Notifier of opts and
// returns the delivery's body, with the hook. hookOf gives the hook's scope,
// and the repository of a repository's hook (nil for an organization's).
func pingOf(t *testing.T, opts webhook.Options, hookOf func(*world) (webhook.Scope, *issuefields.Repository),
	change ...func(*webhook.Hook)) (map[string]any, webhook.Hook) {
	t.Helper()
	w := newWorld(t)
	rc := newReceiver(t, nil)
	scope, repo := hookOf(w)
	h := w.addHook(t, scope, rc.URL, change...)
	opts.Store = w.hooks
	n := newNotifier(t, opts)
	if err := n.Ping(h, repo, "octocat"); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	closeNotifier(t, n)
	got := rc.received()
	if len(got) != 1 {
		t.Fatalf("got %d deliveries, want 1 ping", len(got))
	}
	if event := got[0].header.Get("X-Service-Event"); event != "ping" {
		t.Errorf("X-Service-Event %q, want ping", event)
	}
	return got[0].payload(t), h
}

// The hooks that the ping tests ping.
var (
	anOrganizationHook = func(w *world) (webhook.Scope, *issuefields.Repository) {
		return orgScope("octo-org"), nil
	}
	anOrganizationRepositoryHook = func(w *world) (webhook.Scope, *issuefields.Repository) {
		return repoScope(w.helloWorld), &w.helloWorld
	}
	aUserRepositoryHook = func(w *world) (webhook.Scope, *issuefields.Repository) {
		return repoScope(w.spoonKnife), &w.spoonKnife
	}
)

// TestPingBody checks the body of a ping, GitHub's webhook-ping: the hook,
// its owner and the sender.
func TestPingBody(t *testing.T) {
	const api = "https://api.example.test"
	tests := []struct {
		name   string
		hookOf func(*world) (webhook.Scope, *issuefields.Repository)
		want   func(h webhook.Hook) map[string]any
	}{
		{
			name:   "an organization's hook",
			hookOf: anOrganizationHook,
			want: func(h webhook.Hook) map[string]any {
				url := api + "/orgs/octo-org/hooks/" + itoa(h.ID)
				return map[string]any{
					"hook.type":           "Organization",
					"hook.url":            url,
					"hook.ping_url":       url + "/pings",
					"hook.deliveries_url": url + "/deliveries",
					"hook.test_url":       absent,
					"organization.login":  "octo-org",
					"repository":          absent,
				}
			},
		},
		{
			name:   "an organization's repository's hook",
			hookOf: anOrganizationRepositoryHook,
			want: func(h webhook.Hook) map[string]any {
				url := api + "/repos/octo-org/hello-world/hooks/" + itoa(h.ID)
				return map[string]any{
					"hook.type":            "Repository",
					"hook.url":             url,
					"hook.test_url":        url + "/test",
					"hook.ping_url":        url + "/pings",
					"repository.full_name": "octo-org/hello-world",
					"organization.login":   "octo-org",
				}
			},
		},
		{
			name:   "a user's repository's hook",
			hookOf: aUserRepositoryHook,
			want: func(h webhook.Hook) map[string]any {
				return map[string]any{
					"hook.type":            "Repository",
					"repository.full_name": "octocat/spoon-knife",
					"organization":         absent,
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, h := pingOf(t, webhook.Options{BaseURL: api}, tt.hookOf, func(h *webhook.Hook) {
				h.Events = []string{"issues", "push"}
				h.Config.Secret = "s3cret"
				h.Config.ContentType = "form"
			})
			common := map[string]any{
				"hook_id":                  float64(h.ID),
				"hook.id":                  float64(h.ID),
				"hook.name":                "web",
				"hook.active":              true,
				"hook.events":              []any{"issues", "push"},
				"hook.config.url":          h.Config.URL,
				"hook.config.content_type": "form",
				"hook.config.insecure_ssl": "0",
				"hook.config.secret":       absent,
				"sender.login":             "octocat",
			}
			checkMembers(t, body, common)
			checkMembers(t, body, tt.want(h))
			if zen, _ := body["zen"].(string); zen == "" {
				t.Errorf("zen %v, want a saying", body["zen"])
			}
		})
	}
}
