package server

import (
	"net/http"
	"strings"
	"testing"
)

func TestPageShowsTheStateAndTheRequests(t *testing.T) {
	s := startServer(t, "-webhook", "http://127.0.0.1:1/hook", "-webhook-secret", "hook-s3cret", "-admin-token", "admin-s3cret")
	admin := http.Header{"Authorization": {"Bearer admin-s3cret"}}
	values := s.base + "repos/octo-org/roadmap/issues/2/issue-field-values"
	if status, body := do(t, http.MethodPost, values, "demo-writer-token", `{"issue_field_values": [{"field_id": 4, "value": "Shown <on> the page"}]}`); status != http.StatusOK {
		t.Fatalf("the write = %d %s, want 200", status, body)
	}
	do(t, http.MethodPost, s.base+"orgs/octo-org/hooks", "demo-writer-token",
		`{"name": "web", "config": {"url": "http://127.0.0.1:1/other", "content_type": "json", "secret": "other-s3cret"}}`)

	a := tool(t, "GET", s.base, "", admin)
	if a.status != http.StatusOK || !strings.HasPrefix(a.header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /_issuefields/ = %d %s, want 200 and HTML", a.status, a.header.Get("Content-Type"))
	}
	for _, want := range []string{
		"<h3>octo-org</h3>", "<td>Priority</td><td>single_select</td><td>High, Medium, Low</td>",
		"<h3>octo-org/hello-world</h3>", "<b>Priority</b> High", "<b>Platforms</b> Linux,Windows",
		"<td>#4</td><td><em>deleted</em>", "transferred to octo-org/handbook#8", "<b>Summary</b> Belongs in the handbook",
		"<b>Summary</b> Shown &lt;on&gt; the page",
		"POST /repos/octo-org/roadmap/issues/2/issue-field-values", "octocat", `&#34;secret&#34;:&#34;********&#34;`,
	} {
		if !strings.Contains(a.body, want) {
			t.Errorf("the page does not show %q:\n%s", want, a.body)
		}
	}
	for _, secret := range []string{"-token", "s3cret", "Authorization", "Bearer", "<script"} {
		if strings.Contains(a.body, secret) {
			t.Errorf("the page shows %q:\n%s", secret, a.body)
		}
	}
	if css := tool(t, "GET", s.base, "style.css", admin); css.status != http.StatusOK || !strings.HasPrefix(css.header.Get("Content-Type"), "text/css") {
		t.Errorf("GET /_issuefields/style.css = %d %s, want 200 and CSS", css.status, css.header.Get("Content-Type"))
	}
	if a := tool(t, "GET", s.base, "", nil); a.status != http.StatusUnauthorized {
		t.Errorf("GET /_issuefields/ without the admin token = %d, want 401", a.status)
	}
}
