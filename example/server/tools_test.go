package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/issuefields/issuefields/example/datafile"
)

// tool sends a request to the tools of the server at base with the headers
// of header, and returns the answer.
func tool(t *testing.T, method, base, path string, header http.Header) answer {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/_issuefields/" + path
	req, err := http.NewRequest(method, u.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	if host := header.Get("Host"); host != "" {
		req.Host = host
	}
	return do1(t, req)
}

// do1 makes the request req and returns the answer, without following a
// redirect.
func do1(t *testing.T, req *http.Request) answer {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, resp.Header, string(b)}
}

func TestToolsWithoutAdminTokenServeLoopback(t *testing.T) {
	s := startServer(t, "-prefix", "/api/v3")
	host := strings.TrimSuffix(strings.TrimPrefix(s.base, "http://"), "/api/v3/")
	port := portOf(s.base)
	for _, tc := range []struct {
		name, method, path string
		header             http.Header
		want               int
	}{
		{"loopback", "GET", "requests", nil, http.StatusOK},
		{"localhost Host", "GET", "requests", http.Header{"Host": {"localhost:" + port}}, http.StatusOK},
		{"own Origin", "GET", "requests", http.Header{"Origin": {"http://" + host}}, http.StatusOK},
		{"foreign Origin", "GET", "requests", http.Header{"Origin": {"http://evil.example"}}, http.StatusForbidden},
		{"foreign Origin, reset", "POST", "reset", http.Header{"Origin": {"http://evil.example"}}, http.StatusForbidden},
		{"rebinding Host", "GET", "requests", http.Header{"Host": {"evil.example:" + port}}, http.StatusForbidden},
		{"localhost on another port", "GET", "requests", http.Header{"Host": {"localhost:1"}}, http.StatusForbidden},
		{"GET reset", "GET", "reset", nil, http.StatusMethodNotAllowed},
		{"unknown tool", "GET", "nothing", nil, http.StatusNotFound},
	} {
		a := tool(t, tc.method, s.base, tc.path, tc.header)
		if a.status != tc.want {
			t.Errorf("%s: %s /_issuefields/%s = %d %s, want %d", tc.name, tc.method, tc.path, a.status, a.body, tc.want)
		}
		if got := a.header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("%s: Access-Control-Allow-Origin %q, want none on the tools", tc.name, got)
		}
	}
	a := tool(t, "GET", s.base, "reset", nil)
	if a.header.Get("Allow") != "POST" {
		t.Errorf("GET /_issuefields/reset: Allow %q, want POST", a.header.Get("Allow"))
	}
}

func TestToolsWithAdminTokenRequireIt(t *testing.T) {
	for _, how := range []struct {
		name string
		args []string
		env  string
	}{
		{"flag", []string{"-admin-token", "let-me-in"}, ""},
		{"environment", nil, "let-me-in"},
	} {
		t.Run(how.name, func(t *testing.T) {
			t.Setenv(adminTokenEnv, how.env)
			s := startServer(t, how.args...)
			for _, tc := range []struct {
				name          string
				authorization string
				want          int
			}{
				{"no token", "", http.StatusUnauthorized},
				{"Bearer", "Bearer let-me-in", http.StatusOK},
				{"Basic password", "Basic " + basic("anyone", "let-me-in"), http.StatusOK},
				{"wrong Bearer", "Bearer let-me-out", http.StatusUnauthorized},
				{"wrong Basic password", "Basic " + basic("let-me-in", "nope"), http.StatusUnauthorized},
				{"a token of the API", "Bearer demo-writer-token", http.StatusUnauthorized},
			} {
				header := http.Header{}
				if tc.authorization != "" {
					header.Set("Authorization", tc.authorization)
				}
				a := tool(t, "GET", s.base, "requests", header)
				if a.status != tc.want {
					t.Errorf("%s: GET /_issuefields/requests = %d %s, want %d", tc.name, a.status, a.body, tc.want)
				}
				if tc.want == http.StatusUnauthorized && !strings.HasPrefix(a.header.Get("WWW-Authenticate"), "Basic ") {
					t.Errorf("%s: WWW-Authenticate %q, want a Basic challenge, so that a browser asks", tc.name, a.header.Get("WWW-Authenticate"))
				}
			}
		})
	}
}

// basic returns the credentials of HTTP Basic authentication for user and
// password.
func basic(user, password string) string {
	req, _ := http.NewRequest("GET", "http://127.0.0.1/", nil)
	req.SetBasicAuth(user, password)
	return strings.TrimPrefix(req.Header.Get("Authorization"), "Basic ")
}

// recorded is a recorded request as GET /_issuefields/requests lists it.
type recorded struct {
	Method   string          `json:"method"`
	Path     string          `json:"path"`
	Query    string          `json:"query"`
	Status   int             `json:"status"`
	Login    string          `json:"login"`
	Body     json.RawMessage `json:"body"`
	BodySize int64           `json:"body_size"`
}

// requests returns the requests that the server at base recorded, and the
// body that listed them.
func requests(t *testing.T, base string) ([]recorded, string) {
	t.Helper()
	a := tool(t, "GET", base, "requests", nil)
	var list []recorded
	if err := json.Unmarshal([]byte(a.body), &list); a.status != http.StatusOK || err != nil {
		t.Fatalf("GET /_issuefields/requests = %d %s (%v), want 200 and a list", a.status, a.body, err)
	}
	return list, a.body
}

func TestRecordedRequests(t *testing.T) {
	s := startServer(t, "-prefix", "/api/v3")
	values := s.base + "repos/octo-org/hello-world/issues/2/issue-field-values"
	do(t, http.MethodGet, values+"?per_page=1", "demo-reader-token", "")
	do(t, http.MethodPost, values, "demo-writer-token", `{"issue_field_values": [{"field_id": 4, "value": "Dark"}]}`)
	do(t, http.MethodPost, s.base+"orgs/octo-org/hooks", "demo-writer-token",
		`{"name": "web", "config": {"url": "http://127.0.0.1:1/hook", "content_type": "json", "secret": "hook-s3cret"}, "other": [{"Secret": "nested-s3cret"}]}`)
	do(t, http.MethodGet, s.base+"nowhere", "", "")

	list, body := requests(t, s.base)
	if len(list) != 4 {
		t.Fatalf("recorded %d requests, want 4: %s", len(list), body)
	}
	nowhere, hook, write, read := list[0], list[1], list[2], list[3]
	if read.Method != "GET" || read.Path != "/api/v3/repos/octo-org/hello-world/issues/2/issue-field-values" ||
		read.Query != "per_page=1" || read.Status != http.StatusOK || read.Login != "reader" || read.Body != nil {
		t.Errorf("the read, oldest, was recorded as %+v", read)
	}
	if write.Method != "POST" || write.Status != http.StatusOK || write.Login != "octocat" ||
		!strings.Contains(string(write.Body), `"value":"Dark"`) {
		t.Errorf("the write was recorded as %+v %s, want POST 200 by octocat with its body", write, write.Body)
	}
	if hook.Status != http.StatusCreated || !strings.Contains(string(hook.Body), `"secret":"********"`) ||
		!strings.Contains(string(hook.Body), `"Secret":"********"`) {
		t.Errorf("the hook's creation was recorded as %+v %s, want 201 with its secrets masked", hook, hook.Body)
	}
	if nowhere.Path != "/api/v3/nowhere" || nowhere.Status != http.StatusNotFound || nowhere.Login != "" {
		t.Errorf("the request outside the API was recorded as %+v, want its path and 404", nowhere)
	}
	for _, secret := range []string{"s3cret", "-token", "Bearer", "Authorization"} {
		if strings.Contains(body, secret) {
			t.Errorf("the recorded requests show %q: %s", secret, body)
		}
	}

	if a := tool(t, "DELETE", s.base, "requests", nil); a.status != http.StatusNoContent {
		t.Errorf("DELETE /_issuefields/requests = %d %s, want 204", a.status, a.body)
	}
	if list, body := requests(t, s.base); len(list) != 0 {
		t.Errorf("after DELETE, the recorded requests are %s, want none", body)
	}
}

func TestResetRestoresTheStartUpState(t *testing.T) {
	receiver, _ := startReceiver(t)
	s := startServer(t, "-webhook", receiver, "-webhook-secret", "s3cret", "-write-limit", "1")
	values := s.base + "repos/octo-org/hello-world/issues/2/issue-field-values"
	before := send(t, http.MethodGet, values, "demo-reader-token", "")
	etag := before.header.Get("ETag")
	if status, body := do(t, http.MethodPost, values, "demo-writer-token", `{"issue_field_values": [{"field_id": 1, "value": "High"}]}`); status != http.StatusOK {
		t.Fatalf("the write = %d %s, want 200", status, body)
	}
	hooks := listHooks(t, s.base+"orgs/octo-org/hooks")
	deliveries := s.base + "orgs/octo-org/hooks/" + strconv.FormatInt(hooks[0].ID, 10) + "/deliveries"
	waitForDeliveries(t, deliveries, 1)
	if status, body := do(t, http.MethodDelete, s.base+"orgs/octo-org/hooks/"+strconv.FormatInt(hooks[0].ID, 10), "demo-writer-token", ""); status != http.StatusNoContent {
		t.Fatalf("deleting the hook = %d %s, want 204", status, body)
	}
	if status, _ := do(t, http.MethodPost, values, "demo-writer-token", `{"issue_field_values": []}`); status != http.StatusUnprocessableEntity {
		t.Fatalf("a second write within -write-limit 1 = %d, want 422", status)
	}

	if a := tool(t, "POST", s.base, "reset", nil); a.status != http.StatusNoContent {
		t.Fatalf("POST /_issuefields/reset = %d %s, want 204", a.status, a.body)
	}
	if list, body := requests(t, s.base); len(list) != 0 {
		t.Errorf("after the reset, the recorded requests are %s, want none", body)
	}
	after := send(t, http.MethodGet, values, "demo-reader-token", "")
	if after.status != http.StatusOK || after.body != before.body {
		t.Errorf("after the reset, GET = %d %s, want the values of the start: %s", after.status, after.body, before.body)
	}
	req, _ := http.NewRequest(http.MethodGet, values, nil)
	req.Header.Set("Authorization", "Bearer demo-reader-token")
	req.Header.Set("If-None-Match", etag)
	if a := do1(t, req); a.status != http.StatusOK || a.header.Get("ETag") == etag {
		t.Errorf("after the reset, GET with the ETag from before = %d with ETag %s, want 200 and a new ETag", a.status, a.header.Get("ETag"))
	}
	if hooks := listHooks(t, s.base+"orgs/octo-org/hooks"); len(hooks) != 1 || hooks[0].Config.URL != receiver {
		t.Errorf("after the reset, octo-org's hooks are %+v, want the -webhook hook again", hooks)
	} else if list := waitForDeliveries(t, s.base+"orgs/octo-org/hooks/"+strconv.FormatInt(hooks[0].ID, 10)+"/deliveries", 0); len(list) != 0 {
		t.Errorf("after the reset, the hook lists deliveries %v, want none", list)
	}
	if status, body := do(t, http.MethodPost, values, "demo-writer-token", `{"issue_field_values": []}`); status != http.StatusOK {
		t.Errorf("a write after the reset = %d %s, want 200: the write limit starts afresh", status, body)
	}
}

// unemptiable is a store that the command opens without Empty and Reload.
type unemptiable struct{ datafile.Store }

func TestResetIsRefusedForAStoreTheCommandCannotEmpty(t *testing.T) {
	store := newFakeStore(true)
	s := startCommand(t, Command{Open: func(context.Context, *slog.Logger) (Store, func(), error) {
		return Store{Data: unemptiable{store}, Hooks: store.Hooks()}, func() {}, nil
	}})
	a := tool(t, "POST", s.base, "reset", nil)
	if a.status != http.StatusNotImplemented || !strings.Contains(jsonObject(t, a)["message"].(string), "reset is not available for this store") {
		t.Errorf("POST /_issuefields/reset = %d %s, want 501 saying that reset is not available", a.status, a.body)
	}
}

// countedEmpty is a store whose Empty counts its calls.
type countedEmpty struct {
	*fakeStore
	emptied atomic.Int32
}

func (s *countedEmpty) Empty(ctx context.Context) error {
	s.emptied.Add(1)
	return s.fakeStore.Empty(ctx)
}

func TestResetEmptiesAStoreTheCommandOpens(t *testing.T) {
	store := &countedEmpty{fakeStore: newFakeStore(true)}
	s := startCommand(t, opening(store, nil))
	values := s.base + "repos/octo-org/hello-world/issues/2/issue-field-values"
	before := send(t, http.MethodGet, values, "demo-reader-token", "")
	if status, body := do(t, http.MethodPost, values, "demo-writer-token", `{"issue_field_values": [{"field_id": 1, "value": "High"}]}`); status != http.StatusOK {
		t.Fatalf("the write = %d %s, want 200", status, body)
	}
	if a := tool(t, "POST", s.base, "reset", nil); a.status != http.StatusNoContent || store.emptied.Load() != 1 {
		t.Fatalf("POST /_issuefields/reset = %d %s, having called Empty %d times; want 204, once", a.status, a.body, store.emptied.Load())
	}
	if after := send(t, http.MethodGet, values, "demo-reader-token", ""); after.body != before.body {
		t.Errorf("after the reset, GET = %d %s, want the values of the start: %s", after.status, after.body, before.body)
	}
}

// openEvents opens the page's event stream of the server at base, with
// ctx, and returns its lines once it has said that it is connected.
func openEvents(ctx context.Context, t *testing.T, base string) *bufio.Scanner {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, origin(base)+"/_issuefields/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET /_issuefields/events = %d %s, want 200 and an event stream", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	lines := bufio.NewScanner(resp.Body)
	if !scanTo(lines, ": connected") {
		t.Fatalf("the event stream did not say that it is connected: %v", lines.Err())
	}
	return lines
}

// scanTo reads lines until one is line, and reports whether one was before
// the stream ended.
func scanTo(lines *bufio.Scanner, line string) bool {
	for lines.Scan() {
		if lines.Text() == line {
			return true
		}
	}
	return false
}

// TestEventsSayChangeAndDoNotHoldTheStop checks that the page's event stream
// says "change" after a write to the API and after a webhook delivery, that
// it outlasts -read-timeout, and that a graceful stop ends it rather than
// waiting for it.
func TestEventsSayChangeAndDoNotHoldTheStop(t *testing.T) {
	receiver, got := startReceiver(t)
	s := startServer(t, "-read-timeout", "100ms", "-webhook", receiver, "-webhook-secret", "s3cret")
	ctx, cancel := context.WithTimeout(context.Background(), deliveryBound)
	defer cancel()
	lines := openEvents(ctx, t, s.base)
	time.Sleep(300 * time.Millisecond) // longer than -read-timeout, which the stream must outlast

	values := s.base + "repos/octo-org/hello-world/issues/2/issue-field-values"
	if status, body := do(t, http.MethodPost, values, "demo-writer-token", `{"issue_field_values": [{"field_id": 4, "value": "Live"}]}`); status != http.StatusOK {
		t.Fatalf("the write = %d %s, want 200", status, body)
	}
	if !scanTo(lines, "event: change") {
		t.Fatalf("no change event after a write: %v", lines.Err())
	}

	// A redelivery through the tools, which are not recorded requests: the
	// change that a second stream sees is the delivery's record.
	nextDelivery(t, got, "issues")
	hooks := listHooks(t, s.base+"orgs/octo-org/hooks")
	list := waitForDeliveries(t, s.base+"orgs/octo-org/hooks/"+strconv.FormatInt(hooks[0].ID, 10)+"/deliveries", 1)
	second := openEvents(ctx, t, s.base)
	if r := redeliver(t, s.base, hooks[0].ID, int64(list[0]["id"].(float64)), nil); r.status != http.StatusSeeOther {
		t.Fatalf("POST .../redeliver = %d %s, want 303", r.status, r.body)
	}
	if !scanTo(second, "event: change") {
		t.Fatalf("no change event after a delivery: %v", second.Err())
	}

	if err := s.stop(); err != nil {
		t.Errorf("the graceful stop with event streams open: %v, want none", err)
	}
	for lines.Scan() {
	}
	if ctx.Err() != nil {
		t.Errorf("the event stream outlived the stop")
	}
}

func TestToolsOff(t *testing.T) {
	s := startServer(t, "-tools=false")
	values := s.base + "repos/octo-org/hello-world/issues/2/issue-field-values"
	if status, body := do(t, http.MethodPost, values, "demo-writer-token", `{"issue_field_values": [{"field_id": 4, "value": "Unrecorded"}]}`); status != http.StatusOK {
		t.Fatalf("the write = %d %s, want 200", status, body)
	}
	unknown := send(t, http.MethodGet, origin(s.base)+"/no-such-path/", "", "")
	for _, tc := range []struct{ method, path string }{
		{"GET", ""}, {"GET", "requests"}, {"GET", "events"}, {"POST", "reset"}, {"GET", "style.css"},
		{"POST", "hooks/1/deliveries/1/redeliver"},
	} {
		a := tool(t, tc.method, s.base, tc.path, nil)
		if a.status != http.StatusNotFound || a.body != unknown.body {
			t.Errorf("-tools=false: %s /_issuefields/%s = %d %s, want the 404 of an unknown path: %s", tc.method, tc.path, a.status, a.body, unknown.body)
		}
	}
	if after := send(t, http.MethodGet, values, "demo-reader-token", ""); !strings.Contains(after.body, "Unrecorded") {
		t.Errorf("-tools=false: GET after the write = %s, want the value written, as the tools change nothing of the API", after.body)
	}
}
