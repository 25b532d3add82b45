package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
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
	for _, secret := range []string{"-token", "s3cret", "Authorization", "Bearer"} {
		if strings.Contains(a.body, secret) {
			t.Errorf("the page shows %q:\n%s", secret, a.body)
		}
	}
	if scripts := strings.Count(a.body, "<script"); scripts != 1 || !strings.Contains(a.body, `<script src="page.js" defer></script>`) {
		t.Errorf("the page has %d scripts, want only its own page.js:\n%s", scripts, a.body)
	}
	if css := tool(t, "GET", s.base, "style.css", admin); css.status != http.StatusOK || !strings.HasPrefix(css.header.Get("Content-Type"), "text/css") {
		t.Errorf("GET /_issuefields/style.css = %d %s, want 200 and CSS", css.status, css.header.Get("Content-Type"))
	}
	if a := tool(t, "GET", s.base, "", nil); a.status != http.StatusUnauthorized {
		t.Errorf("GET /_issuefields/ without the admin token = %d, want 401", a.status)
	}
}

// redeliver posts to the page's redeliver route of hook hookID's delivery
// deliveryID, as the page's button does, with header, and returns the
// answer.
func redeliver(t *testing.T, base string, hookID, deliveryID any, header http.Header) answer {
	t.Helper()
	return tool(t, http.MethodPost, base, fmt.Sprintf("hooks/%v/deliveries/%v/redeliver", hookID, deliveryID), header)
}

func TestPageShowsHooksAndRedeliversTheirDeliveries(t *testing.T) {
	receiver, got := startReceiver(t)
	s := startServer(t, "-admin-token", "admin-s3cret")
	admin := http.Header{"Authorization": {"Bearer admin-s3cret"}}
	created := send(t, http.MethodPost, s.base+"repos/octo-org/hello-world/hooks", "demo-writer-token",
		`{"name": "web", "events": ["issues"], "config": {"url": "`+receiver+`", "content_type": "json", "secret": "hook-s3cret"}}`)
	var hook listedHook
	if err := json.Unmarshal([]byte(created.body), &hook); created.status != http.StatusCreated || err != nil {
		t.Fatalf("creating the hook = %d %s, want 201", created.status, created.body)
	}
	values := s.base + "repos/octo-org/hello-world/issues/2/issue-field-values"
	if status, body := do(t, http.MethodPost, values, "demo-writer-token", `{"issue_field_values": [{"field_id": 4, "value": "Sent"}]}`); status != http.StatusOK {
		t.Fatalf("the write = %d %s, want 200", status, body)
	}
	sent := nextDelivery(t, got, "issues")
	deliveries := fmt.Sprintf("%srepos/octo-org/hello-world/hooks/%d/deliveries", s.base, hook.ID)
	var issues map[string]any
	for _, d := range waitForDeliveries(t, deliveries, 2) {
		if d["event"] == "issues" {
			issues = d
		}
	}
	if issues == nil {
		t.Fatalf("the hook lists no issues delivery")
	}
	deliveryID := int64(issues["id"].(float64))

	a := tool(t, "GET", s.base, "", admin)
	for _, want := range []string{
		fmt.Sprintf(`<section class="hook" id="hook-%d">`, hook.ID),
		"Hook " + strconv.FormatInt(hook.ID, 10) + " of octo-org/hello-world",
		receiver + "</code>, json, events issues, signed",
		fmt.Sprintf(`<tr class="delivery" id="delivery-%d" data-status="204">`, deliveryID),
		"issues.field_added", "ping",
		"X-Service-Signature-256: ********",
		"X-Service-Delivery: " + sent.header.Get("X-Service-Delivery"),
		"\n  &#34;action&#34;: &#34;field_added&#34;,\n",
		fmt.Sprintf(`<form method="post" action="/_issuefields/hooks/%d/deliveries/%d/redeliver"><button type="submit" class="redeliver">Redeliver</button></form>`, hook.ID, deliveryID),
		`<tr class="issue" id="issue-octo-org-hello-world-2">`,
	} {
		if !strings.Contains(a.body, want) {
			t.Errorf("the page does not show %q:\n%s", want, a.body)
		}
	}
	for _, secret := range []string{"hook-s3cret", "admin-s3cret", "-token", sent.header.Get("X-Service-Signature-256"), "sha256=", "sha1="} {
		if strings.Contains(a.body, secret) {
			t.Errorf("the page shows %q:\n%s", secret, a.body)
		}
	}

	ownOrigin := http.Header{"Authorization": admin["Authorization"], "Origin": {origin(s.base)}}
	r := redeliver(t, s.base, hook.ID, deliveryID, ownOrigin)
	if want := fmt.Sprintf("/_issuefields/#hook-%d", hook.ID); r.status != http.StatusSeeOther || r.header.Get("Location") != want {
		t.Fatalf("POST .../redeliver from the page = %d %s (Location %q), want 303 to %s", r.status, r.body, r.header.Get("Location"), want)
	}
	again := nextDelivery(t, got, "issues")
	if again.header.Get("X-Service-Delivery") != sent.header.Get("X-Service-Delivery") || string(again.body) != string(sent.body) {
		t.Errorf("the redelivery has GUID %s and body %s, want the delivery's: %s and %s",
			again.header.Get("X-Service-Delivery"), again.body, sent.header.Get("X-Service-Delivery"), sent.body)
	}
	waitForDeliveries(t, deliveries, 3)
	if a := tool(t, "GET", s.base, "", admin); !strings.Contains(a.body, "<em>redelivery</em>") {
		t.Errorf("the page does not show the redelivery:\n%s", a.body)
	}

	for _, tc := range []struct {
		name               string
		hookID, deliveryID any
		header             http.Header
		want               int
	}{
		{"unknown hook", hook.ID + 100, deliveryID, admin, http.StatusNotFound},
		{"unknown delivery", hook.ID, deliveryID + 100, admin, http.StatusNotFound},
		{"not a number", "first", deliveryID, admin, http.StatusNotFound},
		{"without the admin token", hook.ID, deliveryID, nil, http.StatusUnauthorized},
		{"from another site", hook.ID, deliveryID, http.Header{"Authorization": admin["Authorization"], "Origin": {"http://evil.example"}}, http.StatusForbidden},
	} {
		if r := redeliver(t, s.base, tc.hookID, tc.deliveryID, tc.header); r.status != tc.want {
			t.Errorf("%s: POST .../redeliver = %d %s, want %d", tc.name, r.status, r.body, tc.want)
		}
	}
	path := fmt.Sprintf("hooks/%d/deliveries/%d/redeliver", hook.ID, deliveryID)
	if a := tool(t, "GET", s.base, path, admin); a.status != http.StatusMethodNotAllowed || a.header.Get("Allow") != "POST" {
		t.Errorf("GET /_issuefields/%s = %d (Allow %q), want 405 with Allow POST", path, a.status, a.header.Get("Allow"))
	}
}
