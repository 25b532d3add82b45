package webhook_test

import (
	"net/http"
	"testing"
)

// TestRoutesLifecycle walks a hook of an organization and one of a
// repository through every route, checking each answer's status, shape and
// permission header, and the deliveries the routes cause.
func TestRoutesLifecycle(t *testing.T) {
	for _, scope := range []struct {
		name, prefix   string
		hookType       string
		repositoryID   func(*api) any // repository_id of the hook's pings
		hasLastAnswers bool           // the hook has test_url and last_response
	}{
		{"organization", orgHooks, "Organization", func(*api) any { return nil }, false},
		{"repository", repoHooks, "Repository", func(a *api) any { return float64(a.helloWorld.ID) }, true},
	} {
		t.Run(scope.name, func(t *testing.T) {
			a := newAPI(t)
			do := func(want int, method, suffix, body string) answer {
				t.Helper()
				got := a.mustDo(t, want, method, scope.prefix+suffix, "admin", body)
				checkPermissionHeader(t, got, method, scope.prefix+suffix)
				return got
			}

			created := do(http.StatusCreated, "POST", "",
				`{"name":"web","active":true,"events":["issues"],"config":{"url":"`+a.rc.URL+`","content_type":"json","secret":"s3cret"}}`)
			hook := created.object(t)
			id := itoa(int64(hook["id"].(float64)))
			url := apiBase + scope.prefix + "/" + id
			checkMembers(t, hook, map[string]any{
				"type":                scope.hookType,
				"name":                "web",
				"active":              true,
				"events":              []any{"issues"},
				"config.url":          a.rc.URL,
				"config.content_type": "json",
				"config.insecure_ssl": "0",
				"config.secret":       "********",
				"url":                 url,
				"ping_url":            url + "/pings",
				"deliveries_url":      url + "/deliveries",
			})
			if scope.hasLastAnswers {
				checkMembers(t, hook, map[string]any{"test_url": url + "/test",
					"last_response": map[string]any{"code": nil, "status": "unused", "message": nil}})
			}
			if got := created.header.Get("Location"); got != url {
				t.Errorf("Location %q, want %q", got, url)
			}
			ping := a.rc.next(t)
			if ping.header.Get("X-Service-Event") != "ping" || ping.header.Get("X-Service-Hook-ID") != id {
				t.Errorf("after the create, the receiver got %s of hook %s, want a ping of hook %s",
					ping.header.Get("X-Service-Event"), ping.header.Get("X-Service-Hook-ID"), id)
			}
			a.hooks.waitRecorded(t, 1)

			var list []map[string]any
			do(http.StatusOK, "GET", "", "").json(t, &list)
			if len(list) != 1 || list[0]["id"] != hook["id"] {
				t.Errorf("the list is %v, want the hook created", list)
			}
			got := do(http.StatusOK, "GET", "/"+id, "").object(t)
			checkMembers(t, got, map[string]any{"id": hook["id"], "url": url, "config.secret": "********"})
			if scope.hasLastAnswers {
				checkMembers(t, got, map[string]any{
					"last_response": map[string]any{"code": 200.0, "status": "active", "message": "OK"}})
			}

			checkMembers(t, do(http.StatusOK, "PATCH", "/"+id, `{"active":false}`).object(t),
				map[string]any{"id": hook["id"], "active": false, "events": []any{"issues"}, "config.secret": "********"})
			checkMembers(t, do(http.StatusOK, "GET", "/"+id+"/config", "").object(t), map[string]any{
				"url": a.rc.URL, "content_type": "json", "insecure_ssl": "0", "secret": "********"})
			checkMembers(t, do(http.StatusOK, "PATCH", "/"+id+"/config", `{"content_type":"form"}`).object(t), map[string]any{
				"url": a.rc.URL, "content_type": "form", "insecure_ssl": "0", "secret": "********"})

			if got := do(http.StatusNoContent, "POST", "/"+id+"/pings", ""); len(got.body) != 0 {
				t.Errorf("the ping answered %q, want no body", got.body)
			}
			if got := a.rc.next(t); got.header.Get("X-Service-Event") != "ping" {
				t.Errorf("the inactive hook got %q, want a ping", got.header.Get("X-Service-Event"))
			}
			a.hooks.waitRecorded(t, 1)

			var deliveries []map[string]any
			do(http.StatusOK, "GET", "/"+id+"/deliveries", "").json(t, &deliveries)
			if len(deliveries) != 2 || deliveries[0]["id"].(float64) <= deliveries[1]["id"].(float64) {
				t.Fatalf("the deliveries are %v, want the two pings, newest first", deliveries)
			}
			for _, d := range deliveries {
				checkMembers(t, d, map[string]any{"event": "ping", "action": nil, "status": "OK", "status_code": 200.0,
					"redelivery": false, "installation_id": nil, "repository_id": scope.repositoryID(a)})
				if _, ok := d["duration"].(float64); !ok {
					t.Errorf("duration %v, want a number of seconds", d["duration"])
				}
			}
			deliveryID := itoa(int64(deliveries[0]["id"].(float64)))
			one := do(http.StatusOK, "GET", "/"+id+"/deliveries/"+deliveryID, "").object(t)
			checkMembers(t, one, map[string]any{
				"id":                              deliveries[0]["id"],
				"guid":                            deliveries[0]["guid"],
				"url":                             a.rc.URL,
				"request.headers.X-Service-Event": "ping",
				"request.headers.Content-Type":    "application/x-www-form-urlencoded",
				"request.payload.hook_id":         hook["id"],
				"response.payload":                "ok",
			})

			if got := do(http.StatusAccepted, "POST", "/"+id+"/deliveries/"+deliveryID+"/attempts", ""); string(got.body) != "{}\n" {
				t.Errorf("the redelivery answered %q, want {}", got.body)
			}
			again := a.rc.next(t)
			if guid := again.header.Get("X-Service-Delivery"); guid != deliveries[0]["guid"] {
				t.Errorf("the redelivery has the GUID %q, want %v", guid, deliveries[0]["guid"])
			}
			if d := a.hooks.waitRecorded(t, 1)[0]; !d.Redelivery {
				t.Errorf("recorded %s, want a redelivery", brief(d))
			}

			do(http.StatusNoContent, "DELETE", "/"+id, "")
			do(http.StatusNotFound, "GET", "/"+id, "")
			do(http.StatusNotFound, "GET", "/"+id+"/deliveries", "")
		})
	}
}
