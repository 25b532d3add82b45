package webhook_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRoutesRefuseInvalidBodies checks that a body with a known key of the
// wrong type or value, or without what a route needs, is refused with 422
// in GitHub's validation-error shape, naming each problem; and that a body
// that is not a JSON object is 400.
func TestRoutesRefuseInvalidBodies(t *testing.T) {
	a := newAPI(t)
	orgHook := orgHooks + "/" + itoa(a.addHook(t, orgScope("octo-org"), a.rc.URL).ID)
	repoHook := repoHooks + "/" + itoa(a.addHook(t, repoScope(a.helloWorld), a.rc.URL).ID)
	url := `"url":"https://hooks.example.test/"`
	tests := []struct {
		name, method, path, body string
		want                     int
		// wantFields are the field and code of each item of errors.
		wantFields [][2]string
	}{
		{"a name other than web", "POST", orgHooks, `{"name":"irc","config":{` + url + `}}`, 422,
			[][2]string{{"name", "invalid"}}},
		{"an organization's hook without a name", "POST", orgHooks, `{"config":{` + url + `}}`, 422,
			[][2]string{{"name", "missing_field"}}},
		{"an organization's hook without a config", "POST", orgHooks, `{"name":"web"}`, 422,
			[][2]string{{"config.url", "missing_field"}}},
		{"a config without a url", "POST", orgHooks, `{"name":"web","config":{"content_type":"json"}}`, 422,
			[][2]string{{"config.url", "missing_field"}}},
		{"a repository's hook without a url", "POST", repoHooks, `{"config":{}}`, 422,
			[][2]string{{"config.url", "missing_field"}}},
		{"a url that is not http", "POST", repoHooks, `{"config":{"url":"ftp://example.test/"}}`, 422,
			[][2]string{{"config.url", "invalid"}}},
		{"a url that is a number", "POST", repoHooks, `{"config":{"url":5}}`, 422,
			[][2]string{{"config.url", "invalid"}}},
		{"an unknown content type", "POST", orgHooks, `{"name":"web","config":{` + url + `,"content_type":"xml"}}`, 422,
			[][2]string{{"config.content_type", "invalid"}}},
		{"an insecure_ssl of 2", "POST", orgHooks, `{"name":"web","config":{` + url + `,"insecure_ssl":"2"}}`, 422,
			[][2]string{{"config.insecure_ssl", "invalid"}}},
		{"events as a string", "POST", orgHooks, `{"name":"web","events":"issues","config":{` + url + `}}`, 422,
			[][2]string{{"events", "invalid"}}},
		{"events of null", "POST", orgHooks, `{"name":"web","events":null,"config":{` + url + `}}`, 422,
			[][2]string{{"events", "invalid"}}},
		{"active as a string", "PATCH", orgHook, `{"active":"yes"}`, 422,
			[][2]string{{"active", "invalid"}}},
		{"a config that is not an object", "PATCH", repoHook, `{"config":"` + "https://hooks.example.test/" + `"}`, 422,
			[][2]string{{"config", "invalid"}}},
		{"an organization's new config without a url", "PATCH", orgHook, `{"config":{"content_type":"json"}}`, 422,
			[][2]string{{"config.url", "missing_field"}}},
		{"renaming", "PATCH", repoHook, `{"name":"irc"}`, 422,
			[][2]string{{"name", "invalid"}}},
		{"add_events as a string", "PATCH", repoHook, `{"add_events":"issues"}`, 422,
			[][2]string{{"add_events", "invalid"}}},
		{"a config's content type", "PATCH", orgHook + "/config", `{"content_type":"xml"}`, 422,
			[][2]string{{"config.content_type", "invalid"}}},
		{"a config's secret as a number", "PATCH", repoHook + "/config", `{"secret":1}`, 422,
			[][2]string{{"config.secret", "invalid"}}},
		{"two problems at once", "POST", orgHooks, `{"name":"web","active":1,"events":"issues","config":{` + url + `}}`, 422,
			[][2]string{{"events", "invalid"}, {"active", "invalid"}}},
		{"JSON that does not parse", "POST", orgHooks, `{"name":`, 400, nil},
		{"an array", "PATCH", orgHook, `[]`, 400, nil},
		{"null", "PATCH", repoHook + "/config", `null`, 400, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := a.do(t, tt.method, tt.path, "admin", tt.body)
			if got.status != tt.want {
				t.Fatalf("%s %s %s: %d %s, want %d", tt.method, tt.path, tt.body, got.status, got.body, tt.want)
			}
			checkPermissionHeader(t, got, tt.method, tt.path)
			var body struct {
				Message          string `json:"message"`
				DocumentationURL string `json:"documentation_url"`
				Errors           []struct {
					Resource, Field, Code, Message string
				} `json:"errors"`
			}
			got.json(t, &body)
			if body.Message == "" || body.DocumentationURL == "" {
				t.Errorf("the answer %s lacks a message or a documentation_url", got.body)
			}
			if tt.want != http.StatusUnprocessableEntity {
				return
			}
			var fields [][2]string
			for _, e := range body.Errors {
				fields = append(fields, [2]string{e.Field, e.Code})
				if e.Resource != "Hook" || e.Message == "" {
					t.Errorf("the error %+v, want the resource Hook and a message", e)
				}
			}
			if diff := cmp.Diff(tt.wantFields, fields); body.Message != "Validation Failed" || diff != "" {
				t.Errorf("message %q and errors (-want +got):\n%s", body.Message, diff)
			}
		})
	}
	var hooks []map[string]any
	a.mustDo(t, http.StatusOK, "GET", orgHooks, "admin", "").json(t, &hooks)
	if len(hooks) != 1 || hooks[0]["active"] != true {
		t.Errorf("after the refused requests the organization's hooks are %v, want the one hook unchanged", hooks)
	}
}

// TestRoutesIgnoreReadOnlyKeys checks that a hook fetched and sent back
// whole, as go-github's EditHook does, with its read-only keys and keys the
// routes do not know, changes what it changes and nothing else.
func TestRoutesIgnoreReadOnlyKeys(t *testing.T) {
	for _, prefix := range []string{orgHooks, repoHooks} {
		t.Run(prefix, func(t *testing.T) {
			a := newAPI(t)
			created := a.mustDo(t, http.StatusCreated, "POST", prefix, "admin",
				`{"name":"web","events":["issues"],"config":{"url":"`+a.rc.URL+`","content_type":"json","secret":"s3cret"}}`).object(t)
			path := prefix + "/" + itoa(int64(created["id"].(float64)))
			a.hooks.waitRecorded(t, 1)
			fetched := a.mustDo(t, http.StatusOK, "GET", path, "admin", "").object(t)
			fetched["active"] = false
			fetched["id"] = 999999.0
			fetched["url"] = "https://elsewhere.example/hooks/1"
			fetched["created_at"] = "2001-01-01T00:00:00Z"
			fetched["type"] = "Something"
			fetched["ping_url"] = "https://elsewhere.example/pings"
			fetched["last_response"] = map[string]any{"code": 500}
			fetched["a_key_nobody_knows"] = []any{1, 2}
			body, err := json.Marshal(fetched)
			if err != nil {
				t.Fatal(err)
			}
			updated := a.mustDo(t, http.StatusOK, "PATCH", path, "admin", string(body)).object(t)
			checkMembers(t, updated, map[string]any{
				"id":                 created["id"],
				"url":                created["url"],
				"created_at":         created["created_at"],
				"type":               created["type"],
				"ping_url":           created["ping_url"],
				"active":             false,
				"events":             []any{"issues"},
				"config":             created["config"],
				"a_key_nobody_knows": absent,
			})
			a.mustDo(t, http.StatusNoContent, "POST", path+"/pings", "admin", "")
			a.rc.next(t)
			checkSignatures(t, a.rc.next(t), "s3cret", "X-Service-", "X-Service-Signature-256", "X-Service-Signature")
		})
	}
}
