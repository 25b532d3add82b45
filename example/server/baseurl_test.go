package server

import (
	"net/http"
	"strings"
	"testing"
)

// evilHost is the Host header of the requests of these tests: one that the
// client chose, which must not end up in a URL that the server writes for
// others.
const evilHost = "evil.example"

// TestBaseURLFlags checks that with -base-url and -web-url every absolute URL
// the server writes is under them, whatever the request's Host: the Link and
// Location headers of the API and of the hook routes, the 404 that names
// the API, and the URLs of webhook bodies (html_url under -web-url).
func TestBaseURLFlags(t *testing.T) {
	const api, web = "https://api.example.com/v3", "https://example.com"
	receiver, got := startReceiver(t)
	s := startServer(t, "-prefix", "/api/v3", "-base-url", api+"/", "-web-url", web)

	hook := createHook(t, evilHost, s.base+"orgs/octo-org/hooks", receiver)
	if loc := hook.header.Get("Location"); loc != api+"/orgs/octo-org/hooks/1" {
		t.Errorf("Location of a new hook %q, want %s/orgs/octo-org/hooks/1", loc, api)
	}
	list := sendAs(t, evilHost, http.MethodGet, s.base+"repos/octo-org/hello-world/issues/1/issue-field-values?per_page=2", "demo-reader-token", "")
	if link := list.header.Get("Link"); list.status != http.StatusOK || !strings.HasPrefix(link, "<"+api+"/repos/octo-org/hello-world/issues/1/issue-field-values?") {
		t.Errorf("a list's Link %q (%d), want it under %s", link, list.status, api)
	}
	moved := sendAs(t, evilHost, http.MethodGet, s.base+"repos/octo-org/docs/issues/1/issue-field-values", "demo-reader-token", "")
	if loc := moved.header.Get("Location"); moved.status != http.StatusMovedPermanently || loc != api+"/repos/octo-org/handbook/issues/1/issue-field-values" {
		t.Errorf("a renamed repository's list = %d, Location %q, want 301 to %s/repos/octo-org/handbook/...", moved.status, loc, api)
	}
	outside := sendAs(t, evilHost, http.MethodGet, origin(s.base)+"/nope", "", "")
	if !strings.Contains(outside.body, `"api_url":"`+api+`/"`) {
		t.Errorf("the 404 outside the prefix = %s, want api_url %s/", outside.body, api)
	}

	write := sendAs(t, evilHost, http.MethodPost, s.base+"repos/octo-org/hello-world/issues/3/issue-field-values", "demo-writer-token",
		`{"issue_field_values": [{"field_id": 2, "value": 8}]}`)
	if write.status != http.StatusOK {
		t.Fatalf("POST = %d %s", write.status, write.body)
	}
	d := nextDelivery(t, got, "issues")
	v := d.object(t)
	for _, want := range []struct {
		path []string
		url  string
	}{
		{[]string{"issue", "url"}, api + "/repos/octo-org/hello-world/issues/3"},
		{[]string{"issue", "html_url"}, web + "/octo-org/hello-world/issues/3"},
		{[]string{"repository", "url"}, api + "/repos/octo-org/hello-world"},
		{[]string{"repository", "html_url"}, web + "/octo-org/hello-world"},
		{[]string{"organization", "hooks_url"}, api + "/orgs/octo-org/hooks"},
		{[]string{"sender", "url"}, api + "/users/octocat"},
	} {
		if got := member(v, want.path...); got != want.url {
			t.Errorf("delivery %s = %v, want %s", strings.Join(want.path, "."), got, want.url)
		}
	}
	if body := string(d.body); strings.Contains(body, evilHost) || strings.Contains(body, origin(s.base)) {
		t.Errorf("the delivery names the request's Host or the listening address:\n%s", body)
	}

	waitForDeliveries(t, s.base+"orgs/octo-org/hooks/1/deliveries", 2)
	deliveries := sendAs(t, evilHost, http.MethodGet, s.base+"orgs/octo-org/hooks/1/deliveries?per_page=1", "demo-writer-token", "")
	if link := deliveries.header.Get("Link"); !strings.HasPrefix(link, "<"+api+"/orgs/octo-org/hooks/1/deliveries?") {
		t.Errorf("the deliveries' Link %q (%d %s), want it under %s", link, deliveries.status, deliveries.body, api)
	}
}

// TestDeliveryURLsIgnoreTheHost checks that without -base-url the URLs of
// webhook bodies and of hooks are under the listening address, not under the
// Host that a request names.
func TestDeliveryURLsIgnoreTheHost(t *testing.T) {
	receiver, got := startReceiver(t)
	s := startServer(t)
	hook := createHook(t, evilHost, s.base+"repos/octo-org/hello-world/hooks", receiver)
	if loc := hook.header.Get("Location"); loc != s.base+"repos/octo-org/hello-world/hooks/1" {
		t.Errorf("Location of a new hook %q, want it under %s", loc, s.base)
	}
	write := sendAs(t, evilHost, http.MethodPost, s.base+"repos/octo-org/hello-world/issues/3/issue-field-values", "demo-writer-token",
		`{"issue_field_values": [{"field_id": 2, "value": 8}]}`)
	if write.status != http.StatusOK {
		t.Fatalf("POST = %d %s", write.status, write.body)
	}
	d := nextDelivery(t, got, "issues")
	if got, want := member(d.object(t), "issue", "url"), s.base+"repos/octo-org/hello-world/issues/3"; got != want {
		t.Errorf("delivery issue.url = %v, want %s", got, want)
	}
	if strings.Contains(string(d.body), evilHost) {
		t.Errorf("the delivery names the request's Host:\n%s", d.body)
	}
}

// TestPublicURLs checks the public addresses that the flags give, and what
// they default to.
func TestPublicURLs(t *testing.T) {
	for _, tt := range []struct {
		opts     options
		api, web string
	}{
		{options{}, "http://127.0.0.1:8080", "http://127.0.0.1:8080"},
		{options{prefix: "/api/v3"}, "http://127.0.0.1:8080/api/v3", "http://127.0.0.1:8080"},
		{options{prefix: "/api/v3", baseURL: "https://ghe.example.com/api/v3/"}, "https://ghe.example.com/api/v3", "https://ghe.example.com"},
		{options{baseURL: "https://api.example.com", webURL: "https://example.com/"}, "https://api.example.com", "https://example.com"},
	} {
		got := tt.opts.publicURLs("127.0.0.1:8080")
		if got.api != tt.api || got.web != tt.web {
			t.Errorf("%+v: publicURLs = %+v, want api %s, web %s", tt.opts, got, tt.api, tt.web)
		}
	}
}
