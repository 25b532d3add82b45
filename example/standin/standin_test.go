package standin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/standin"
	"github.com/issuefields/issuefields/webhook"
)

// serve serves a request from remote to the tools of cfg, and returns the
// answer.
func serve(cfg standin.Config, method, path, remote, authorization string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "http://127.0.0.1:8080"+path, nil)
	req.RemoteAddr = remote
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	w := httptest.NewRecorder()
	standin.New(cfg).ServeHTTP(w, req)
	return w
}

func TestOnlyLoopbackWithoutAnAdminToken(t *testing.T) {
	hosts := []string{"127.0.0.1:8080"}
	for _, tc := range []struct {
		name, remote, token, authorization string
		want                               int
	}{
		{"IPv4 loopback", "127.0.0.1:5000", "", "", http.StatusOK},
		{"another IPv4 loopback address", "127.1.2.3:5000", "", "", http.StatusOK},
		{"IPv6 loopback", "[::1]:5000", "", "", http.StatusOK},
		{"another host", "192.0.2.7:5000", "", "", http.StatusNotFound},
		{"another host with the admin token", "192.0.2.7:5000", "let-me-in", "Bearer let-me-in", http.StatusOK},
		{"another host without it", "192.0.2.7:5000", "let-me-in", "", http.StatusUnauthorized},
	} {
		cfg := standin.Config{AdminToken: tc.token, Hosts: hosts}
		if w := serve(cfg, "GET", "/_issuefields/requests", tc.remote, tc.authorization); w.Code != tc.want {
			t.Errorf("%s: GET /_issuefields/requests = %d %s, want %d", tc.name, w.Code, w.Body, tc.want)
		}
	}
}

// record serves each body as a POST through j's Record, with a handler
// that reads the body and answers 201, and returns what j lists.
func record(t *testing.T, j *standin.Journal, query string, bodies ...string) []standin.Request {
	t.Helper()
	h := j.Record(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusCreated)
	}), func(token string) string { return "login-of-" + strings.TrimSuffix(token, "-token") })
	for _, body := range bodies {
		req := httptest.NewRequest("POST", "/orgs/octo-org/hooks?"+query, strings.NewReader(body))
		req.Header.Set("Authorization", "token octocat-token")
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	return j.Requests()
}

func TestRecordMasksSecretsAndKeepsBodiesBounded(t *testing.T) {
	long := `{"text": "` + strings.Repeat("x", 64<<10) + `"}`
	got := record(t, new(standin.Journal), "access_token=abc&page=2",
		`{"config": {"secret": "one", "url": "https://ghp_four@hooks.example/in?token=five"}, "list": [{"SECRET": {"deep": "two"}}], "secret": 3, "URL": "https://six:seven@hooks.example/"}`,
		`{"secret": "three"`,
		long,
	)
	longest, broken, masked := got[0], got[1], got[2]
	if string(masked.Body) != `{"URL":"https://%2A%2A%2A%2A%2A%2A%2A%2A@hooks.example/","config":{"secret":"********","url":"https://%2A%2A%2A%2A%2A%2A%2A%2A@hooks.example/in?token=%2A%2A%2A%2A%2A%2A%2A%2A"},"list":[{"SECRET":"********"}],"secret":"********"}` {
		t.Errorf("recorded body %s, want every secret masked, and the user names, passwords and tokens of URLs", masked.Body)
	}
	if masked.Query != "access_token=%2A%2A%2A%2A%2A%2A%2A%2A&page=2" || masked.Login != "login-of-octocat" || masked.Status != http.StatusCreated {
		t.Errorf("recorded %+v, want the token in the query masked, the caller's login and 201", masked)
	}
	if broken.Body != nil || broken.BodySize != int64(len(`{"secret": "three"`)) {
		t.Errorf("a body that is not JSON was recorded as %s (%d bytes), want only its size", broken.Body, broken.BodySize)
	}
	if longest.Body != nil || longest.BodySize != int64(len(long)) {
		t.Errorf("a body over 64 KiB was recorded as %d bytes of body and size %d, want only its size", len(longest.Body), longest.BodySize)
	}
	b, _ := json.Marshal(got)
	for _, secret := range []string{`"one`, `"two`, `"three`, "ghp_four", "five", "six", "seven", "abc", "octocat-token"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("the recorded requests show %q: %s", secret, b)
		}
	}
}

func TestJournalKeepsTheNewest1000(t *testing.T) {
	j := new(standin.Journal)
	bodies := make([]string, 1001)
	for i := range bodies {
		bodies[i] = strconv.Itoa(i)
	}
	got := record(t, j, "", bodies...)
	if len(got) != 1000 || string(got[0].Body) != "1000" || string(got[999].Body) != "1" {
		t.Errorf("the journal lists %d requests, from %s to %s; want 1000, from 1000 to 1", len(got), got[0].Body, got[len(got)-1].Body)
	}
	j.Clear()
	if got := j.Requests(); len(got) != 0 {
		t.Errorf("after Clear, the journal lists %d requests, want none", len(got))
	}
}

// hooked is a Config whose state has two hooks: one signed, to a URL with a
// password and a token in it, with one delivery whose request was signed and
// whose response is JSON with a secret in it; and one to a URL with a token
// as its user name and another in its query.
func hooked() standin.Config {
	request := standin.Message{
		Header: http.Header{
			"Content-Type":            {"application/json"},
			"X-Service-Delivery":      {"72d3162e-cc78-11e3-81ab-4c9367dc0958"},
			"X-Service-Signature-256": {"sha256=0123abcd"},
			"X-Hub-Signature":         {"sha1=4567ef"},
		},
		Body: []byte(`{"zeta":1,"action":"field_added","issue":{"number":2,"title":"<b>bold</b>"}}`),
	}
	response := standin.Message{
		Header: http.Header{"Content-Type": {"application/json"}, "Set-Cookie": {"session=c00kie"}},
		Body:   []byte(`{"ok":true,"nested":{"secret":"echoed-s3cret"}}`),
	}
	state := standin.State{Hooks: []standin.Hook{{
		ID: 7, Owner: "octo-org", URL: "https://user:pa55word@hooks.example/in?token=t0ken&x=1",
		ContentType: "json", Events: []string{"issues"}, Active: true, Signed: true,
		Deliveries: []standin.Delivery{{ID: 42, GUID: "72d3162e-cc78-11e3-81ab-4c9367dc0958", Event: "issues",
			Action: "field_added", StatusCode: 200, Status: "OK", Request: request, Response: response}},
	}, {
		ID: 8, Owner: "octo-org/hello-world", URL: "https://ghp_t0kenAsUser@hooks.example/in?access_token=t0ken2",
		ContentType: "json", Events: []string{"issues"}, Active: true,
	}}}
	return standin.Config{
		Hosts: []string{"127.0.0.1:8080"},
		State: func(context.Context) (standin.State, error) { return state, nil },
	}
}

// TestPageSaysWhatACutRecordKeeps checks that the page says, of an answer
// whose record left out headers that did not fit, what a record keeps of an
// answer: its headers and body within 80 KiB together, not the first 64 KiB.
func TestPageSaysWhatACutRecordKeeps(t *testing.T) {
	cfg := hooked()
	state, _ := cfg.State(context.Background())
	d := &state.Hooks[0].Deliveries[0]
	d.Response.Header = http.Header{"X-Large": {strings.Repeat("x", 70<<10)}}
	d.Response.Body, d.Response.Truncated = nil, true
	cfg.State = func(context.Context) (standin.State, error) { return state, nil }
	page := serve(cfg, "GET", "/_issuefields/", "127.0.0.1:5000", "").Body.String()
	want := "… (cut: a record keeps at most 64 KiB of a request body, and 80 KiB of the headers and body of an answer together)"
	if !strings.Contains(page, want) {
		t.Errorf("the page does not say %q of a cut answer", want)
	}
}

func TestPageShowsHooksWithoutSecrets(t *testing.T) {
	w := serve(hooked(), "GET", "/_issuefields/", "127.0.0.1:5000", "")
	page := w.Body.String()
	if w.Code != http.StatusOK {
		t.Fatalf("GET /_issuefields/ = %d %s, want 200", w.Code, page)
	}
	for _, want := range []string{
		`<main id="state">`,
		`<section class="hook" id="hook-7">`,
		`<tr class="delivery" id="delivery-42" data-status="200">`,
		`<form method="post" action="/_issuefields/hooks/7/deliveries/42/redeliver"><button type="submit" class="redeliver">Redeliver</button></form>`,
		"https://%2A%2A%2A%2A%2A%2A%2A%2A@hooks.example/in?token=%2A%2A%2A%2A%2A%2A%2A%2A&amp;x=1",
		"https://%2A%2A%2A%2A%2A%2A%2A%2A@hooks.example/in?access_token=%2A%2A%2A%2A%2A%2A%2A%2A",
		"X-Service-Signature-256: ********", "X-Hub-Signature: ********", "Set-Cookie: ********",
		"X-Service-Delivery: 72d3162e-cc78-11e3-81ab-4c9367dc0958",
		// Indented, the members in the order sent, the markup escaped.
		"{\n  &#34;zeta&#34;: 1,\n  &#34;action&#34;: &#34;field_added&#34;,\n  &#34;issue&#34;: {\n    &#34;number&#34;: 2,\n    &#34;title&#34;: &#34;&lt;b&gt;bold&lt;/b&gt;&#34;",
		"&#34;secret&#34;: &#34;********&#34;",
		`<table id="requests">`,
		`<script src="page.js" defer></script>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %q:\n%s", want, page)
		}
	}
	for _, secret := range []string{"user:", "pa55word", "t0ken", "ghp_", "0123abcd", "4567ef", "c00kie", "echoed-s3cret"} {
		if strings.Contains(page, secret) {
			t.Errorf("the page shows %q:\n%s", secret, page)
		}
	}
	csp := w.Header().Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self'", "connect-src 'self'", "form-action 'self'", "default-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q, want %s in it", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(page, "<script>") {
		t.Errorf("the page allows or has an inline script: %q", csp)
	}
	js := serve(hooked(), "GET", "/_issuefields/page.js", "127.0.0.1:5000", "")
	if js.Code != http.StatusOK || !strings.HasPrefix(js.Header().Get("Content-Type"), "text/javascript") ||
		!strings.Contains(js.Body.String(), `new EventSource("events")`) {
		t.Errorf("GET /_issuefields/page.js = %d %s, want 200 and the script", js.Code, js.Header().Get("Content-Type"))
	}
}

func TestRedeliverRoute(t *testing.T) {
	var asked [][2]int64
	var logged bytes.Buffer
	cfg := hooked()
	cfg.Logger = slog.New(slog.NewTextHandler(&logged, nil))
	cfg.Redeliver = func(_ context.Context, hookID, deliveryID int64) error {
		asked = append(asked, [2]int64{hookID, deliveryID})
		switch {
		case hookID != 7:
			return fmt.Errorf("hook %d: %w", hookID, issuefields.ErrNotFound)
		case deliveryID == 43:
			return fmt.Errorf("%w: its payload was cut", standin.ErrNoRedelivery)
		case deliveryID == 44:
			return webhook.ErrClosed
		case deliveryID == 45:
			return errors.New("the store is down")
		case deliveryID != 42:
			return fmt.Errorf("delivery %d: %w", deliveryID, issuefields.ErrNotFound)
		}
		return nil
	}
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{"POST", "hooks/7/deliveries/42/redeliver", http.StatusSeeOther},
		{"POST", "hooks/8/deliveries/42/redeliver", http.StatusNotFound},
		{"POST", "hooks/7/deliveries/41/redeliver", http.StatusNotFound},
		{"POST", "hooks/7/deliveries/43/redeliver", http.StatusUnprocessableEntity},
		{"POST", "hooks/7/deliveries/44/redeliver", http.StatusServiceUnavailable},
		{"POST", "hooks/7/deliveries/45/redeliver", http.StatusInternalServerError},
		{"POST", "hooks/seven/deliveries/42/redeliver", http.StatusNotFound},
		{"GET", "hooks/7/deliveries/42/redeliver", http.StatusMethodNotAllowed},
	} {
		w := serve(cfg, tc.method, "/_issuefields/"+tc.path, "127.0.0.1:5000", "")
		if w.Code != tc.want {
			t.Errorf("%s /_issuefields/%s = %d %s, want %d", tc.method, tc.path, w.Code, w.Body, tc.want)
		}
		if tc.want == http.StatusSeeOther && w.Header().Get("Location") != "/_issuefields/#hook-7" {
			t.Errorf("%s /_issuefields/%s: Location %q, want /_issuefields/#hook-7", tc.method, tc.path, w.Header().Get("Location"))
		}
		if tc.want == http.StatusMethodNotAllowed && w.Header().Get("Allow") != "POST" {
			t.Errorf("%s /_issuefields/%s: Allow %q, want POST", tc.method, tc.path, w.Header().Get("Allow"))
		}
	}
	if want := [][2]int64{{7, 42}, {8, 42}, {7, 41}, {7, 43}, {7, 44}, {7, 45}}; !slices.Equal(asked, want) {
		t.Errorf("Redeliver was asked for %v, want %v", asked, want)
	}
	if got := logged.String(); strings.Count(got, "level=ERROR") != 1 || !strings.Contains(got, "the store is down") {
		t.Errorf("the log has %q, want one error, the 500's, and none for the 503 of a stopping server", got)
	}
	if w := serve(standin.Config{Hosts: cfg.Hosts}, "POST", "/_issuefields/hooks/7/deliveries/42/redeliver", "127.0.0.1:5000", ""); w.Code != http.StatusNotFound {
		t.Errorf("without Redeliver, POST .../redeliver = %d %s, want 404", w.Code, w.Body)
	}
}
