package webhook_test

import (
	"slices"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// TestWhichHooksGetDeliveries checks which hooks get the deliveries of a
// change to an issue of octo-org/hello-world: the active hooks of the
// repository and of its organization whose events name issues or "*".
func TestWhichHooksGetDeliveries(t *testing.T) {
	tests := []struct {
		name   string
		scope  func(*world) webhook.Scope
		events []string
		active bool
		want   bool
	}{
		{"the organization's, for issues", orgOf("octo-org"), []string{"issues"}, true, true},
		{"the organization's, for every event", orgOf("octo-org"), []string{"*"}, true, true},
		{"the organization's, spelt in capitals", orgOf("OCTO-ORG"), []string{"issues"}, true, true},
		{"the organization's, for push", orgOf("octo-org"), []string{"push"}, true, false},
		{"the organization's, for no event", orgOf("octo-org"), []string{}, true, false},
		{"the organization's, inactive", orgOf("octo-org"), []string{"issues"}, false, false},
		{"the repository's, for issues", repoOf(func(w *world) issuefields.Repository { return w.helloWorld }),
			[]string{"push", "issues"}, true, true},
		{"the repository's, inactive", repoOf(func(w *world) issuefields.Repository { return w.helloWorld }),
			[]string{"*"}, false, false},
		{"another repository's of the organization", repoOf(func(w *world) issuefields.Repository { return w.secretPlans }),
			[]string{"*"}, true, false},
		{"another organization's", orgOf("other-org"), []string{"*"}, true, false},
		{"a user's repository's", repoOf(func(w *world) issuefields.Repository { return w.spoonKnife }),
			[]string{"*"}, true, false},
	}
	w := newWorld(t)
	rc := newReceiver(t, nil)
	var want []string
	for _, tt := range tests {
		w.addHook(t, tt.scope(w), rc.URL+"/"+tt.name, func(h *webhook.Hook) { h.Events, h.Active = tt.events, tt.active })
		if tt.want {
			want = append(want, "/"+tt.name)
		}
	}
	n := newNotifier(t, webhook.Options{Store: w.hooks})
	notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("needs triage")))
	closeNotifier(t, n)
	got := map[string]int{}
	for _, r := range rc.received() {
		got[r.path]++
	}
	for _, tt := range tests {
		if n := got["/"+tt.name]; n != 0 && !tt.want || n != 1 && tt.want {
			t.Errorf("%s got %d deliveries, want %d", tt.name, n, map[bool]int{true: 1}[tt.want])
		}
	}
	if len(got) != len(want) {
		t.Errorf("deliveries went to %d hooks, want %d", len(got), len(want))
	}
}

// orgOf and repoOf return the scope of the hooks of an organization and of
// a repository of a world.
func orgOf(login string) func(*world) webhook.Scope {
	return func(*world) webhook.Scope { return orgScope(login) }
}

func repoOf(repo func(*world) issuefields.Repository) func(*world) webhook.Scope {
	return func(w *world) webhook.Scope { return repoScope(repo(w)) }
}

// TestPingGoesToEveryHook checks that a ping goes to a hook whatever its
// events, and to an inactive one, as GitHub pings them.
func TestPingGoesToEveryHook(t *testing.T) {
	tests := []struct {
		name   string
		events []string
		active bool
	}{
		{"active, for issues", []string{"issues"}, true},
		{"active, for push", []string{"push"}, true},
		{"inactive", []string{"issues"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			rc := newReceiver(t, nil)
			h := w.addHook(t, orgScope("octo-org"), rc.URL, func(h *webhook.Hook) { h.Events, h.Active = tt.events, tt.active })
			n := newNotifier(t, webhook.Options{Store: w.hooks})
			if err := n.Ping(h, nil, "octocat"); err != nil {
				t.Fatalf("Ping: %v", err)
			}
			r := rc.next(t)
			if got := r.header.Get("X-Service-Event"); got != "ping" {
				t.Errorf("X-Service-Event %q, want ping", got)
			}
			d := w.hooks.waitRecorded(t, 1)[0]
			if d.Event != "ping" || d.Action != "" || d.HookID != h.ID || d.Status != "OK" {
				t.Errorf("recorded %s, want the OK ping of hook %d", brief(d), h.ID)
			}
		})
	}
}

// TestHookWants checks Hook.Wants, which decides the hooks that get an
// event.
func TestHookWants(t *testing.T) {
	tests := []struct {
		events []string
		active bool
		event  string
		want   bool
	}{
		{[]string{"issues"}, true, "issues", true},
		{[]string{"*"}, true, "issues", true},
		{[]string{"push", "pull_request"}, true, "issues", false},
		{nil, true, "issues", false},
		{[]string{"issues"}, false, "issues", false},
		{[]string{"push"}, false, "ping", true},
	}
	for _, tt := range tests {
		h := webhook.Hook{Events: slices.Clone(tt.events), Active: tt.active}
		if got := h.Wants(tt.event); got != tt.want {
			t.Errorf("Hook{Events: %q, Active: %v}.Wants(%q) = %v, want %v", tt.events, tt.active, tt.event, got, tt.want)
		}
	}
}
