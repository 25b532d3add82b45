package webhook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/webhook"
)

// waitBound bounds every wait of the tests for something that happens on
// another goroutine; a test that reaches it fails and says what it waited
// for.
const waitBound = 10 * time.Second

// world is a store with the accounts and repositories of the tests:
// the organizations octo-org and other-org, the user octocat, and their
// repositories, and the store's hooks.
type world struct {
	data  *memstore.Store
	hooks *recordingStore
	// helloWorld is octo-org/hello-world (public), secretPlans
	// octo-org/secret-plans (private), tools other-org/tools, and
	// spoonKnife octocat/spoon-knife, owned by a user.
	helloWorld, secretPlans, tools, spoonKnife issuefields.Repository
}

// newWorld returns a world with an empty set of hooks.
func newWorld(t *testing.T) *world {
	t.Helper()
	s := memstore.New()
	for _, org := range []string{"octo-org", "other-org"} {
		if err := s.AddOrganization(org); err != nil {
			t.Fatal(err)
		}
	}
	w := &world{data: s, hooks: &recordingStore{memHooks: s.Hooks(), recorded: make(chan webhook.Delivery, 4096)}}
	for _, r := range []struct {
		into        *issuefields.Repository
		owner, name string
		private     bool
	}{
		{&w.helloWorld, "octo-org", "hello-world", false},
		{&w.secretPlans, "octo-org", "secret-plans", true},
		{&w.tools, "other-org", "tools", false},
		{&w.spoonKnife, "octocat", "spoon-knife", false},
	} {
		repo, err := s.AddRepository(r.owner, r.name, r.private)
		if err != nil {
			t.Fatal(err)
		}
		*r.into = repo
	}
	return w
}

// memHooks is memstore's Hooks, under a name that the stores of the tests
// embed it by: a field named Hooks would hide the method.
type memHooks = memstore.Hooks

// recordingStore is a memstore.Hooks that sends every delivery it records on
// recorded, so that a test waits for a delivery's record without polling.
type recordingStore struct {
	*memHooks
	recorded chan webhook.Delivery
}

func (s *recordingStore) AddDelivery(ctx context.Context, d webhook.Delivery) (webhook.Delivery, error) {
	d, err := s.memHooks.AddDelivery(ctx, d)
	if err == nil && d.ID != 0 {
		s.recorded <- d
	}
	return d, err
}

// waitRecorded returns the next n deliveries that s records, in the order
// recorded, or fails the test when they do not come within waitBound.
func (s *recordingStore) waitRecorded(t *testing.T, n int) []webhook.Delivery {
	t.Helper()
	timeout := time.After(waitBound)
	var out []webhook.Delivery
	for len(out) < n {
		select {
		case d := <-s.recorded:
			out = append(out, d)
		case <-timeout:
			t.Fatalf("after %v, %d of the %d deliveries awaited were recorded", waitBound, len(out), n)
		}
	}
	return out
}

// addHook stores a hook of scope that delivers to url: active, for the
// issues event, as JSON, without a secret, unless change says otherwise.
func (w *world) addHook(t *testing.T, scope webhook.Scope, url string, change ...func(*webhook.Hook)) webhook.Hook {
	t.Helper()
	now := time.Now().UTC().Truncate(time.Second)
	h := webhook.Hook{Scope: scope, Active: true, Events: []string{webhook.EventName},
		Config: webhook.Config{URL: url, ContentType: "json", InsecureSSL: "0"}, CreatedAt: now, UpdatedAt: now}
	for _, c := range change {
		c(&h)
	}
	h, err := w.hooks.CreateHook(context.Background(), h, webhook.MaxHooks)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// orgScope and repoScope are the scopes of an organization's and a
// repository's hooks.
func orgScope(login string) webhook.Scope { return webhook.Scope{Organization: login} }
func repoScope(repo issuefields.Repository) webhook.Scope {
	return webhook.Scope{RepositoryID: repo.ID}
}

// request is one delivery as a receiver got it.
type request struct {
	path   string
	header http.Header
	body   []byte
}

// payload returns the JSON document that r carried, as its body or, for a
// form, as its payload field.
func (r request) payload(t *testing.T) map[string]any {
	t.Helper()
	if r.header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		return object(t, r.body)
	}
	form, err := url.ParseQuery(string(r.body))
	if err != nil {
		t.Fatalf("decoding the form %.200q: %v", r.body, err)
	}
	return object(t, []byte(form.Get("payload")))
}

// receiver is an HTTP server that hooks deliver to. It sends every request
// it gets on got, then answers it with its answer.
type receiver struct {
	*httptest.Server
	got chan request
}

// newReceiver starts a receiver that answers with answer, or with 200 "ok"
// when answer is nil. A request whose body does not come whole is not
// kept. The receiver stops at the end of the test.
func newReceiver(t *testing.T, answer http.HandlerFunc) *receiver {
	t.Helper()
	if answer == nil {
		answer = func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") }
	}
	rc := &receiver{got: make(chan request, 1024)}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return // the sender gave up, at the end of a test
		}
		rc.got <- request{path: r.URL.Path, header: r.Header.Clone(), body: body}
		answer(w, r)
	}))
	t.Cleanup(rc.Close)
	return rc
}

// newHangingReceiver starts a receiver that answers nothing until the end of
// the test, or until the sender gives up.
func newHangingReceiver(t *testing.T) *receiver {
	t.Helper()
	release := make(chan struct{})
	rc := newReceiver(t, func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	t.Cleanup(func() { close(release) })
	return rc
}

// next returns the next request that rc gets, or fails the test when none
// comes within waitBound.
func (rc *receiver) next(t *testing.T) request {
	t.Helper()
	select {
	case r := <-rc.got:
		return r
	case <-time.After(waitBound):
		t.Fatalf("the receiver got no delivery within %v", waitBound)
		return request{}
	}
}

// received returns the requests that rc got and that no call took yet. Call
// it once every delivery was made: after the Notifier's Close.
func (rc *receiver) received() []request {
	var out []request
	for {
		select {
		case r := <-rc.got:
			out = append(out, r)
		default:
			return out
		}
	}
}

// newNotifier returns a Notifier of opts that logs nothing unless
// opts.Logger says otherwise. At the end of the test it is closed, giving up
// at once on what it has not sent.
func newNotifier(t *testing.T, opts webhook.Options) *webhook.Notifier {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	n, err := webhook.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_ = n.Close(ctx)
	})
	return n
}

// closeNotifier closes n, waiting at most waitBound for what it has queued,
// and fails the test if that is not enough.
func closeNotifier(t *testing.T, n *webhook.Notifier) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitBound)
	defer cancel()
	if err := n.Close(ctx); err != nil {
		t.Fatalf("Close: %v; the deliveries were not done within %v", err, waitBound)
	}
}

// notify gives e to n, and fails the test if Notify returns an error.
func notify(t *testing.T, n *webhook.Notifier, e issuefields.Event) {
	t.Helper()
	if err := n.Notify(context.Background(), e); err != nil {
		t.Fatalf("Notify: %v", err)
	}
}

// eventTime is the time of the test events.
var eventTime = time.Date(2026, 3, 10, 12, 30, 45, 0, time.UTC)

// octocat is the writer of most test events.
var octocat = &issuefields.Principal{Login: "octocat", Kind: issuefields.FineGrainedPersonalAccessToken}

// newEvent returns the event of a write by actor that made changes to issue
// number of repo, whose ID is issueID(repo, number), and whose record says
// nothing else.
func newEvent(repo issuefields.Repository, number int64, actor *issuefields.Principal, changes ...issuefields.FieldChange) issuefields.Event {
	return issuefields.Event{ID: "event-" + repo.Name, Action: issuefields.ActionSet, Time: eventTime,
		Issue: issuefields.Issue{Repository: repo, Number: number, ID: issueID(repo, number)}, Actor: actor, Changes: changes}
}

// issueID is the ID of the test events' issue number of repo.
func issueID(repo issuefields.Repository, number int64) int64 { return repo.ID*1000 + number }

// The fields of the test events, one of each data type.
var (
	notesField    = issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText}
	estimateField = issuefields.Field{ID: 2, Name: "Estimate", DataType: issuefields.DataTypeNumber}
	dueField      = issuefields.Field{ID: 3, Name: "Due", DataType: issuefields.DataTypeDate}
	priorityField = issuefields.Field{ID: 4, Name: "Priority", DataType: issuefields.DataTypeSingleSelect,
		Options: []issuefields.FieldOption{
			{ID: 11, Name: "High", Color: "red"},
			{ID: 12, Name: "Medium", Color: "yellow", Description: "Within the month"},
			{ID: 13, Name: "Low", Color: "green"},
		}}
	areasField = issuefields.Field{ID: 5, Name: "Areas", DataType: issuefields.DataTypeMultiSelect,
		Options: []issuefields.FieldOption{
			{ID: 21, Name: "API", Color: "blue"},
			{ID: 22, Name: "Docs", Color: "gray", Description: "The manuals"},
			{ID: 23, Name: "UI", Color: "pink"},
		}}
)

// setNotes is a change that gives the Notes field its first value.
func setNotes(text string) issuefields.FieldChange {
	return issuefields.FieldChange{Field: notesField, After: &issuefields.Value{FieldID: notesField.ID, Text: text}}
}

// object decodes data, a JSON object, or fails the test.
func object(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("decoding %.200q: %v", data, err)
	}
	return m
}

// member returns the member of v at the path of keys, or nil.
func member(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// itoa returns n in decimal.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// logRecorder keeps the lines of a logger, which several goroutines may
// write at once.
type logRecorder struct {
	mu    sync.Mutex
	lines []map[string]any
}

// newLogRecorder returns a logRecorder and a logger, at every level, that
// writes to it.
func newLogRecorder() (*logRecorder, *slog.Logger) {
	l := &logRecorder{}
	return l, slog.New(slog.NewJSONHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// Write keeps p, one line of JSON.
func (l *logRecorder) Write(p []byte) (int, error) {
	var line map[string]any
	if err := json.Unmarshal(p, &line); err != nil {
		return 0, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
	return len(p), nil
}

// withMessage returns the lines whose message is msg.
func (l *logRecorder) withMessage(msg string) []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, line := range l.lines {
		if line["msg"] == msg {
			out = append(out, line)
		}
	}
	return out
}

// brief returns the deliveries ds in brief, for a failure message.
func brief(ds ...webhook.Delivery) string {
	var parts []string
	for _, d := range ds {
		parts = append(parts, fmt.Sprintf("{hook %d: %s %s, GUID %s, status %q, code %d, redelivery %v, to %s}",
			d.HookID, d.Event, d.Action, d.GUID, d.Status, d.StatusCode, d.Redelivery, d.URL))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// absentMember is the type of absent, the want of a member that a body
// must not have.
type absentMember struct{}

var absent absentMember

// checkMembers checks the members of body that want names by their dotted
// paths, in which a number is an index of an array.
func checkMembers(t *testing.T, body map[string]any, want map[string]any) {
	t.Helper()
	for path, w := range want {
		var got any = body
		found := true
		for _, k := range strings.Split(path, ".") {
			if a, ok := got.([]any); ok {
				i, err := strconv.Atoi(k)
				if found = err == nil && i >= 0 && i < len(a); !found {
					break
				}
				got = a[i]
				continue
			}
			m, ok := got.(map[string]any)
			if !ok {
				found = false
				break
			}
			got, found = m[k]
			if !found {
				break
			}
		}
		switch {
		case w == absent && found:
			t.Errorf("%s is %v, want it absent", path, got)
		case w == absent:
		case !found:
			t.Errorf("%s is absent, want %v", path, w)
		case !cmp.Equal(w, got):
			t.Errorf("%s is %#v, want %#v", path, got, w)
		}
	}
}

// directory is a Directory of fixed answers.
type directory struct {
	repo     webhook.RepositoryDetails
	accounts map[string]webhook.AccountDetails
}

func (d *directory) Repository(issuefields.Repository) webhook.RepositoryDetails { return d.repo }

func (d *directory) Account(login string) webhook.AccountDetails { return d.accounts[login] }
