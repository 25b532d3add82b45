package webhook_test

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
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

var testSecret = []byte("a-shared-secret-for-tests")

// Fields of the test events.
var (
	notesField    = issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText}
	priorityField = issuefields.Field{ID: 2, Name: "Priority", DataType: issuefields.DataTypeSingleSelect, Options: []issuefields.FieldOption{
		{ID: 11, Name: "High", Color: "red"}, {ID: 12, Name: "Medium", Color: "yellow"}, {ID: 13, Name: "Low", Color: "green"}}}
	estimateField = issuefields.Field{ID: 3, Name: "Estimate", DataType: issuefields.DataTypeNumber}
)

// testActor is the writer of the test events.
var testActor = &issuefields.Principal{Login: "octocat", Kind: issuefields.FineGrainedPersonalAccessToken}

// testEvent returns an event with the given id that sets one text field.
func testEvent(id string) issuefields.Event {
	return issuefields.Event{
		ID:     id,
		Action: issuefields.ActionSet,
		Time:   time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC),
		Issue: issuefields.Issue{Number: 1347,
			Repository: issuefields.Repository{ID: 1296269, Owner: "octo-org", Name: "hello-world", OwnedByOrganization: true}},
		Actor: testActor,
		Changes: []issuefields.FieldChange{{
			Field: notesField,
			After: &issuefields.Value{FieldID: 1, Text: "needs triage"},
		}},
	}
}

// received is one request as a receiver saw it.
type received struct {
	header http.Header
	body   []byte
}

// receiver is an httptest server that records every request and answers
// with the status that answer returns for the request's 1-based number.
type receiver struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []received
}

func newReceiver(t *testing.T, answer func(n int) int) *receiver {
	t.Helper()
	rc := &receiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("receiver: reading body: %v", err)
		}
		rc.mu.Lock()
		rc.reqs = append(rc.reqs, received{header: r.Header.Clone(), body: body})
		n := len(rc.reqs)
		rc.mu.Unlock()
		w.WriteHeader(answer(n))
	}))
	t.Cleanup(rc.Close)
	return rc
}

// requests returns the requests received so far.
func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.reqs...)
}

// always answers every request with status.
func always(status int) func(int) int { return func(int) int { return status } }

// sleeps records the waits between attempts and returns at once.
type sleeps struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) recorded() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// newNotifier returns a Notifier for url with a quiet logger, the test secret
// and waits recorded by s, which Close closes at the end of the test.
func newNotifier(t *testing.T, url string, opts webhook.Options, s *sleeps) *webhook.Notifier {
	t.Helper()
	if opts.Secret == nil {
		opts.Secret = testSecret
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if s == nil {
		s = new(sleeps)
	}
	n, err := webhook.NewWithSleep(url, opts, s.sleep)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { _ = n.Close(context.Background()) })
	return n
}

// closeNotifier closes n, waiting for the queue to be delivered.
func closeNotifier(t *testing.T, n *webhook.Notifier) {
	t.Helper()
	if err := n.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

func TestNewRefusesBadOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		url  string
		opts webhook.Options
		want string // in the error
	}{
		{"relative URL", "/hooks", webhook.Options{Secret: testSecret}, "not an absolute http or https URL"},
		{"no host", "https:///hooks", webhook.Options{Secret: testSecret}, "not an absolute http or https URL"},
		{"other scheme", "ftp://example.com/hooks", webhook.Options{Secret: testSecret}, "not an absolute http or https URL"},
		{"unparsable URL", "http://example.com:port/", webhook.Options{Secret: testSecret}, "does not parse"},
		{"no secret", "https://example.com/hooks", webhook.Options{}, "Options.Secret is empty"},
		{"bad vendor", "https://example.com/hooks", webhook.Options{Secret: testSecret, Vendor: "X-Co"}, "Options.Vendor"},
		{"negative queue", "https://example.com/hooks", webhook.Options{Secret: testSecret, QueueSize: -1}, "Options.QueueSize is negative"},
		{"negative workers", "https://example.com/hooks", webhook.Options{Secret: testSecret, Workers: -1}, "Options.Workers is negative"},
		{"negative attempts", "https://example.com/hooks", webhook.Options{Secret: testSecret, MaxAttempts: -1}, "Options.MaxAttempts is negative"},
		{"negative timeout", "https://example.com/hooks", webhook.Options{Secret: testSecret, Timeout: -1}, "Options.Timeout is negative"},
		{"max below base", "https://example.com/hooks", webhook.Options{Secret: testSecret, BackoffBase: time.Minute}, "less than Options.BackoffBase"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := webhook.New(tc.url, tc.opts)
			if err == nil {
				_ = n.Close(context.Background())
				t.Fatalf("New(%q) succeeded, want an error containing %q", tc.url, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New(%q) error = %q, want it to contain %q", tc.url, err, tc.want)
			}
		})
	}
}

func TestNewErrorHidesURLPassword(t *testing.T) {
	for _, url := range []string{
		"ftp://user:hunter2@example.com/hooks",
		"http://user:hunter2@example.com:port/hooks",
	} {
		_, err := webhook.New(url, webhook.Options{Secret: testSecret})
		if err == nil {
			t.Fatalf("New(%q) succeeded, want an error", url)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("New(%q) error = %q, which shows the password", url, err)
		}
	}
}

// guidPattern is the form of a delivery id: a version 4 UUID.
var guidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestDeliveryHeaders(t *testing.T) {
	for _, tc := range []struct {
		vendor                                string
		event, delivery, signature, userAgent string
	}{
		{"", "X-Service-Event", "X-Service-Delivery", "X-Service-Signature-256", "Service-Hookshot/1"},
		{"GitHub", "X-GitHub-Event", "X-GitHub-Delivery", "X-Hub-Signature-256", "GitHub-Hookshot/1"},
		{"Acme", "X-Acme-Event", "X-Acme-Delivery", "X-Acme-Signature-256", "Acme-Hookshot/1"},
	} {
		t.Run("vendor="+tc.vendor, func(t *testing.T) {
			rc := newReceiver(t, always(http.StatusNoContent))
			n := newNotifier(t, rc.URL, webhook.Options{Vendor: tc.vendor}, nil)
			if err := n.Notify(context.Background(), threeChanges); err != nil {
				t.Fatalf("Notify: %v", err)
			}
			closeNotifier(t, n)

			reqs := rc.requests()
			if len(reqs) != 3 {
				t.Fatalf("receiver got %d requests, want 3, one per changed field", len(reqs))
			}
			ids := map[string]bool{}
			for i, r := range reqs {
				for name, want := range map[string]string{
					"Content-Type": "application/json",
					"User-Agent":   tc.userAgent,
					tc.event:       "issues",
				} {
					if got := r.header.Get(name); got != want {
						t.Errorf("delivery %d: header %s = %q, want %q", i, name, got, want)
					}
				}
				id := r.header.Get(tc.delivery)
				if !guidPattern.MatchString(id) {
					t.Errorf("delivery %d: header %s = %q, want a random GUID", i, tc.delivery, id)
				}
				ids[id] = true
				signature := r.header.Get(tc.signature)
				if !webhook.Verify(testSecret, r.body, signature) {
					t.Errorf("delivery %d: Verify(secret, body, %s %q) = false, want true", i, tc.signature, signature)
				}
				if webhook.Verify([]byte("another-secret"), r.body, signature) {
					t.Errorf("delivery %d: Verify(wrong secret, body, %q) = true, want false", i, signature)
				}
			}
			if len(ids) != len(reqs) {
				t.Errorf("%d distinct delivery ids for %d deliveries, want one each", len(ids), len(reqs))
			}
			if diff := cmp.Diff(webhook.Stats{Delivered: 3}, n.Stats()); diff != "" {
				t.Errorf("Stats differ (-want +got):\n%s", diff)
			}
		})
	}
}

// threeChanges is an event of a PUT that gave a field its first value,
// changed another and removed a third.
var threeChanges = issuefields.Event{
	ID:     "evt-3",
	Action: issuefields.ActionSet,
	Time:   time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC),
	Issue: issuefields.Issue{Number: 7,
		Repository: issuefields.Repository{ID: 1296269, Owner: "octo-org", Name: "roadmap", Private: true, OwnedByOrganization: true}},
	Actor: testActor,
	Changes: []issuefields.FieldChange{
		{Field: notesField, After: &issuefields.Value{FieldID: 1, Text: "needs triage"}},
		{Field: priorityField, Before: &issuefields.Value{FieldID: 2, OptionIDs: []int64{11}}, After: &issuefields.Value{FieldID: 2, OptionIDs: []int64{13}}},
		{Field: estimateField, Before: &issuefields.Value{FieldID: 3, Number: 5}},
	},
}

// TestDeliveryBodies checks the body of each delivery of threeChanges
// against GitHub's issues event for issue fields: a field_added without
// changes for the new value, a field_added with the value before for the
// changed one, and a field_removed with the removed value.
func TestDeliveryBodies(t *testing.T) {
	issue := threeChanges.Issue
	id := func(field int64) string { return strconv.FormatInt(webhook.ValueID(issue, field), 10) }
	common := `
		"issue": {"number": 7, "url": "https://api.example.com/api/v3/repos/octo-org/roadmap/issues/7"},
		"repository": {"id": 1296269, "name": "roadmap", "full_name": "octo-org/roadmap", "private": true, "owner": {"login": "octo-org"}},
		"organization": {"login": "octo-org"},
		"sender": {"login": "octocat"}`
	want := []string{`{
		"action": "field_added",
		"issue_field": {"id": 1, "name": "Notes", "field_type": "text"},
		"issue_field_value": {"id": ` + id(1) + `, "value": "needs triage"},
		` + common + `}`, `{
		"action": "field_added",
		"changes": {"issue_field_value": {"from": {"id": ` + id(2) + `, "value_id": 11, "option": {"id": 11, "name": "High", "color": "red", "description": null}}}},
		"issue_field": {"id": 2, "name": "Priority", "field_type": "single_select"},
		"issue_field_value": {"id": ` + id(2) + `, "value_id": 13, "option": {"id": 13, "name": "Low", "color": "green", "description": null}},
		` + common + `}`, `{
		"action": "field_removed",
		"issue_field": {"id": 3, "name": "Estimate", "field_type": "number"},
		"issue_field_value": {"id": ` + id(3) + `, "value": 5},
		` + common + `}`}

	rc := newReceiver(t, always(http.StatusOK))
	n := newNotifier(t, rc.URL, webhook.Options{Workers: 1, BaseURL: "https://api.example.com/api/v3/"}, nil)
	if err := n.Notify(context.Background(), threeChanges); err != nil {
		t.Fatalf("Notify: %v", err)
	}
	closeNotifier(t, n)
	reqs := rc.requests()
	if len(reqs) != len(want) {
		t.Fatalf("receiver got %d requests, want %d", len(reqs), len(want))
	}
	for i, r := range reqs {
		var got, wantBody any
		if err := json.Unmarshal(r.body, &got); err != nil {
			t.Fatalf("delivery %d: body is not JSON: %v\n%s", i, err, r.body)
		}
		if err := json.Unmarshal([]byte(want[i]), &wantBody); err != nil {
			t.Fatalf("want %d: %v", i, err)
		}
		if diff := cmp.Diff(wantBody, got); diff != "" {
			t.Errorf("delivery %d body differs (-want +got):\n%s", i, diff)
		}
	}
}

func TestEventWithoutChangesSendsNothing(t *testing.T) {
	rc := newReceiver(t, always(http.StatusOK))
	n := newNotifier(t, rc.URL, webhook.Options{}, nil)
	e := testEvent("evt-1")
	e.Changes = nil
	if err := n.Notify(context.Background(), e); err != nil {
		t.Fatalf("Notify: %v", err)
	}
	closeNotifier(t, n)
	if got := len(rc.requests()); got != 0 {
		t.Errorf("receiver got %d requests, want 0", got)
	}
	if diff := cmp.Diff(webhook.Stats{}, n.Stats()); diff != "" {
		t.Errorf("Stats differ (-want +got):\n%s", diff)
	}
}

func TestRetriedUntilAccepted(t *testing.T) {
	const failures = 3
	rc := newReceiver(t, func(n int) int {
		if n <= failures {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	})
	s := new(sleeps)
	opts := webhook.Options{BackoffBase: time.Second, BackoffMax: 3 * time.Second}
	n := newNotifier(t, rc.URL, opts, s)
	if err := n.Notify(context.Background(), testEvent("evt-1")); err != nil {
		t.Fatalf("Notify: %v", err)
	}
	closeNotifier(t, n)

	reqs := rc.requests()
	if len(reqs) != failures+1 {
		t.Fatalf("receiver got %d requests, want %d", len(reqs), failures+1)
	}
	id := reqs[0].header.Get("X-Service-Delivery")
	for i, r := range reqs {
		if got := r.header.Get("X-Service-Delivery"); got != id {
			t.Errorf("attempt %d: delivery id %q, want %q as on the first attempt", i+1, got, id)
		}
		if !bytes.Equal(r.body, reqs[0].body) {
			t.Errorf("attempt %d: body differs from the first attempt's", i+1)
		}
	}
	if diff := cmp.Diff(webhook.Stats{Delivered: 1}, n.Stats()); diff != "" {
		t.Errorf("Stats differ (-want +got):\n%s", diff)
	}
	// The waits double from BackoffBase up to BackoffMax, with jitter
	// taking up to half of each.
	waits := s.recorded()
	full := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}
	if len(waits) != len(full) {
		t.Fatalf("waited %v, want %d waits", waits, len(full))
	}
	for i, w := range waits {
		if w < full[i]/2 || w > full[i] {
			t.Errorf("wait %d = %v, want between %v and %v", i+1, w, full[i]/2, full[i])
		}
	}
}

func TestFailedAfterMaxAttempts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
	}{
		{"server error", http.StatusInternalServerError},
		{"client error", http.StatusNotFound},
		{"redirect", http.StatusFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc := newReceiver(t, func(int) int { return tc.status })
			s := new(sleeps)
			n := newNotifier(t, rc.URL, webhook.Options{MaxAttempts: 3}, s)
			if err := n.Notify(context.Background(), testEvent("evt-1")); err != nil {
				t.Fatalf("Notify: %v", err)
			}
			closeNotifier(t, n)
			if got := len(rc.requests()); got != 3 {
				t.Errorf("receiver got %d requests, want 3", got)
			}
			if got := len(s.recorded()); got != 2 {
				t.Errorf("waited %d times, want 2", got)
			}
			if diff := cmp.Diff(webhook.Stats{Failed: 1}, n.Stats()); diff != "" {
				t.Errorf("Stats differ (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRedirectIsNotFollowed(t *testing.T) {
	target := newReceiver(t, always(http.StatusOK))
	rc := httptest.NewServer(http.RedirectHandler(target.URL, http.StatusTemporaryRedirect))
	t.Cleanup(rc.Close)
	n := newNotifier(t, rc.URL, webhook.Options{MaxAttempts: 2}, nil)
	if err := n.Notify(context.Background(), testEvent("evt-1")); err != nil {
		t.Fatalf("Notify: %v", err)
	}
	closeNotifier(t, n)
	if got := len(target.requests()); got != 0 {
		t.Errorf("the redirect's target got %d requests, want 0", got)
	}
	if diff := cmp.Diff(webhook.Stats{Failed: 1}, n.Stats()); diff != "" {
		t.Errorf("Stats differ (-want +got):\n%s", diff)
	}
}

func TestUnreachableReceiverFails(t *testing.T) {
	rc := httptest.NewServer(http.NotFoundHandler())
	url := rc.URL
	rc.Close() // nothing listens at url now
	s := new(sleeps)
	n := newNotifier(t, url, webhook.Options{MaxAttempts: 2}, s)
	if err := n.Notify(context.Background(), testEvent("evt-1")); err != nil {
		t.Fatalf("Notify: %v", err)
	}
	closeNotifier(t, n)
	if diff := cmp.Diff(webhook.Stats{Failed: 1}, n.Stats()); diff != "" {
		t.Errorf("Stats differ (-want +got):\n%s", diff)
	}
	if got := len(s.recorded()); got != 1 {
		t.Errorf("waited %d times, want 1", got)
	}
}

// blockingReceiver is a receiver whose handler tells arrived of each request
// and answers 200 only once the test closes release.
type blockingReceiver struct {
	*httptest.Server
	arrived chan string // the delivery id of each request
	release chan struct{}
	unblock func() // closes release; safe to call more than once
}

func newBlockingReceiver(t *testing.T) *blockingReceiver {
	t.Helper()
	b := &blockingReceiver{arrived: make(chan string, 100), release: make(chan struct{})}
	b.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.arrived <- r.Header.Get("X-Service-Delivery")
		select {
		case <-b.release:
		case <-r.Context().Done():
		}
	}))
	// Cleanups run last first: the handlers are released before the server
	// waits for them.
	t.Cleanup(b.Close)
	var once sync.Once
	b.unblock = func() { once.Do(func() { close(b.release) }) }
	t.Cleanup(b.unblock)
	return b
}

func TestSlowReceiverDoesNotBlockNotify(t *testing.T) {
	rc := newBlockingReceiver(t)
	var logs bytes.Buffer
	opts := webhook.Options{
		Workers:   1,
		QueueSize: 2,
		Logger:    slog.New(slog.NewTextHandler(&logs, nil)),
	}
	n := newNotifier(t, rc.URL, opts, nil)
	ctx := context.Background()

	// The only worker takes the first event and waits for the receiver.
	if err := n.Notify(ctx, testEvent("evt-1")); err != nil {
		t.Fatalf("Notify(evt-1): %v", err)
	}
	<-rc.arrived
	// The next two fill the queue; the one after is dropped. None waits.
	for _, id := range []string{"evt-2", "evt-3"} {
		if err := n.Notify(ctx, testEvent(id)); err != nil {
			t.Fatalf("Notify(%s): %v", id, err)
		}
	}
	if q := n.Queued(); q != 2 {
		t.Errorf("Queued() with a full queue of 2 = %d, want 2", q)
	}
	err := n.Notify(ctx, testEvent("evt-4"))
	if !errors.Is(err, webhook.ErrQueueFull) {
		t.Fatalf("Notify(evt-4) with a full queue = %v, want ErrQueueFull", err)
	}
	if !strings.Contains(err.Error(), "evt-4") {
		t.Errorf("Notify(evt-4) = %q, which does not name the event", err)
	}
	if got := n.Stats().Dropped; got != 1 {
		t.Errorf("Stats().Dropped = %d, want 1", got)
	}
	// The caller logs the error (the handler does, once); the notifier
	// does not log the drop a second time.
	if strings.Contains(logs.String(), "evt-4") {
		t.Errorf("the notifier logged the drop it returned as an error; logs:\n%s", logs.String())
	}

	rc.unblock()
	closeNotifier(t, n)
	if diff := cmp.Diff(webhook.Stats{Delivered: 3, Dropped: 1}, n.Stats()); diff != "" {
		t.Errorf("Stats differ (-want +got):\n%s", diff)
	}
	if q := n.Queued(); q != 0 {
		t.Errorf("Queued() after Close = %d, want 0", q)
	}
}

func TestCloseDeliversQueue(t *testing.T) {
	// Every event fails its first attempt, so that draining includes retries.
	var mu sync.Mutex
	seen := map[string]int{}
	var got []string
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p struct {
			Issue struct{ Number int64 } `json:"issue"`
		}
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
			t.Errorf("receiver: %v", err)
		}
		issue := fmt.Sprintf("issue-%02d", p.Issue.Number)
		mu.Lock()
		defer mu.Unlock()
		seen[issue]++
		if seen[issue] == 1 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		got = append(got, issue)
	}))
	t.Cleanup(rc.Close)
	n := newNotifier(t, rc.URL, webhook.Options{Workers: 3}, nil)

	var want []string
	for i := range 50 {
		e := testEvent(fmt.Sprintf("evt-%02d", i))
		e.Issue.Number = int64(i)
		want = append(want, fmt.Sprintf("issue-%02d", i))
		if err := n.Notify(context.Background(), e); err != nil {
			t.Fatalf("Notify(%s): %v", e.ID, err)
		}
	}
	closeNotifier(t, n)

	mu.Lock()
	defer mu.Unlock()
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("delivered events differ (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(webhook.Stats{Delivered: 50}, n.Stats()); diff != "" {
		t.Errorf("Stats differ (-want +got):\n%s", diff)
	}
}

func TestCloseWithEndedContextAbandons(t *testing.T) {
	rc := newBlockingReceiver(t)
	n := newNotifier(t, rc.URL, webhook.Options{Workers: 1}, nil)
	for _, id := range []string{"evt-1", "evt-2", "evt-3"} {
		if err := n.Notify(context.Background(), testEvent(id)); err != nil {
			t.Fatalf("Notify(%s): %v", id, err)
		}
	}
	<-rc.arrived // the first is under way and will never be answered

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := n.Close(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Close(ended context) = %v, want context.Canceled", err)
	}
	if diff := cmp.Diff(webhook.Stats{Abandoned: 3}, n.Stats()); diff != "" {
		t.Errorf("Stats differ (-want +got):\n%s", diff)
	}
	if err := n.Close(context.Background()); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
}

func TestCloseWithEndedContextStopsBackoff(t *testing.T) {
	rc := newReceiver(t, always(http.StatusInternalServerError))
	waiting := make(chan struct{})
	// The wait between attempts lasts until its context ends.
	sleep := func(ctx context.Context, d time.Duration) error {
		close(waiting)
		<-ctx.Done()
		return ctx.Err()
	}
	n, err := webhook.NewWithSleep(rc.URL, webhook.Options{
		Secret: testSecret,
		Logger: slog.New(slog.DiscardHandler),
	}, sleep)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if err := n.Notify(context.Background(), testEvent("evt-1")); err != nil {
		t.Fatalf("Notify: %v", err)
	}
	<-waiting

	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	if err := n.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close(expired context) = %v, want context.DeadlineExceeded", err)
	}
	if diff := cmp.Diff(webhook.Stats{Abandoned: 1}, n.Stats()); diff != "" {
		t.Errorf("Stats differ (-want +got):\n%s", diff)
	}
}

func TestNotifyAfterClose(t *testing.T) {
	rc := newReceiver(t, always(http.StatusOK))
	n := newNotifier(t, rc.URL, webhook.Options{}, nil)
	closeNotifier(t, n)
	closeNotifier(t, n) // a second Close is harmless
	if err := n.Notify(context.Background(), testEvent("evt-1")); !errors.Is(err, webhook.ErrClosed) {
		t.Errorf("Notify after Close = %v, want ErrClosed", err)
	}
	if got := len(rc.requests()); got != 0 {
		t.Errorf("receiver got %d requests, want 0", got)
	}
}

func TestNotifyConcurrentWithClose(t *testing.T) {
	rc := newReceiver(t, always(http.StatusOK))
	n := newNotifier(t, rc.URL, webhook.Options{QueueSize: 20}, nil)

	const goroutines, each = 8, 50
	var accepted, full, closed sync.Map
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				id := fmt.Sprintf("evt-%d-%d", g, i)
				switch err := n.Notify(context.Background(), testEvent(id)); {
				case err == nil:
					accepted.Store(id, true)
				case errors.Is(err, webhook.ErrQueueFull):
					full.Store(id, true)
				case errors.Is(err, webhook.ErrClosed):
					closed.Store(id, true)
				default:
					t.Errorf("Notify(%s) = %v", id, err)
				}
			}
		}()
	}
	closeNotifier(t, n)
	wg.Wait()

	count := func(m *sync.Map) (k uint64) {
		m.Range(func(any, any) bool { k++; return true })
		return k
	}
	if total := count(&accepted) + count(&full) + count(&closed); total != goroutines*each {
		t.Fatalf("%d Notify calls answered, want %d", total, goroutines*each)
	}
	want := webhook.Stats{Delivered: count(&accepted), Dropped: count(&full)}
	if diff := cmp.Diff(want, n.Stats()); diff != "" {
		t.Errorf("Stats differ (-want +got):\n%s", diff)
	}
	if got := uint64(len(rc.requests())); got != want.Delivered {
		t.Errorf("receiver got %d requests, want %d", got, want.Delivered)
	}
}

func TestLogsHideSecrets(t *testing.T) {
	const password = "hunter2"
	refusing := newReceiver(t, always(http.StatusForbidden))
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close() // nothing listens at its URL now
	for _, tc := range []struct {
		name, url, want string
	}{
		{"refused", refusing.URL, "403"},
		{"unreachable", gone.URL, "connect"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := strings.Replace(tc.url, "http://", "http://hook:"+password+"@", 1)
			var logs bytes.Buffer
			opts := webhook.Options{
				MaxAttempts: 2,
				QueueSize:   1,
				Workers:     1,
				Logger:      slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
			}
			n := newNotifier(t, url, opts, nil)
			e := testEvent("evt-1")
			if err := n.Notify(context.Background(), e); err != nil {
				t.Fatalf("Notify: %v", err)
			}
			closeNotifier(t, n)

			out := logs.String()
			for _, leak := range []string{string(testSecret), password, "sha256="} {
				if strings.Contains(out, leak) {
					t.Errorf("logs show %q:\n%s", leak, out)
				}
			}
			for _, want := range []string{"evt-1", "issues", "field_added", tc.want} {
				if !strings.Contains(out, want) {
					t.Errorf("logs do not mention %q:\n%s", want, out)
				}
			}
			if reqs := refusing.requests(); tc.url == refusing.URL && len(reqs) > 0 {
				if id := reqs[0].header.Get("X-Service-Delivery"); !strings.Contains(out, "delivery="+id) {
					t.Errorf("logs do not name the delivery %s:\n%s", id, out)
				}
			}
		})
	}
}

func TestVerify(t *testing.T) {
	body := []byte(`{"id":"evt-1"}`)
	good := webhook.Sign(testSecret, body)
	for _, tc := range []struct {
		name      string
		secret    []byte
		body      []byte
		signature string
		want      bool
	}{
		{"signed", testSecret, body, good, true},
		{"uppercase hex", testSecret, body, "sha256=" + strings.ToUpper(strings.TrimPrefix(good, "sha256=")), true},
		{"wrong secret", []byte("another-secret"), body, good, false},
		{"empty secret", nil, body, webhook.Sign(nil, body), false},
		{"changed body", testSecret, []byte(`{"id":"evt-2"}`), good, false},
		{"no prefix", testSecret, body, strings.TrimPrefix(good, "sha256="), false},
		{"other algorithm", testSecret, body, "sha1=" + strings.TrimPrefix(good, "sha256="), false},
		{"truncated", testSecret, body, good[:len(good)-2], false},
		{"not hex", testSecret, body, "sha256=" + strings.Repeat("zz", 32), false},
		{"empty", testSecret, body, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := webhook.Verify(tc.secret, tc.body, tc.signature); got != tc.want {
				t.Errorf("Verify(%q, %q, %q) = %v, want %v", tc.secret, tc.body, tc.signature, got, tc.want)
			}
		})
	}
}
