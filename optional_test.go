package issuefields_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// optionalStore is a memstore with the optional interfaces Snapshotter and
// Updater, built from its Store methods, as a database store would offer
// them in fewer queries. It counts the calls of each.
type optionalStore struct {
	*memstore.Store
	// writing makes Update's calls take turns.
	writing sync.Mutex
	// loseSwaps makes every CompareAndSwap lose to a concurrent write, so
	// that the handler writes through Update.
	loseSwaps bool
	// beforeSwap, when set, runs before each of the handler's
	// CompareAndSwap calls.
	beforeSwap func()

	mu                 sync.Mutex
	snapshots, updates int
}

func (s *optionalStore) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	s.mu.Lock()
	s.snapshots++
	s.mu.Unlock()
	var snap issuefields.Snapshot
	var err error
	if snap.Repository, err = s.Store.Repository(ctx, owner, name); err != nil {
		return snap, err
	}
	snap.Issue, snap.IssueErr = s.Store.Issue(ctx, snap.Repository, number)
	if snap.IssueErr != nil || snap.Issue.Repository.ID != snap.Repository.ID || snap.Issue.Number != number {
		return snap, nil
	}
	if snap.Fields, err = s.Store.Fields(ctx, snap.Repository); err != nil {
		return snap, err
	}
	snap.Values, snap.Version, err = s.Store.Values(ctx, snap.Issue.Key())
	return snap, err
}

func (s *optionalStore) Update(ctx context.Context, key issuefields.IssueKey, change func([]issuefields.Value, issuefields.Version) ([]issuefields.Value, error)) (issuefields.Version, error) {
	s.mu.Lock()
	s.updates++
	s.mu.Unlock()
	s.writing.Lock()
	defer s.writing.Unlock()
	for {
		current, version, err := s.Store.Values(ctx, key)
		if err != nil {
			return "", err
		}
		next, err := change(current, version)
		if err != nil {
			return "", fmt.Errorf("the change failed: %w", err)
		}
		// A writer that does not take turns (CompareAndSwap) may still
		// get there first.
		v, err := s.Store.CompareAndSwap(ctx, key, version, next)
		if !errors.Is(err, issuefields.ErrVersionConflict) {
			return v, err
		}
	}
}

func (s *optionalStore) CompareAndSwap(ctx context.Context, key issuefields.IssueKey, expected issuefields.Version, values []issuefields.Value) (issuefields.Version, error) {
	if s.beforeSwap != nil {
		s.beforeSwap()
	}
	if s.loseSwaps {
		return "", issuefields.ErrVersionConflict
	}
	return s.Store.CompareAndSwap(ctx, key, expected, values)
}

// Methods the handler must not call when the store has a Snapshotter.
func (s *optionalStore) Repository(context.Context, string, string) (issuefields.Repository, error) {
	panic("Repository called on a Snapshotter")
}

func (s *optionalStore) Issue(context.Context, issuefields.Repository, int64) (issuefields.Issue, error) {
	panic("Issue called on a Snapshotter")
}

// TestOptionalInterfacesChangeNoAnswer checks that a handler over a store
// with Snapshotter and Updater answers exactly as one over the same store
// without them, through lists, writes, conditional requests, redirects and
// the answers of deleted and private issues.
func TestOptionalInterfacesChangeNoAnswer(t *testing.T) {
	s := &optionalStore{Store: newFixtureStore(t), loseSwaps: true}
	optional := newConfiguredHandler(t, issuefields.Config{Store: s})
	plain := newConfiguredHandler(t, issuefields.Config{Store: newFixtureStore(t)})
	path := valuesPath(org, publicRepo, 1)
	// ETags name one store's versions, so each handler gets its own where a
	// step says tag.
	tags := map[*issuefields.Handler]string{}
	for _, h := range []*issuefields.Handler{plain, optional} {
		tags[h] = do(t, h, "GET", path, writerToken, "").header.Get("ETag")
	}
	const tag = "tag"
	steps := []struct {
		method, target, token, body string
		header                      []string
	}{
		{"GET", path, writerToken, "", nil},
		{"GET", path, writerToken, "", []string{"If-None-Match", tag}},
		{"GET", path + "?per_page=2&page=2", readerToken, "", nil},
		{"POST", path, writerToken, writeBody(fieldItem(notesID, `"changed"`)), []string{"If-Match", tag}},
		{"POST", path, writerToken, writeBody(fieldItem(notesID, `"again"`)), []string{"If-Match", tag}},
		{"POST", path, writerToken, writeBody(fieldItem(notesID, `"changed"`)), nil},
		{"PUT", path, writerToken, writeBody(fieldItem(dueID, `"2026-01-31"`)), nil},
		{"DELETE", path + "/" + itoa(dueID), writerToken, "", nil},
		{"DELETE", path + "/" + itoa(dueID), writerToken, "", nil},
		{"POST", path, writerToken, writeBody(fieldItem(99, `"x"`)), nil},
		{"GET", valuesPath(org, publicRepo, 3), writerToken, "", nil},
		{"POST", valuesPath(org, publicRepo, 3), writerToken, writeBody(fieldItem(notesID, `"x"`)), nil},
		{"GET", valuesPath(org, publicRepo, 4), writerToken, "", nil},
		{"GET", valuesPath(org, publicRepo, 5), blindToken, "", nil},
		{"GET", valuesPath(org, publicRepo, 77), writerToken, "", nil},
		{"GET", valuesPath(org, "old-name", 1), writerToken, "", nil},
		{"GET", valuesPath(org, secretRepo, 1), blindToken, "", nil},
		{"POST", valuesPath(org, secretRepo, 1), readerToken, writeBody(fieldItem(notesID, `"x"`)), nil},
		{"GET", valuesPath(org, "nothing", 1), writerToken, "", nil},
		{"GET", valuesPath("octocat", "personal", 1), writerToken, "", nil},
	}
	send := func(h *issuefields.Handler, method, target, token, body string, header []string) response {
		header = slices.Clone(header)
		for i := range header {
			if header[i] == tag {
				header[i] = tags[h]
			}
		}
		return doWithHeader(t, h, method, target, token, body, header...)
	}
	for _, st := range steps {
		want := send(plain, st.method, st.target, st.token, st.body, st.header)
		got := send(optional, st.method, st.target, st.token, st.body, st.header)
		for _, name := range []string{"Link", "Location"} {
			if got.header.Get(name) != want.header.Get(name) {
				t.Errorf("%s %s: %s %q, want %q", st.method, st.target, name, got.header.Get(name), want.header.Get(name))
			}
		}
		if (got.header.Get("ETag") == "") != (want.header.Get("ETag") == "") {
			t.Errorf("%s %s: ETag %q, want one exactly when the plain store gives one (%q)", st.method, st.target,
				got.header.Get("ETag"), want.header.Get("ETag"))
		}
		if got.status != want.status || got.body != want.body {
			t.Errorf("%s %s: %d %s\nwant %d %s", st.method, st.target, got.status, got.body, want.status, want.body)
		}
	}
	if s.snapshots == 0 || s.updates == 0 {
		t.Errorf("the handler called Snapshot %d times and Update %d times, want both", s.snapshots, s.updates)
	}
}

// TestUpdaterSerializesWriters checks that concurrent read-modify-write
// clients of one issue, over a store with an Updater whose compare-and-set
// always loses, each get 200 or 412 and never 503, and that every write that
// was answered 200 is kept.
func TestUpdaterSerializesWriters(t *testing.T) {
	s := &optionalStore{Store: newFixtureStore(t), loseSwaps: true}
	h := newConfiguredHandler(t, issuefields.Config{Store: s,
		WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: -1}})
	path := valuesPath(org, publicRepo, 2)
	const clients, writes = 16, 10
	var wg sync.WaitGroup
	var mu sync.Mutex
	succeeded := 0
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range writes {
				// Each write counts one more: the value read, plus one.
				for {
					got := do(t, h, "GET", path, writerToken, "")
					n := 0
					if items := listOf(t, got); len(items) > 0 {
						n = int(items[0].Value.(float64))
					}
					w := doWithHeader(t, h, "POST", path, writerToken, writeBody(fieldItem(estimateID, itoa(n+1))),
						"If-Match", got.header.Get("ETag"))
					if w.status == http.StatusOK {
						mu.Lock()
						succeeded++
						mu.Unlock()
						break
					}
					if w.status != http.StatusPreconditionFailed {
						t.Errorf("POST: status %d, want 200 or 412: %s", w.status, w.body)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	items := listOf(t, do(t, h, "GET", path, writerToken, ""))
	if len(items) != 1 || items[0].Value != float64(succeeded) || succeeded != clients*writes {
		t.Errorf("after %d successful increments the issue holds %+v, want %d", succeeded, items, clients*writes)
	}
}

// listOf returns the items of r, a 200 answer's list.
func listOf(t testing.TB, r response) []issuefields.FieldValue {
	var items []issuefields.FieldValue
	r.json(t, &items)
	return items
}

// hookedStore is a memstore that runs beforeSwap before each CompareAndSwap.
type hookedStore struct {
	*memstore.Store
	beforeSwap func()
}

func (s *hookedStore) CompareAndSwap(ctx context.Context, key issuefields.IssueKey, expected issuefields.Version, values []issuefields.Value) (issuefields.Version, error) {
	s.beforeSwap()
	return s.Store.CompareAndSwap(ctx, key, expected, values)
}

// TestWriteValidatedAgainAfterFieldsChange removes a field between the
// validation of a write that sets it and the write's compare-and-set, as a
// change made through another server at that moment would: the write must be
// validated again and refused (422), and the issue must hold no value of the
// removed field. Over a plain store the handler retries; over one with
// Snapshotter and Updater it writes through Update.
func TestWriteValidatedAgainAfterFieldsChange(t *testing.T) {
	for name, wrap := range map[string]func(*memstore.Store, func()) issuefields.Store{
		"plain store": func(m *memstore.Store, hook func()) issuefields.Store {
			return &hookedStore{Store: m, beforeSwap: hook}
		},
		"Snapshotter and Updater": func(m *memstore.Store, hook func()) issuefields.Store {
			return &optionalStore{Store: m, beforeSwap: hook}
		},
	} {
		t.Run(name, func(t *testing.T) {
			m := newFixtureStore(t)
			var once sync.Once
			removeDue := func() {
				once.Do(func() {
					_, err := m.ChangeFields(context.Background(), org, func(current []issuefields.Field) ([]issuefields.Field, error) {
						return slices.DeleteFunc(slices.Clone(current), func(f issuefields.Field) bool { return f.ID == dueID }), nil
					})
					if err != nil {
						t.Errorf("ChangeFields: %v", err)
					}
				})
			}
			h := newConfiguredHandler(t, issuefields.Config{Store: wrap(m, removeDue)})
			got := do(t, h, "POST", valuesPath(org, publicRepo, 2), writerToken, writeBody(fieldItem(dueID, `"2026-01-31"`)))
			if got.status != http.StatusUnprocessableEntity {
				t.Errorf("POST of a field removed before the write committed: status %d, want 422: %s", got.status, got.body)
			}
			values, _ := readStored(t, m, issueKeyOf(t, m, org, publicRepo, 2))
			if len(values) != 0 {
				t.Errorf("the issue holds %+v, want no value", values)
			}
		})
	}
}
