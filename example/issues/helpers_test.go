package issues_test

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
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/issues"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/webhook"
)

// The tokens of the test world.
const (
	writer   = "writer"   // issues=write and push in every repository
	noPush   = "no-push"  // issues=write without push
	reader   = "reader"   // issues=read everywhere
	outsider = "outsider" // sees no private repository
	classic  = "classic"  // a classic PAT, a kind the API refuses
)

// world is a server of the issue routes over a memstore: octo-org, whose
// fields are Priority (single_select, 1: High 11, Low 12), Estimate
// (number, 2), Summary (text, 3) and Platforms (multi_select, 4: Linux 41,
// macOS 42); its repositories hello-world (public: #1 with values, #2
// closed with a label) and secret (private: #1); and octocat/spoon-knife,
// owned by a user (#1).
type world struct {
	store  *memstore.Store
	server *httptest.Server
	// events are the Events the handler sent.
	mu     sync.Mutex
	events []issuefields.Event
}

// newWorld starts the server of a new world.
func newWorld(t *testing.T) *world {
	t.Helper()
	s := memstore.New()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.AddOrganization("octo-org"))
	for _, f := range []issuefields.Field{
		{ID: 1, Name: "Priority", DataType: issuefields.DataTypeSingleSelect, Options: []issuefields.FieldOption{
			{ID: 11, Name: "High", Color: "red"}, {ID: 12, Name: "Low", Color: "green"}}},
		{ID: 2, Name: "Estimate", DataType: issuefields.DataTypeNumber},
		{ID: 3, Name: "Summary", DataType: issuefields.DataTypeText},
		{ID: 4, Name: "Platforms", DataType: issuefields.DataTypeMultiSelect, Options: []issuefields.FieldOption{
			{ID: 41, Name: "Linux", Color: "blue"}, {ID: 42, Name: "macOS", Color: "gray"}}},
	} {
		must(s.AddField("octo-org", f))
	}
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, r := range []struct {
		owner, name string
		private     bool
		issues      []issuefields.Issue
	}{
		{"octo-org", "hello-world", false, []issuefields.Issue{
			{Number: 1, Title: "Crash on save", Body: "It crashes.", State: "open", Author: "octocat", CreatedAt: created,
				UpdatedAt: created, Values: []issuefields.Value{{FieldID: 1, OptionIDs: []int64{11}}, {FieldID: 2, Number: 3}}},
			{Number: 2, Title: "Slow start-up", State: "closed", StateReason: "completed", Labels: []string{"bug"},
				Author: "hubot", CreatedAt: created.Add(time.Hour), UpdatedAt: created.Add(2 * time.Hour),
				ClosedAt: created.Add(2 * time.Hour)},
		}},
		{"octo-org", "secret", true, []issuefields.Issue{{Number: 1, Title: "Secret plan", State: "open",
			CreatedAt: created, UpdatedAt: created}}},
		{"octocat", "spoon-knife", false, []issuefields.Issue{{Number: 1, Title: "Fork me", State: "open",
			CreatedAt: created, UpdatedAt: created}}},
	} {
		_, err := s.AddRepository(r.owner, r.name, r.private)
		must(err)
		for _, is := range r.issues {
			must(s.AddIssue(r.owner, r.name, is.Number))
			must(s.SetIssue(r.owner, r.name, is))
		}
	}
	w := &world{store: s}
	var h *issuefields.Handler
	w.server = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { h.ServeHTTP(rw, r) }))
	t.Cleanup(w.server.Close)
	routes, err := issues.Routes(issues.Config{Store: s,
		Objects: webhook.Objects{BaseURL: w.server.URL, WebURL: "https://github.example"}})
	must(err)
	h, err = issuefields.New(issuefields.Config{Store: s, Verifier: issuefields.TokenVerifierFunc(verify),
		BaseURL: w.server.URL, Routes: routes, Vendor: "GitHub", Logger: slog.New(slog.DiscardHandler),
		Notifier: issuefields.NotifierFunc(func(_ context.Context, e issuefields.Event) error {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.events = append(w.events, e)
			return nil
		})})
	must(err)
	return w
}

// verify is the verifier of the world's tokens.
func verify(_ context.Context, token string) (*issuefields.Principal, error) {
	kind := issuefields.FineGrainedPersonalAccessToken
	var perms issuefields.RepositoryPermissions
	switch token {
	case writer:
		perms = issuefields.RepositoryPermissions{Visible: true, Issues: issuefields.PermissionWrite, Push: true}
	case noPush:
		perms = issuefields.RepositoryPermissions{Visible: true, Issues: issuefields.PermissionWrite}
	case reader:
		perms = issuefields.RepositoryPermissions{Visible: true, Issues: issuefields.PermissionRead}
	case outsider:
	case classic:
		kind = issuefields.ClassicPersonalAccessToken
	default:
		return nil, issuefields.ErrBadCredentials
	}
	return &issuefields.Principal{Kind: kind, Login: token + "-user",
		Permissions: func(context.Context, issuefields.Repository) (issuefields.RepositoryPermissions, error) {
			return perms, nil
		}}, nil
}

// answer is an answer of the server.
type answer struct {
	status int
	header http.Header
	body   string
}

// decode decodes the answer's body into v, failing the test when it is
// not JSON of v's shape.
func (a answer) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(a.body), v); err != nil {
		t.Fatalf("answer %d %s: %v", a.status, a.body, err)
	}
}

// do sends method to path (with its query) with token ("" for none), body
// ("" for none) and the headers of extra, in pairs, and returns the answer.
func (w *world) do(t *testing.T, method, path, token, body string, extra ...string) answer {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, w.server.URL+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(extra); i += 2 {
		req.Header.Set(extra[i], extra[i+1])
	}
	client := *w.server.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// issue reads the issue number of owner/name from the store.
func (w *world) issue(t *testing.T, owner, name string, number int64) issuefields.Issue {
	t.Helper()
	snap, err := w.store.Snapshot(context.Background(), owner, name, number)
	if err != nil || snap.IssueErr != nil {
		t.Fatalf("reading %s/%s#%d: %v %v", owner, name, number, err, snap.IssueErr)
	}
	return snap.Issue
}

// issueObject is what the tests read of an issue object.
type issueObject struct {
	ID            int64                    `json:"id"`
	NodeID        string                   `json:"node_id"`
	URL           string                   `json:"url"`
	RepositoryURL string                   `json:"repository_url"`
	Number        int64                    `json:"number"`
	Title         string                   `json:"title"`
	Body          *string                  `json:"body"`
	State         string                   `json:"state"`
	StateReason   *string                  `json:"state_reason"`
	ClosedAt      *string                  `json:"closed_at"`
	User          struct{ Login string }   `json:"user"`
	Labels        []struct{ Name string }  `json:"labels"`
	Assignees     []struct{ Login string } `json:"assignees"`
	FieldValues   json.RawMessage          `json:"issue_field_values"`
}
