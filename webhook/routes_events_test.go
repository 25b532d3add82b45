package webhook_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/issuefields/issuefields/webhook"
)

// TestRoutesHookEvents checks a new hook's default events, and how a
// repository hook's PATCH changes them with events, add_events and
// remove_events.
func TestRoutesHookEvents(t *testing.T) {
	a := newAPI(t)
	created := a.mustDo(t, http.StatusCreated, "POST", repoHooks, "admin", `{"config":{"url":"`+a.rc.URL+`"}}`).object(t)
	checkMembers(t, created, map[string]any{"events": []any{"push"}, "active": true, "name": "web",
		"config.content_type": "form", "config.insecure_ssl": "0"})
	path := repoHooks + "/" + itoa(int64(created["id"].(float64)))
	steps := []struct {
		body string
		want []string
	}{
		{`{"add_events":["issues","push"]}`, []string{"push", "issues"}},
		{`{"remove_events":["push"]}`, []string{"issues"}},
		{`{"remove_events":["issues"]}`, []string{}},
		{`{"events":["*"]}`, []string{"*"}},
		{`{"events":["issues"],"add_events":["pull_request"]}`, []string{"issues", "pull_request"}},
		{`{"add_events":["issues"],"remove_events":["pull_request"]}`, []string{"issues"}},
	}
	for _, step := range steps {
		var hook struct{ Events []string }
		a.mustDo(t, http.StatusOK, "PATCH", path, "admin", step.body).json(t, &hook)
		if diff := cmp.Diff(step.want, hook.Events); diff != "" {
			t.Errorf("after %s the events are (-want +got):\n%s", step.body, diff)
		}
	}
}

// TestRoutesHookLimit checks that an organization and a repository may
// each have MaxHooks hooks, and that one more is refused with 422.
func TestRoutesHookLimit(t *testing.T) {
	a := newAPI(t)
	for _, prefix := range []string{orgHooks, repoHooks} {
		body := `{"name":"web","events":["issues"],"config":{"url":"` + a.rc.URL + `"}}`
		for range webhook.MaxHooks {
			a.mustDo(t, http.StatusCreated, "POST", prefix, "admin", body)
		}
		got := a.do(t, "POST", prefix, "admin", body)
		if got.status != http.StatusUnprocessableEntity {
			t.Fatalf("hook %d of %s: %d %s, want 422", webhook.MaxHooks+1, prefix, got.status, got.body)
		}
		var refusal struct {
			Message string
			Errors  []struct{ Resource, Code, Message string }
		}
		got.json(t, &refusal)
		if refusal.Message != "Validation Failed" || len(refusal.Errors) != 1 ||
			!strings.Contains(refusal.Errors[0].Message, itoa(webhook.MaxHooks)) {
			t.Errorf("the refusal %s, want a validation error that gives the limit", got.body)
		}
		var hooks []any
		a.mustDo(t, http.StatusOK, "GET", prefix+"?per_page=100", "admin", "").json(t, &hooks)
		if len(hooks) != webhook.MaxHooks {
			t.Errorf("%s has %d hooks, want %d", prefix, len(hooks), webhook.MaxHooks)
		}
	}
}

// TestRoutesHookWithoutEvents checks that a hook that a host stored without
// events shows an empty list, in answers and in its ping, as the schemas
// require an array.
func TestRoutesHookWithoutEvents(t *testing.T) {
	a := newAPI(t)
	h := a.addHook(t, orgScope("octo-org"), a.rc.URL, func(h *webhook.Hook) { h.Events = nil })
	path := orgHooks + "/" + itoa(h.ID)
	checkMembers(t, a.mustDo(t, http.StatusOK, "GET", path, "admin", "").object(t), map[string]any{"events": []any{}})
	a.mustDo(t, http.StatusNoContent, "POST", path+"/pings", "admin", "")
	checkMembers(t, a.rc.next(t).payload(t), map[string]any{"hook.events": []any{}})
}
