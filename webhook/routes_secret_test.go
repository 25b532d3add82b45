package webhook_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestRoutesSecret checks that a hook's secret is write-only, and which
// changes keep it: the mask sent back keeps it, PATCH .../config keeps what
// it does not give, and a hook's PATCH with a config without a secret
// removes it, as GitHub documents. Each step pings the hook, whose ping
// must be signed with the secret the step leaves, or not at all.
func TestRoutesSecret(t *testing.T) {
	for _, prefix := range []string{orgHooks, repoHooks} {
		t.Run(prefix, func(t *testing.T) {
			a := newAPI(t)
			url := a.rc.URL
			create := `{"name":"web","events":["issues"],"config":{"url":"` + url + `","content_type":"json","secret":"first"}}`
			created := a.mustDo(t, http.StatusCreated, "POST", prefix, "admin", create)
			path := prefix + "/" + itoa(int64(created.object(t)["id"].(float64)))
			a.rc.next(t)
			steps := []struct {
				name, method, suffix, body string
				wantSecret                 string
			}{
				{"the mask sent back", "PATCH", "", `{"config":{"url":"` + url + `","content_type":"json","secret":"********"}}`, "first"},
				{"a config PATCH without a secret", "PATCH", "/config", `{"content_type":"form"}`, "first"},
				{"a config PATCH with a secret", "PATCH", "/config", `{"secret":"second"}`, "second"},
				{"a hook PATCH without a config", "PATCH", "", `{"active":true}`, "second"},
				{"a hook PATCH with a config without a secret", "PATCH", "", `{"config":{"url":"` + url + `"}}`, ""},
				{"a config PATCH that sets a secret again", "PATCH", "/config", `{"secret":"third"}`, "third"},
				{"a config PATCH with an empty secret", "PATCH", "/config", `{"secret":""}`, ""},
			}
			answers := []answer{created}
			for _, step := range steps {
				answers = append(answers, a.mustDo(t, http.StatusOK, step.method, path+step.suffix, "admin", step.body))
				config := a.mustDo(t, http.StatusOK, "GET", path+"/config", "admin", "")
				answers = append(answers, config)
				wantMask := any(absent)
				if step.wantSecret != "" {
					wantMask = "********"
				}
				checkMembers(t, config.object(t), map[string]any{"secret": wantMask, "url": url})
				a.mustDo(t, http.StatusNoContent, "POST", path+"/pings", "admin", "")
				ping := a.rc.next(t)
				ping.path = step.name
				checkSignatures(t, ping, step.wantSecret, "X-Service-", "X-Service-Signature-256", "X-Service-Signature")
			}
			answers = append(answers, a.mustDo(t, http.StatusOK, "GET", prefix, "admin", ""))
			for _, got := range answers {
				for _, secret := range []string{"first", "second", "third"} {
					if strings.Contains(string(got.body), secret) {
						t.Errorf("an answer shows the secret %q: %s", secret, got.body)
					}
				}
			}
		})
	}
}
