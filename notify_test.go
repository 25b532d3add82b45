package issuefields_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// eventLog records the events a handler sends to its Notifier.
type eventLog struct {
	mu     sync.Mutex
	events []issuefields.Event
}

// notifier returns a Notifier that appends each event to l.
func (l *eventLog) notifier() issuefields.Notifier {
	return issuefields.NotifierFunc(func(_ context.Context, e issuefields.Event) error {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.events = append(l.events, e)
		return nil
	})
}

// all returns the events recorded so far.
func (l *eventLog) all() []issuefields.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]issuefields.Event(nil), l.events...)
}

// newNotifyingHandler returns a handler over a fresh fixture store that
// records its events in the returned log.
func newNotifyingHandler(t testing.TB) (*issuefields.Handler, *memstore.Store, *eventLog) {
	t.Helper()
	s := newFixtureStore(t)
	events := &eventLog{}
	h := newConfiguredHandler(t, issuefields.Config{Store: s, Notifier: events.notifier()})
	return h, s, events
}

// The values of the fixture's issue 1, as the store holds them.
var (
	highPriority = &issuefields.Value{FieldID: priorityID, OptionIDs: []int64{11}}
	fiveEstimate = &issuefields.Value{FieldID: estimateID, Number: 5}
	christmasDue = &issuefields.Value{FieldID: dueID, Date: "2025-12-25"}
	twoLabels    = &issuefields.Value{FieldID: labelsID, OptionIDs: []int64{51, 52}}
)

// fieldChange is the change of the fixture field id from before to after.
func fieldChange(id int64, before, after *issuefields.Value) issuefields.FieldChange {
	for _, f := range fixtureFields {
		if f.ID == id {
			return issuefields.FieldChange{Field: f, Before: before, After: after}
		}
	}
	panic(fmt.Sprintf("no fixture field %d", id))
}

// TestEventContents checks the one event of each kind of write: its action,
// the issue with the values and version the write stored, the actor, and per
// changed field its definition and the value before and after, nothing for
// unchanged fields.
func TestEventContents(t *testing.T) {
	tests := []struct {
		name           string
		method, suffix string
		number         int
		token, body    string
		wantStatus     int
		wantAction     issuefields.Action
		wantLogin      string
		wantKind       issuefields.TokenKind
		wantChanges    []issuefields.FieldChange
	}{
		{
			name: "add of a new field", method: "POST", number: 2, token: writerToken,
			body:       writeBody(fieldItem(notesID, `"First note"`)),
			wantStatus: http.StatusOK, wantAction: issuefields.ActionAdded,
			wantLogin: "writer", wantKind: issuefields.FineGrainedPersonalAccessToken,
			wantChanges: []issuefields.FieldChange{fieldChange(notesID, nil, &issuefields.Value{FieldID: notesID, Text: "First note"})},
		},
		{
			name: "add that changes a value and repeats another", method: "POST", number: 1, token: appUserToken,
			body:       writeBody(fieldItem(estimateID, `5`), fieldItem(priorityID, `"Medium"`)),
			wantStatus: http.StatusOK, wantAction: issuefields.ActionAdded,
			wantLogin: "app-user", wantKind: issuefields.AppUserToken,
			wantChanges: []issuefields.FieldChange{fieldChange(priorityID, highPriority, &issuefields.Value{FieldID: priorityID, OptionIDs: []int64{12}})},
		},
		{
			name: "set that removes fields", method: "PUT", number: 1, token: prWriterToken,
			body:       writeBody(fieldItem(notesID, `"Needs a design review"`), fieldItem(estimateID, `8`)),
			wantStatus: http.StatusOK, wantAction: issuefields.ActionSet,
			wantLogin: "pr-bot[bot]", wantKind: issuefields.AppInstallationToken,
			wantChanges: []issuefields.FieldChange{
				fieldChange(priorityID, highPriority, nil),
				fieldChange(estimateID, fiveEstimate, &issuefields.Value{FieldID: estimateID, Number: 8}),
				fieldChange(dueID, christmasDue, nil),
				fieldChange(labelsID, twoLabels, nil),
			},
		},
		{
			name: "delete", method: "DELETE", suffix: "/" + itoa(labelsID), number: 1, token: writerToken,
			wantStatus: http.StatusNoContent, wantAction: issuefields.ActionDeleted,
			wantLogin: "writer", wantKind: issuefields.FineGrainedPersonalAccessToken,
			wantChanges: []issuefields.FieldChange{fieldChange(labelsID, twoLabels, nil)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, s, events := newNotifyingHandler(t)
			r := do(t, h, tt.method, valuesPath(org, publicRepo, tt.number)+tt.suffix, tt.token, tt.body)
			if r.status != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", r.status, tt.wantStatus, r.body)
			}
			// The event's issue is the issue as the write left it.
			after, err := s.Snapshot(context.Background(), org, publicRepo, int64(tt.number))
			if err != nil {
				t.Fatal(err)
			}

			got := events.all()
			if len(got) != 1 {
				t.Fatalf("%d events, want 1: %+v", len(got), got)
			}
			e := got[0]
			if e.ID == "" || e.Time.IsZero() || e.Time.Location() != time.UTC {
				t.Errorf("event without an id or a time in UTC: %+v", e)
			}
			if e.Actor == nil || e.Actor.Login != tt.wantLogin || e.Actor.Kind != tt.wantKind {
				t.Errorf("actor %+v, want %s (%s)", e.Actor, tt.wantLogin, tt.wantKind)
			}
			want := issuefields.Event{
				ID:      e.ID,
				Time:    e.Time,
				Action:  tt.wantAction,
				Issue:   after.Issue,
				Actor:   e.Actor,
				Changes: tt.wantChanges,
			}
			if diff := cmp.Diff(want, e, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(issuefields.Event{}, "Actor")); diff != "" {
				t.Errorf("event (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEventIDsAreUnique checks that every event of a handler has its own id.
func TestEventIDsAreUnique(t *testing.T) {
	h, _, events := newNotifyingHandler(t)
	path := valuesPath(org, publicRepo, 2)
	const writes = 20
	for i := range writes {
		if r := do(t, h, "POST", path, writerToken, writeBody(fieldItem(notesID, fmt.Sprintf(`"note %d"`, i)))); r.status != http.StatusOK {
			t.Fatalf("POST %d: status %d: %s", i, r.status, r.body)
		}
	}
	ids := map[string]bool{}
	for _, e := range events.all() {
		ids[e.ID] = true
	}
	if len(events.all()) != writes || len(ids) != writes {
		t.Errorf("%d events with %d distinct ids, want %d of each", len(events.all()), len(ids), writes)
	}
}

// TestNoEventWithoutChange checks that requests that change nothing, refused
// writes, writes of the values an issue already has and lists, send no event.
func TestNoEventWithoutChange(t *testing.T) {
	issue1, issue2 := valuesPath(org, publicRepo, 1), valuesPath(org, publicRepo, 2)
	tests := []struct {
		name, method, target, token, body string
		header                            []string
		status                            int
	}{
		{"anonymous add", "POST", issue1, "", writeBody(fieldItem(notesID, `"x"`)), nil, http.StatusUnauthorized},
		{"add with an unknown token", "POST", issue1, "no-such-token", writeBody(fieldItem(notesID, `"x"`)), nil, http.StatusUnauthorized},
		{"add by a reader", "POST", issue1, readerToken, writeBody(fieldItem(notesID, `"x"`)), nil, http.StatusForbidden},
		{"set without push access", "PUT", issue1, noPushToken, writeBody(), nil, http.StatusForbidden},
		{"set with a classic token", "PUT", issue1, classicToken, writeBody(), nil, http.StatusForbidden},
		{"delete in a repository the token cannot see", "DELETE", valuesPath(org, secretRepo, 1) + "/" + itoa(notesID), blindToken, "", nil, http.StatusNotFound},
		{"add to an issue that does not exist", "POST", valuesPath(org, publicRepo, 99), writerToken, writeBody(fieldItem(notesID, `"x"`)), nil, http.StatusNotFound},
		{"delete of a field without a value", "DELETE", issue2 + "/" + itoa(notesID), writerToken, "", nil, http.StatusNotFound},
		{"delete of an unknown field", "DELETE", issue1 + "/99", writerToken, "", nil, http.StatusNotFound},
		{"add of an unknown field", "POST", issue1, writerToken, writeBody(fieldItem(notesID, `"x"`), fieldItem(99, `"x"`)), nil, http.StatusUnprocessableEntity},
		{"set of an invalid value", "PUT", issue1, writerToken, writeBody(fieldItem(estimateID, `"five"`)), nil, http.StatusUnprocessableEntity},
		{"add that is not JSON", "POST", issue1, writerToken, "{", nil, http.StatusBadRequest},
		{"add under a stale ETag", "POST", issue1, writerToken, writeBody(fieldItem(notesID, `"x"`)), []string{"If-Match", `"stale"`}, http.StatusPreconditionFailed},
		{"delete under a stale ETag", "DELETE", issue1 + "/" + itoa(notesID), writerToken, "", []string{"If-Match", `"stale"`}, http.StatusPreconditionFailed},
		{"add of the current value", "POST", issue1, writerToken, writeBody(fieldItem(estimateID, `5`)), nil, http.StatusOK},
		{"add of the current options in another order", "POST", issue1, writerToken, writeBody(fieldItem(labelsID, `["Backend","Frontend"]`)), nil, http.StatusOK},
		{"set of an issue without values to none", "PUT", issue2, writerToken, writeBody(), nil, http.StatusOK},
		{"clear of an issue without values", "POST", issue2, writerToken, writeBody(), nil, http.StatusOK},
		{"list", "GET", issue1, writerToken, "", nil, http.StatusOK},
		{"list not modified", "GET", issue1, writerToken, "", []string{"If-None-Match", "*"}, http.StatusNotModified},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, _, events := newNotifyingHandler(t)
			r := doWithHeader(t, h, tt.method, tt.target, tt.token, tt.body, tt.header...)
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			if got := events.all(); len(got) != 0 {
				t.Errorf("%d events, want none: %+v", len(got), got)
			}
		})
	}
}

// cancellingStore is a memstore that cancels the client's request, as a
// client that disconnects would, right after a write committed.
type cancellingStore struct {
	*memstore.Store
	cancel context.CancelFunc
	// cancelled records whether the store's context was cancelled then.
	cancelled bool
}

func (s *cancellingStore) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	v, err := s.Store.UpdateIssue(ctx, snap, next)
	if err == nil {
		s.cancel()
		s.cancelled = ctx.Err() != nil
	}
	return v, err
}

// TestNotifierContext checks the context a Notifier gets: the client's
// disconnect does not cancel it, its deadline is the notify timeout whatever
// the client's deadline, and it carries the writer's principal.
func TestNotifierContext(t *testing.T) {
	tests := []struct {
		name          string
		notifyTimeout time.Duration
		wantTimeout   time.Duration
		// clientTimeout, if not zero, gives the client's request a deadline
		// that comes long before the notify timeout.
		clientTimeout time.Duration
	}{
		{"default timeout", 0, 5 * time.Second, 0},
		{"configured timeout", 2 * time.Hour, 2 * time.Hour, 0},
		{"client with a deadline", 2 * time.Hour, 2 * time.Hour, time.Minute},
	}
	writes := []struct {
		method, suffix, body string
		status               int
	}{
		{"POST", "", writeBody(fieldItem(notesID, `"Written just before the client left"`)), http.StatusOK},
		{"PUT", "", writeBody(), http.StatusOK},
		{"DELETE", "/" + itoa(notesID), "", http.StatusNoContent},
	}
	for _, tt := range tests {
		for _, w := range writes {
			t.Run(tt.name+"/"+w.method, func(t *testing.T) {
				type observed struct {
					err       error
					deadline  time.Time
					bound     time.Time // the latest deadline that respects the timeout
					hasDL     bool
					principal *issuefields.Principal
				}
				var (
					mu   sync.Mutex
					seen []observed
				)
				notifier := issuefields.NotifierFunc(func(ctx context.Context, e issuefields.Event) error {
					o := observed{err: ctx.Err(), bound: time.Now().Add(tt.wantTimeout)}
					o.deadline, o.hasDL = ctx.Deadline()
					o.principal, _ = issuefields.PrincipalFromContext(ctx)
					mu.Lock()
					defer mu.Unlock()
					seen = append(seen, o)
					return nil
				})
				s := &cancellingStore{Store: newFixtureStore(t)}
				h := newConfiguredHandler(t, issuefields.Config{Store: s, Notifier: notifier, NotifyTimeout: tt.notifyTimeout})
				// The client leaves right after the write committed.
				ctx, cancel := context.WithCancel(context.Background())
				var clientDeadline time.Time
				if tt.clientTimeout != 0 {
					clientDeadline = time.Now().Add(tt.clientTimeout)
					ctx, cancel = context.WithDeadline(ctx, clientDeadline)
				}
				defer cancel()
				s.cancel = cancel
				req := httptest.NewRequestWithContext(ctx, w.method, valuesPath(org, publicRepo, 1)+w.suffix, strings.NewReader(w.body))
				req.Header.Set("Authorization", "Bearer "+writerToken)

				r := serve(h, req)

				if r.status != w.status {
					t.Fatalf("status %d, want %d: %s", r.status, w.status, r.body)
				}
				if !s.cancelled {
					t.Fatal("the store's context was not the client's: the test cancels nothing")
				}
				mu.Lock()
				defer mu.Unlock()
				if len(seen) != 1 {
					t.Fatalf("the notifier was called %d times, want once", len(seen))
				}
				o := seen[0]
				if o.err != nil {
					t.Errorf("the notifier's context is done (%v) because the client left", o.err)
				}
				switch {
				case !o.hasDL:
					t.Errorf("the notifier's context has no deadline, want one %v away", tt.wantTimeout)
				case o.deadline.After(o.bound):
					t.Errorf("the notifier's deadline %v is more than %v away", o.deadline, tt.wantTimeout)
				case tt.clientTimeout != 0 && !o.deadline.After(clientDeadline):
					t.Errorf("the notifier's deadline %v is the client's %v, not the notify timeout", o.deadline, clientDeadline)
				}
				if o.principal == nil || o.principal.Login != "writer" || o.principal.Kind != issuefields.FineGrainedPersonalAccessToken {
					t.Errorf("PrincipalFromContext in the notifier gives %+v, want the writer", o.principal)
				}
			})
		}
	}
}

// TestNotifierFailure checks that a notifier that fails or panics changes
// nothing in the answer of the write, which has committed, and that its
// failure is logged with the request's id.
func TestNotifierFailure(t *testing.T) {
	notifiers := []struct {
		name   string
		notify issuefields.NotifierFunc
		logged string
	}{
		{"error", func(context.Context, issuefields.Event) error {
			return errors.New("webhook receiver answered 502 (notifier-error-marker)")
		}, "notifier-error-marker"},
		{"panic", func(context.Context, issuefields.Event) error {
			panic("webhook queue is closed (notifier-panic-marker)")
		}, "notifier-panic-marker"},
		{"panic with an error", func(context.Context, issuefields.Event) error {
			panic(fmt.Errorf("nil queue (notifier-panic-error-marker)"))
		}, "notifier-panic-error-marker"},
	}
	writes := []struct {
		method, suffix, body string
		status               int
	}{
		{"POST", "", writeBody(fieldItem(notesID, `"Written anyway"`)), http.StatusOK},
		{"PUT", "", writeBody(fieldItem(estimateID, `21`)), http.StatusOK},
		{"DELETE", "/" + itoa(dueID), "", http.StatusNoContent},
	}
	for _, n := range notifiers {
		for _, w := range writes {
			t.Run(n.name+"/"+w.method, func(t *testing.T) {
				var log bytes.Buffer
				s := newFixtureStore(t)
				h := newConfiguredHandler(t, issuefields.Config{Store: s, Notifier: n.notify,
					Logger: slog.New(slog.NewJSONHandler(&log, nil))})
				key := issueAt(org, publicRepo, 1)
				_, version := readStored(t, s, key)
				path := valuesPath(org, publicRepo, 1)

				r := do(t, h, w.method, path+w.suffix, writerToken, w.body)

				list := do(t, h, "GET", path, writerToken, "")
				if r.status != w.status {
					t.Fatalf("status %d, want %d: %s", r.status, w.status, r.body)
				}
				wantBody := list.body
				if w.status == http.StatusNoContent {
					wantBody = ""
				}
				if r.body != wantBody {
					t.Errorf("body %s, want %s", r.body, wantBody)
				}
				if got, want := r.header.Get("ETag"), list.header.Get("ETag"); got == "" || got != want {
					t.Errorf("ETag %q, want the list's %q", got, want)
				}
				if _, after := readStored(t, s, key); after == version {
					t.Error("the write did not commit")
				}
				id := r.header.Get("X-Service-Request-Id")
				lines := logLines(t, &log, id)
				if !containsAny(lines, n.logged) {
					t.Errorf("no log line with request id %q shows %q:\n%s", id, n.logged, log.String())
				}
				if strings.Contains(r.body, n.logged) {
					t.Errorf("the answer shows the notifier's failure: %s", r.body)
				}
				if again := do(t, h, "POST", path, writerToken, writeBody(fieldItem(notesID, `"Once more"`))); again.status != http.StatusOK {
					t.Errorf("the next write: status %d: %s", again.status, again.body)
				}
			})
		}
	}
}

// containsAny reports whether one of lines contains s.
func containsAny(lines []string, s string) bool {
	for _, l := range lines {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// TestConcurrentWritesNotifyOnce has many clients write to one issue at
// once, most of them adding a field of their own and some writing a value the
// issue already has: every value lands and the notifier hears of each write
// that changed something exactly once.
func TestConcurrentWritesNotifyOnce(t *testing.T) {
	const (
		adders    = 32 // each adds field 8+i, a new one
		repeaters = 8  // each writes field i its current value
	)
	s := newWideStore(t, repeaters+adders, repeaters)
	// Each client is a principal of its own, so that no secondary rate
	// limit counts all writes against one.
	verifier := issuefields.TokenVerifierFunc(func(_ context.Context, token string) (*issuefields.Principal, error) {
		login, ok := strings.CutPrefix(token, "client-token-")
		if !ok {
			return nil, issuefields.ErrBadCredentials
		}
		return &issuefields.Principal{Kind: issuefields.FineGrainedPersonalAccessToken, Login: "client-" + login,
			Permissions: func(context.Context, issuefields.Repository) (issuefields.RepositoryPermissions, error) {
				return issuefields.RepositoryPermissions{Visible: true, Issues: issuefields.PermissionWrite, Push: true}, nil
			}}, nil
	})
	events := &eventLog{}
	h := newConfiguredHandler(t, issuefields.Config{Store: s, Verifier: verifier, Notifier: events.notifier()})
	path := valuesPath(wideOrg, wideRepo, 1)

	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		failures []string
		applied  = map[int]int{} // field ID → 200 answers
	)
	start := make(chan struct{})
	for id := 1; id <= repeaters+adders; id++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			value := fmt.Sprintf(`"value %d"`, id) // what newWideStore gives the repeaters' fields
			if id > repeaters {
				value = fmt.Sprintf(`"added by client %d"`, id)
			}
			<-start
			// 503 means the write lost too many races and changed
			// nothing; a client retries it.
			for range 50 {
				r := do(t, h, "POST", path, fmt.Sprintf("client-token-%d", id), writeBody(fieldItem(id, value)))
				mu.Lock()
				switch r.status {
				case http.StatusOK:
					applied[id]++
				case http.StatusServiceUnavailable:
				default:
					failures = append(failures, fmt.Sprintf("client %d: status %d: %s", id, r.status, r.body))
				}
				mu.Unlock()
				if r.status != http.StatusServiceUnavailable {
					return
				}
			}
			mu.Lock()
			failures = append(failures, fmt.Sprintf("client %d: 503 fifty times", id))
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}

	var want []issuefields.Value
	for id := 1; id <= repeaters+adders; id++ {
		text := fmt.Sprintf("value %d", id)
		if id > repeaters {
			text = fmt.Sprintf("added by client %d", id)
		}
		want = append(want, issuefields.Value{FieldID: int64(id), Text: text})
		if applied[id] != 1 {
			t.Errorf("client %d got %d answers 200, want 1", id, applied[id])
		}
	}
	got, _ := readStored(t, s, issueAt(wideOrg, wideRepo, 1))
	if diff := cmp.Diff(want, got, cmpopts.SortSlices(func(a, b issuefields.Value) bool { return a.FieldID < b.FieldID })); diff != "" {
		t.Errorf("stored values (-want +got):\n%s", diff)
	}

	all := events.all()
	if len(all) != adders {
		t.Errorf("%d events, want %d, one per write that changed something", len(all), adders)
	}
	ids := map[string]bool{}
	notified := map[int64]int{}
	for _, e := range all {
		ids[e.ID] = true
		if len(e.Changes) != 1 {
			t.Errorf("event %s has %d changes, want 1: %+v", e.ID, len(e.Changes), e.Changes)
			continue
		}
		c := e.Changes[0]
		id := c.Field.ID
		notified[id]++
		if e.Action != issuefields.ActionAdded || e.Actor == nil || e.Actor.Login != fmt.Sprintf("client-%d", id) || e.Issue.Number != 1 ||
			c.Before != nil || c.After == nil || c.After.Text != fmt.Sprintf("added by client %d", id) {
			t.Errorf("event %+v, change %+v: want client %d adding its field", e, c, id)
		}
	}
	if len(ids) != len(all) {
		t.Errorf("%d events with %d distinct ids", len(all), len(ids))
	}
	for id := repeaters + 1; id <= repeaters+adders; id++ {
		if notified[int64(id)] != 1 {
			t.Errorf("field %d was notified %d times, want once", id, notified[int64(id)])
		}
	}
}
