package issuefields_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// countingStore is a memstore that counts the calls of Snapshot and
// UpdateIssue, and the UpdateIssues that gave ErrChanged. beforeUpdate, if
// set, runs before each UpdateIssue; reads, if set, hears of each Snapshot
// that it has room for; alwaysChanged makes every UpdateIssue give
// ErrChanged.
type countingStore struct {
	*memstore.Store
	beforeUpdate       func(snap issuefields.Snapshot)
	reads              chan struct{}
	alwaysChanged      bool
	snapshots, updates atomic.Int64
	changed            atomic.Int64
}

func (s *countingStore) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	s.snapshots.Add(1)
	snap, err := s.Store.Snapshot(ctx, owner, name, number)
	select {
	case s.reads <- struct{}{}:
	default:
	}
	return snap, err
}

func (s *countingStore) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	s.updates.Add(1)
	if s.beforeUpdate != nil {
		s.beforeUpdate(snap)
	}
	if s.alwaysChanged {
		s.changed.Add(1)
		return "", fmt.Errorf("always: %w", issuefields.ErrChanged)
	}
	v, err := s.Store.UpdateIssue(ctx, snap, next)
	if errors.Is(err, issuefields.ErrChanged) {
		s.changed.Add(1)
	}
	return v, err
}

// counts returns the Snapshots and UpdateIssues that s counted since the
// counts were last taken.
func (s *countingStore) counts() (snapshots, updates int64) {
	return s.snapshots.Swap(0), s.updates.Swap(0)
}

// TestWriteAfterAWriteReadsNoSnapshot checks that the handler starts a write
// from the Snapshot its last write of the issue made, by any spelling of the
// issue's path, so that the write is one call to the store; that a first
// write reads a Snapshot; and that lists do not fill what the handler keeps.
func TestWriteAfterAWriteReadsNoSnapshot(t *testing.T) {
	s := &countingStore{Store: newFixtureStore(t)}
	h := newConfiguredHandler(t, issuefields.Config{Store: s})
	path := valuesPath(org, publicRepo, 1)
	other := valuesPath(org, publicRepo, 2)
	requests := []struct {
		name, method, target, body string
		status                     int
		snapshots, updates         int64
	}{
		{"a first add", "POST", path, writeBody(fieldItem(notesID, `"first"`)), http.StatusOK, 1, 1},
		{"a list", "GET", path, "", http.StatusOK, 1, 0},
		{"an add after a write", "POST", path, writeBody(fieldItem(notesID, `"second"`)), http.StatusOK, 0, 1},
		{"an add by another spelling", "POST", valuesPath("Octo-Org", "Hello-World", 1), writeBody(fieldItem(notesID, `"third"`)), http.StatusOK, 0, 1},
		{"a set after a write", "PUT", path, writeBody(fieldItem(estimateID, `2`)), http.StatusOK, 0, 1},
		{"a delete after a write", "DELETE", path + "/" + itoa(estimateID), "", http.StatusNoContent, 0, 1},
		{"a list of another issue", "GET", other, "", http.StatusOK, 1, 0},
		{"a first add after a list", "POST", other, writeBody(fieldItem(notesID, `"first"`)), http.StatusOK, 1, 1},
	}
	for _, r := range requests {
		if got := do(t, h, r.method, r.target, writerToken, r.body); got.status != r.status {
			t.Fatalf("%s: status %d, want %d: %s", r.name, got.status, r.status, got.body)
		}
		if snapshots, updates := s.counts(); snapshots != r.snapshots || updates != r.updates {
			t.Errorf("%s: %d Snapshots and %d UpdateIssues, want %d and %d", r.name, snapshots, updates, r.snapshots, r.updates)
		}
	}
}

// TestWriteFromAStaleKeptSnapshot changes the store behind the handler's
// back after a write, as another server would, and writes again: the write
// the handler starts from what it kept must find the change, and answer as a
// write that started from a fresh Snapshot would.
func TestWriteFromAStaleKeptSnapshot(t *testing.T) {
	tests := []struct {
		name string
		// change changes the store after the first write.
		change func(t *testing.T, s *memstore.Store)
		// ifMatch is set to send the ETag of a list after the change.
		ifMatch      bool
		method, body string
		status       int
		// want is what issue 1 holds afterwards, or nil to skip.
		want []issuefields.Value
	}{
		{name: "values set elsewhere",
			change: func(t *testing.T, s *memstore.Store) {
				must(t, s.SetValues(org, publicRepo, 1, []issuefields.Value{{FieldID: estimateID, Number: 8}}))
			},
			method: "POST", body: writeBody(fieldItem(dueID, `"2026-01-31"`)), status: http.StatusOK,
			want: []issuefields.Value{{FieldID: estimateID, Number: 8}, {FieldID: dueID, Date: "2026-01-31"}}},
		{name: "an If-Match of the values set elsewhere",
			change: func(t *testing.T, s *memstore.Store) {
				must(t, s.SetValues(org, publicRepo, 1, []issuefields.Value{{FieldID: estimateID, Number: 8}}))
			},
			ifMatch: true, method: "PUT", body: writeBody(fieldItem(estimateID, `9`)), status: http.StatusOK,
			want: []issuefields.Value{{FieldID: estimateID, Number: 9}}},
		{name: "the issue deleted elsewhere",
			change: func(t *testing.T, s *memstore.Store) { must(t, s.DeleteIssue(org, publicRepo, 1)) },
			method: "POST", body: writeBody(fieldItem(dueID, `"2026-01-31"`)), status: http.StatusNotFound},
		{name: "the repository renamed elsewhere",
			change: func(t *testing.T, s *memstore.Store) { must(t, s.RenameRepository(org, publicRepo, "moved-away")) },
			method: "POST", body: writeBody(fieldItem(dueID, `"2026-01-31"`)), status: http.StatusTemporaryRedirect},
		{name: "the field removed elsewhere",
			change: func(t *testing.T, s *memstore.Store) {
				_, err := s.ChangeFields(context.Background(), org, func(current []issuefields.Field) ([]issuefields.Field, error) {
					return slices.DeleteFunc(slices.Clone(current), func(f issuefields.Field) bool { return f.ID == dueID }), nil
				})
				must(t, err)
			},
			method: "POST", body: writeBody(fieldItem(dueID, `"2026-01-31"`)), status: http.StatusUnprocessableEntity},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newFixtureStore(t)
			h := newConfiguredHandler(t, issuefields.Config{Store: m})
			path := valuesPath(org, publicRepo, 1)
			if r := do(t, h, "PUT", path, writerToken, writeBody(fieldItem(notesID, `"kept"`))); r.status != http.StatusOK {
				t.Fatalf("the first write: status %d: %s", r.status, r.body)
			}
			tt.change(t, m)
			var header []string
			if tt.ifMatch {
				header = []string{"If-Match", do(t, h, "GET", path, writerToken, "").header.Get("ETag")}
			}
			before := dumpIssues(t, m)
			r := doWithHeader(t, h, tt.method, path, writerToken, tt.body, header...)
			if r.status != tt.status {
				t.Fatalf("%s after %s: status %d, want %d: %s", tt.method, tt.name, r.status, tt.status, r.body)
			}
			if tt.want == nil {
				if after := dumpIssues(t, m); after != before {
					t.Errorf("a refused write changed the store from\n%s\nto\n%s", before, after)
				}
				return
			}
			if got, _ := readStored(t, m, issueAt(org, publicRepo, 1)); !cmp.Equal(got, tt.want, byFieldID) {
				t.Errorf("after %s and the write, the issue holds %+v, want %+v", tt.name, got, tt.want)
			}
		})
	}
}

// dumpIssues describes every issue of the fixture's repositories, as
// Snapshot shows them by their current names.
func dumpIssues(t *testing.T, s *memstore.Store) string {
	t.Helper()
	var b strings.Builder
	for _, repo := range []string{publicRepo, "moved-away", secretRepo} {
		for n := int64(1); n <= 5; n++ {
			if snap, err := s.Snapshot(context.Background(), org, repo, n); err == nil {
				fmt.Fprintf(&b, "%s#%d: %+v %v\n", repo, n, snap.Issue, snap.IssueErr)
			}
		}
	}
	return b.String()
}

// must fails t at once when err is not nil.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestWriteGivesUpAfterBoundedAttempts checks that a write whose store has
// changed again each time it could store answers 503 with Retry-After after
// a bounded number of Snapshots, and stores nothing.
func TestWriteGivesUpAfterBoundedAttempts(t *testing.T) {
	s := &countingStore{Store: newFixtureStore(t), alwaysChanged: true}
	h := newConfiguredHandler(t, issuefields.Config{Store: s})
	key := issueAt(org, publicRepo, 1)
	values, version := readStored(t, s.Store, key)
	s.counts()
	r := do(t, h, "POST", valuesPath(org, publicRepo, 1), writerToken, writeBody(fieldItem(notesID, `"never"`)))
	checkServiceUnavailable(t, r)
	snapshots, updates := s.counts()
	if snapshots < 2 || snapshots > 10 || updates != snapshots {
		t.Errorf("the write read %d Snapshots and tried %d UpdateIssues; want a few, one UpdateIssue per Snapshot", snapshots, updates)
	}
	if got, gotVersion := readStored(t, s.Store, key); gotVersion != version || !cmp.Equal(got, values) {
		t.Errorf("a write that gave up changed the issue from %+v to %+v", values, got)
	}
}

// blockedWrite is a write of issue 1 that stops inside its UpdateIssue until
// release is closed, holding the turn of its issue; its answer comes on
// answer.
type blockedWrite struct {
	inside, release chan struct{}
	entered         atomic.Bool
	answer          chan response
}

// startBlockedWrite returns a handler over a countingStore, and a write of
// "first" to the notes of issue 1 of the fixture's public repository that it
// has started and that is blocked inside its UpdateIssue; the store's other
// UpdateIssues go through.
func startBlockedWrite(t *testing.T) (*issuefields.Handler, *countingStore, *blockedWrite) {
	b := &blockedWrite{inside: make(chan struct{}), release: make(chan struct{}), answer: make(chan response, 1)}
	s := &countingStore{Store: newFixtureStore(t), reads: make(chan struct{}, 1)}
	s.beforeUpdate = func(snap issuefields.Snapshot) {
		if snap.Issue.Number == 1 && b.entered.CompareAndSwap(false, true) {
			close(b.inside)
			<-b.release
		}
	}
	h := newConfiguredHandler(t, issuefields.Config{Store: s})
	go func() {
		b.answer <- do(t, h, "POST", valuesPath(org, publicRepo, 1), writerToken, writeBody(fieldItem(notesID, `"first"`)))
	}()
	<-b.inside
	<-s.reads // the blocked write's
	return h, s, b
}

// patience bounds how long a test waits for an answer that must not wait
// for a blocked write.
const patience = 5 * time.Second

// TestWritersOfOneIssueTakeTurns blocks a write of issue 1 inside its
// UpdateIssue. Meanwhile a write and a list of issue 2 are answered, and a
// second write of issue 1 waits for its turn; once the first is let go, the
// second is decided on what the first stored, without a conflict.
func TestWritersOfOneIssueTakeTurns(t *testing.T) {
	h, s, blocked := startBlockedWrite(t)
	path := valuesPath(org, publicRepo, 1)
	// The second write reads its Snapshot before it waits for its turn.
	second := make(chan response, 1)
	go func() { second <- do(t, h, "POST", path, writerToken, writeBody(fieldItem(dueID, `"2026-01-31"`))) }()
	<-s.reads

	others := make(chan response, 2)
	go func() {
		others <- do(t, h, "POST", valuesPath(org, publicRepo, 2), writerToken, writeBody(fieldItem(notesID, `"other"`)))
		others <- do(t, h, "GET", path, writerToken, "")
	}()
	for range 2 {
		select {
		case r := <-others:
			if r.status != http.StatusOK {
				t.Errorf("a request beside the blocked write: status %d: %s", r.status, r.body)
			}
		case <-time.After(patience):
			t.Fatal("a request for another issue, or a list, waited for a blocked write")
		}
	}
	select {
	case r := <-second:
		t.Errorf("a second write of issue 1 answered %d while the first held the issue's turn", r.status)
		second <- r
	default:
	}
	close(blocked.release)
	for _, r := range []response{<-blocked.answer, <-second} {
		if r.status != http.StatusOK {
			t.Errorf("a write of issue 1: status %d: %s", r.status, r.body)
		}
	}
	if n := s.changed.Load(); n != 0 {
		t.Errorf("%d UpdateIssues gave ErrChanged; want none, the second writer deciding on what the first stored", n)
	}
	want := fixtureValuesWith([]issuefields.Value{{FieldID: notesID, Text: "first"}, {FieldID: dueID, Date: "2026-01-31"}})
	if got, _ := readStored(t, s.Store, issueAt(org, publicRepo, 1)); !cmp.Equal(got, want, byFieldID) {
		t.Errorf("issue 1 holds %+v, want both writes: %+v", got, want)
	}
}

// TestTurnWaitEndsWithTheRequest checks that a write waiting for the turn of
// an issue that a blocked write holds gives up when its request's context
// ends, with 503 and Retry-After, and stores nothing.
func TestTurnWaitEndsWithTheRequest(t *testing.T) {
	h, s, blocked := startBlockedWrite(t)
	path := valuesPath(org, publicRepo, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req := httptest.NewRequestWithContext(ctx, "POST", path, strings.NewReader(writeBody(fieldItem(dueID, `"2026-01-31"`))))
	req.Header.Set("Authorization", "Bearer "+writerToken)
	checkServiceUnavailable(t, serve(h, req))

	close(blocked.release)
	if r := <-blocked.answer; r.status != http.StatusOK {
		t.Errorf("the blocked write: status %d: %s", r.status, r.body)
	}
	want := fixtureValuesWith([]issuefields.Value{{FieldID: notesID, Text: "first"}})
	if got, _ := readStored(t, s.Store, issueAt(org, publicRepo, 1)); !cmp.Equal(got, want, byFieldID) {
		t.Errorf("issue 1 holds %+v, want only the first write: %+v", got, want)
	}
}
