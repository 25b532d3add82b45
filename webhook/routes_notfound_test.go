package webhook_test

import (
	"context"
	"testing"

	"github.com/issuefields/issuefields/webhook"
)

// TestRoutesNotFound checks that an owner, a hook or a delivery that does
// not exist, or not where the path says, is 404, as is a malformed id.
func TestRoutesNotFound(t *testing.T) {
	a := newAPI(t)
	orgHook := a.addHook(t, orgScope("octo-org"), a.rc.URL)
	repoHook := a.addHook(t, repoScope(a.helloWorld), a.rc.URL)
	otherDelivery, err := a.hooks.AddDelivery(context.Background(), webhook.Delivery{HookID: repoHook.ID,
		GUID: "0b989ba4-242f-11e5-81e1-c7b6966d2516", Event: "ping", Status: "OK", StatusCode: 200})
	if err != nil {
		t.Fatal(err)
	}
	<-a.hooks.recorded
	org := orgHooks + "/" + itoa(orgHook.ID)
	tests := []struct {
		name, method, path string
	}{
		{"an unknown organization", "GET", "/orgs/nobody/hooks"},
		{"a user, not an organization", "GET", "/orgs/octocat/hooks"},
		{"an unknown repository", "GET", "/repos/octo-org/nothing/hooks"},
		{"an unknown hook", "GET", orgHooks + "/999"},
		{"a repository's hook under its organization", "GET", orgHooks + "/" + itoa(repoHook.ID)},
		{"an organization's hook under its repository", "GET", repoHooks + "/" + itoa(orgHook.ID)},
		{"a repository's hook under another repository", "GET", "/repos/octo-org/secret-plans/hooks/" + itoa(repoHook.ID)},
		{"a hook id that is not a number", "GET", orgHooks + "/abc"},
		{"a hook id of zero", "GET", orgHooks + "/0"},
		{"a negative hook id", "GET", orgHooks + "/-1"},
		{"a hook id with a leading zero", "GET", orgHooks + "/0" + itoa(orgHook.ID)},
		{"changing an unknown hook", "PATCH", orgHooks + "/999"},
		{"deleting an unknown hook", "DELETE", repoHooks + "/999"},
		{"the config of an unknown hook", "GET", orgHooks + "/999/config"},
		{"changing the config of an unknown hook", "PATCH", repoHooks + "/999/config"},
		{"pinging an unknown hook", "POST", orgHooks + "/999/pings"},
		{"the deliveries of an unknown hook", "GET", orgHooks + "/999/deliveries"},
		{"an unknown delivery", "GET", org + "/deliveries/999"},
		{"a delivery id that is not a number", "GET", org + "/deliveries/x"},
		{"another hook's delivery", "GET", org + "/deliveries/" + itoa(otherDelivery.ID)},
		{"redelivering an unknown delivery", "POST", org + "/deliveries/999/attempts"},
		{"redelivering another hook's delivery", "POST", org + "/deliveries/" + itoa(otherDelivery.ID) + "/attempts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := ""
			if tt.method == "PATCH" {
				body = `{"active":true}`
			}
			got := a.do(t, tt.method, tt.path, "admin", body)
			if got.status != 404 {
				t.Fatalf("%s %s: %d %s, want 404", tt.method, tt.path, got.status, got.body)
			}
			checkPermissionHeader(t, got, tt.method, tt.path)
			m := got.object(t)
			checkErrorBody(t, m, 404)
			if m["message"] != "Not Found" {
				t.Errorf("message %v, want Not Found", m["message"])
			}
		})
	}
	if got := a.rc.received(); len(got) != 0 {
		t.Errorf("the receiver got %d deliveries, want none", len(got))
	}
}
