package issuefields_test

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// recordingStore is a memstore that keeps every slice of fields and values it
// handed the handler (from Snapshot) beside a deep copy made at the time, so
// that a test can tell whether anyone changed them afterwards.
type recordingStore struct {
	*memstore.Store
	mu     sync.Mutex
	fields []returned[issuefields.Field]
	values []returned[issuefields.Value]
}

// returned is a slice a store returned and a deep copy of it.
type returned[T any] struct{ slice, copy []T }

func (s *recordingStore) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	snap, err := s.Store.Snapshot(ctx, owner, name, number)
	record(&s.mu, &s.fields, snap.Fields, func(f *issuefields.Field) { f.Options = slices.Clone(f.Options) })
	record(&s.mu, &s.values, snap.Issue.Values, func(v *issuefields.Value) { v.OptionIDs = slices.Clone(v.OptionIDs) })
	return snap, err
}

// record appends slice and a deep copy of it, made with cloneInner on each
// element of a shallow copy, to *into, under mu.
func record[T any](mu *sync.Mutex, into *[]returned[T], slice []T, cloneInner func(*T)) {
	c := slices.Clone(slice)
	for i := range c {
		cloneInner(&c[i])
	}
	mu.Lock()
	defer mu.Unlock()
	*into = append(*into, returned[T]{slice, c})
}

// TestHandlerNeverModifiesStoreSlices checks the handler's side of the Store
// contract on shared snapshots: every operation, conditional and paginated
// ones included, leaves the slices the store returned as they were.
func TestHandlerNeverModifiesStoreSlices(t *testing.T) {
	s := &recordingStore{Store: newFixtureStore(t)}
	h := newConfiguredHandler(t, issuefields.Config{Store: s})
	path := valuesPath(org, publicRepo, 1)
	tag := do(t, h, "GET", path, writerToken, "").header.Get("ETag")
	requests := []struct {
		method, target, body string
		header               []string
		status               int
	}{
		{"GET", path + "?per_page=2&page=2", "", nil, http.StatusOK},
		{"POST", path, writeBody(fieldItem(notesID, `"merged"`), fieldItem(labelsID, `["Docs","Frontend"]`)), []string{"If-Match", tag}, http.StatusOK},
		{"POST", path, writeBody(fieldItem(notesID, `"merged"`)), nil, http.StatusOK},
		{"PUT", path, writeBody(fieldItem(priorityID, `"Low"`), fieldItem(estimateID, "2.5")), nil, http.StatusOK},
		{"PUT", path, writeBody(fieldItem(priorityID, `"Low"`), fieldItem(estimateID, "2.5")), []string{"If-Match", tag}, http.StatusPreconditionFailed},
		{"DELETE", path + "/" + itoa(estimateID), "", nil, http.StatusNoContent},
		{"POST", path, writeBody(), nil, http.StatusOK},
		{"GET", path, "", nil, http.StatusOK},
	}
	for _, r := range requests {
		if got := doWithHeader(t, h, r.method, r.target, writerToken, r.body, r.header...); got.status != r.status {
			t.Fatalf("%s %s: status %d, want %d: %s", r.method, r.target, got.status, r.status, got.body)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.fields) == 0 || len(s.values) == 0 {
		t.Fatalf("the handler read no fields (%d) or no values (%d)", len(s.fields), len(s.values))
	}
	for i, r := range s.fields {
		if diff := cmp.Diff(r.copy, r.slice); diff != "" {
			t.Errorf("fields returned by call %d changed (-returned +now):\n%s", i+1, diff)
		}
	}
	for i, r := range s.values {
		if diff := cmp.Diff(r.copy, r.slice); diff != "" {
			t.Errorf("values returned by call %d changed (-returned +now):\n%s", i+1, diff)
		}
	}
}
