package graphql_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/datafile"
	"github.com/issuefields/issuefields/example/graphql"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/webhook"
)

// The demo data's tokens that the tests use.
const (
	writer       = "demo-writer-token"        // writes every repository's issues
	reader       = "demo-reader-token"        // reads hello-world and roadmap
	noPush       = "demo-no-push-token"       // issues write, no push access
	outsider     = "demo-outsider-token"      // sees no private repository
	fieldsReader = "demo-fields-reader-token" // lists octo-org's fields
)

// env is a handler over the demo data with the GraphQL route, and the
// events its writes sent.
type env struct {
	h      http.Handler
	mu     sync.Mutex
	events []issuefields.Event
}

// options change the Configs of a test's handler.
type options struct {
	limits      issuefields.WriteLimits
	rateLimited func(context.Context) (string, bool)
	// data is a data file to serve instead of the demo data.
	data string
}

// newEnv returns a handler over a new store with the demo data.
func newEnv(t testing.TB, opts options) *env {
	t.Helper()
	ctx := context.Background()
	store := memstore.New()
	file := datafile.Demo()
	if opts.data != "" {
		var err error
		if file, err = datafile.Parse([]byte(opts.data)); err != nil {
			t.Fatal(err)
		}
	}
	loaded, err := datafile.Load(ctx, file, store)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{}
	gql := graphql.New(graphql.Config{Store: store, Objects: webhook.Objects{BaseURL: "https://api.example.com", WebURL: "https://example.com"},
		RateLimited: opts.rateLimited})
	limits := opts.limits
	if limits == (issuefields.WriteLimits{}) {
		limits = issuefields.WriteLimits{PerMinute: -1, PerHour: -1}
	}
	h, err := issuefields.New(issuefields.Config{
		Store:       store,
		Verifier:    loaded.Tokens,
		Logger:      slog.New(slog.DiscardHandler),
		WriteLimits: limits,
		Notifier: issuefields.NotifierFunc(func(_ context.Context, ev issuefields.Event) error {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.events = append(e.events, ev)
			return nil
		}),
		Routes: []issuefields.Route{gql.Route()},
	})
	if err != nil {
		t.Fatal(err)
	}
	e.h = h
	return e
}

// answer is an HTTP answer.
type answer struct {
	status int
	header http.Header
	body   string
}

// send sends a request with the token (none for "") to the handler.
func (e *env) send(t *testing.T, method, path, token, body string, header ...string) answer {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	e.h.ServeHTTP(w, r)
	b, _ := io.ReadAll(w.Result().Body)
	return answer{status: w.Code, header: w.Header(), body: string(b)}
}

// query posts a GraphQL document with variables and returns the answer,
// which must be 200.
func (e *env) query(t *testing.T, token, query string, vars map[string]any) string {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	a := e.send(t, http.MethodPost, "/graphql", token, string(body))
	if a.status != http.StatusOK {
		t.Fatalf("POST /graphql: %d %s, want 200", a.status, a.body)
	}
	return strings.TrimSuffix(a.body, "\n")
}

// expect checks that the answer to query is want, a JSON text compared
// after compaction.
func (e *env) expect(t *testing.T, token, query string, vars map[string]any, want string) {
	t.Helper()
	got := e.query(t, token, query, vars)
	if compact(t, got) != compact(t, want) {
		t.Errorf("%s\n got %s\nwant %s", query, got, compact(t, want))
	}
}

// compact returns the JSON text s with its members in order and without
// white space.
func compact(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("not JSON: %v: %s", err, s)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// decode decodes the JSON text s into v.
func decode(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
}
