package webhook_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/webhook"
)

// TestHookRoutesAnswerFaultsAsTheValuesRoutes checks that a hook route and a
// values route answer the same faulty request alike, the one pipeline
// deciding: the same status, the same headers but the permissions each
// route needs, and the same body but its documentation_url and the
// permission a 403 names. The values route is that of issue 1 of
// octo-org/hello-world; the hook route octo-org's hooks, or
// octo-org/hello-world's where a case says.
func TestHookRoutesAnswerFaultsAsTheValuesRoutes(t *testing.T) {
	p := newPipeline(t)
	const values = "/repos/octo-org/hello-world/issues/1/issue-field-values"
	items := make([]string, 30)
	for i := range items {
		items[i] = `{"field_id":1,"value":"x"}`
	}
	tests := []struct {
		name   string
		method string
		// valuesPath and hookPath are the paths of the two routes ("" for
		// values and orgHooks).
		valuesPath, hookPath string
		token                string   // "" for admin
		header               []string // name, value pairs
		body                 string
		// slow sends the start of the body, and then nothing, until the
		// answer comes.
		slow bool
		// hold makes the request while another one holds the handler's
		// one place of MaxInFlight.
		hold       bool
		want       int
		wantSays   string
		differsBy  []string // headers that differ on purpose in this case
		hasErrors  bool     // a 422, whose errors[] are each route's own
		wantHeader [2]string
	}{
		{name: "an unsupported version", method: "GET", header: []string{"X-Service-Api-Version", "2020-01-01"},
			want: 400, wantSays: "is not supported"},
		{name: "two different version headers", method: "GET",
			header: []string{"X-Service-Api-Version", "2026-03-10", "X-Service-Api-Version", "2022-11-28"},
			want:   400, wantSays: "with different values"},
		{name: "a malformed Authorization header", method: "POST", token: "ad min", body: "{}", want: 401, wantSays: "Bad credentials"},
		{name: "an unknown token", method: "POST", token: "nobody", body: "{}", want: 401, wantSays: "Bad credentials"},
		{name: "a token without the permission", method: "POST", hookPath: repoHooks, token: "stranger", body: "{}", want: 403,
			wantSays: "Resource not accessible by personal access token"},
		{name: "an overload", method: "GET", hold: true, want: 503, wantSays: "too many requests at once",
			wantHeader: [2]string{"Retry-After", "1"}},
		{name: "a verifier that panics", method: "GET", token: "panic", want: 500, wantSays: "Internal server error"},
		{name: "a store that panics", method: "GET", valuesPath: "/repos/octo-org/panics/issues/1/issue-field-values",
			hookPath: "/repos/octo-org/panics/hooks", want: 500, wantSays: "Internal server error"},
		{name: "a Route whose Serve panics", method: "GET", valuesPath: "/repos/octo-org/panics/issues/1/issue-field-values",
			hookPath: "/panics", want: 500, wantSays: "Internal server error"},
		{name: "a body too large", method: "POST", body: `{"name":"` + strings.Repeat("x", pipelineMaxBody) + `"}`,
			want: 413, wantSays: "larger than 1024 bytes"},
		{name: "a body that is not JSON", method: "POST", body: `{"name":`, want: 400, wantSays: "Problems parsing JSON"},
		{name: "a body that is not an object", method: "POST", body: `[{"name":"web"}]`, want: 400,
			wantSays: "should be a JSON object"},
		{name: "a repeated key", method: "POST", body: `{"config":{"url":"https://a.example/","url":"https://b.example/"}}`,
			want: 400, wantSays: `appears more than once in one object`},
		{name: "a body that is not JSON, sent slowly", method: "POST", body: `{"name": web`, slow: true,
			want: 400, wantSays: "Problems parsing JSON", wantHeader: [2]string{"Connection", "close"}},
		// The values route refuses the 26th item before the body's end,
		// and so closes the connection; a hook's body is checked whole.
		{name: "an invalid body", method: "POST", body: `{"issue_field_values":[` + strings.Join(items, ",") + `]}`,
			want: 422, wantSays: "Validation Failed", differsBy: []string{"Connection"}, hasErrors: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			valuesPath, hookPath := tt.valuesPath, tt.hookPath
			if valuesPath == "" {
				valuesPath = values
			}
			if hookPath == "" {
				hookPath = orgHooks
			}
			token := tt.token
			if token == "" {
				token = "admin"
			}
			send := func(path string) answer {
				if tt.slow {
					return p.sendSlowly(t, tt.method, path, tt.body)
				}
				return p.do(t, tt.method, path, token, tt.body, tt.header...)
			}
			if tt.hold {
				release := p.hold(t)
				defer release()
			}
			fromValues, fromHook := send(valuesPath), send(hookPath)
			for _, a := range []struct {
				route string
				got   answer
			}{{valuesPath, fromValues}, {hookPath, fromHook}} {
				if a.got.status != tt.want || !strings.Contains(string(a.got.body), tt.wantSays) {
					t.Errorf("%s %s: %d %s, want %d saying %q", tt.method, a.route, a.got.status, a.got.body, tt.want, tt.wantSays)
				}
				if name := tt.wantHeader[0]; name != "" && a.got.header.Get(name) != tt.wantHeader[1] {
					t.Errorf("%s %s: %s %q, want %q", tt.method, a.route, name, a.got.header.Get(name), tt.wantHeader[1])
				}
			}
			ignored := append([]string{"Date", "Content-Length", "X-Service-Request-Id", "X-Accepted-Service-Permissions"}, tt.differsBy...)
			if diff := cmp.Diff(fromValues.comparable(t, ignored, tt.hasErrors), fromHook.comparable(t, ignored, tt.hasErrors)); diff != "" {
				t.Errorf("the answers of %s and %s differ (-values +hook):\n%s", valuesPath, hookPath, diff)
			}
		})
	}
}

// pipelineMaxBody is the MaxBodyBytes of the handler of the pipeline test.
const pipelineMaxBody = 1024

// pipeline is a handler that serves the values routes and the hook routes
// over a world whose octo-org has a text field (1) and hello-world an issue
// (1), with MaxInFlight 1 and a small MaxBodyBytes. Its verifier knows the
// tokens of the route tests, and panic, whose verification panics, and
// hold, whose verification waits until the test lets it go. Any request
// for the repository octo-org/panics makes the store panic, and so does GET
// /panics, a Route of the test.
type pipeline struct {
	*api
	held chan chan struct{}
}

// newPipeline starts the pipeline's server, which stops at the end of the
// test.
func newPipeline(t *testing.T) *pipeline {
	t.Helper()
	w := newWorld(t)
	if err := w.data.AddField("octo-org", issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText}); err != nil {
		t.Fatal(err)
	}
	if err := w.data.AddIssue("octo-org", "hello-world", 1); err != nil {
		t.Fatal(err)
	}
	p := &pipeline{api: &api{world: w}, held: make(chan chan struct{})}
	panics := issuefields.Route{Method: "GET", Path: "/panics", Serve: func(*issuefields.Call) error { panic("the route broke") }}
	h := newHandler(t, issuefields.Config{Store: panickingStore{w.data}, Notifier: newNotifier(t, webhook.Options{Store: w.hooks}),
		Verifier: pipelineVerifier{p}, MaxInFlight: 1, MaxBodyBytes: pipelineMaxBody, Routes: []issuefields.Route{panics}})
	p.srv = httptest.NewServer(h)
	t.Cleanup(p.srv.Close)
	return p
}

// panickingStore is a store that panics for the repository octo-org/panics.
type panickingStore struct{ *memstore.Store }

func (s panickingStore) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	if name == "panics" {
		panic("the store broke")
	}
	return s.Store.Snapshot(ctx, owner, name, number)
}

// pipelineVerifier is the verifier of a pipeline.
type pipelineVerifier struct{ p *pipeline }

func (v pipelineVerifier) VerifyToken(ctx context.Context, token string) (*issuefields.Principal, error) {
	switch token {
	case "panic":
		panic("the verifier broke")
	case "hold":
		release := make(chan struct{})
		v.p.held <- release
		<-release
	}
	return verifier{}.VerifyToken(ctx, token)
}

// hold sends a request that holds the handler's one place of MaxInFlight
// until release is called, which waits for its answer.
func (p *pipeline) hold(t *testing.T) (release func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, err := http.NewRequest("GET", p.srv.URL+orgHooks, nil)
		if err != nil {
			return
		}
		req.Header.Set("Authorization", "Bearer hold")
		if resp, err := p.srv.Client().Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	var gate chan struct{}
	select {
	case gate = <-p.held:
	case <-time.After(waitBound):
		t.Fatalf("the request that holds the handler did not reach the verifier within %v", waitBound)
	}
	return func() {
		close(gate)
		select {
		case <-done:
		case <-time.After(waitBound):
			t.Errorf("the request that held the handler had no answer within %v", waitBound)
		}
	}
}

// sendSlowly sends a request with the token admin whose body says it is
// 1,000 bytes long, of which it sends start and then nothing, and returns
// the answer, which it waits for at most waitBound.
func (p *pipeline) sendSlowly(t *testing.T, method, path, start string) answer {
	t.Helper()
	conn, err := net.Dial("tcp", p.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(waitBound)); err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nContent-Length: 1000\r\n\r\n%s", method, path, start); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer before the body's end: %v", err)
	}
	defer resp.Body.Close()
	return answerOf(t, resp)
}

// comparable returns what of a must be the same on every route: its status,
// its headers but ignored, and its body but documentation_url, what follows
// "it needs" in a 403's message, and, when errors is set, errors[]. It fails
// the test if what it leaves out is not there to leave.
func (a answer) comparable(t *testing.T, ignored []string, errors bool) any {
	t.Helper()
	header := a.header.Clone()
	for _, name := range ignored {
		header.Del(name)
	}
	var body map[string]any
	if err := json.Unmarshal(a.body, &body); err != nil {
		t.Fatalf("the answer %q: %v", a.body, err)
	}
	if doc, _ := body["documentation_url"].(string); !strings.HasPrefix(doc, "https://docs.github.com/rest/") {
		t.Errorf("documentation_url %q, want one of GitHub's pages", doc)
	}
	delete(body, "documentation_url")
	if msg, ok := body["message"].(string); ok {
		body["message"], _, _ = strings.Cut(msg, ": it needs ")
	}
	if errors {
		if items, _ := body["errors"].([]any); len(items) == 0 {
			t.Errorf("the 422 %s has no errors", a.body)
		}
		delete(body, "errors")
	}
	return struct {
		Status int
		Header http.Header
		Body   map[string]any
	}{a.status, header, body}
}
