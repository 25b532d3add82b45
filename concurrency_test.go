package issuefields_test

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// TestReadModifyWriteClients checks that concurrent read-modify-write clients
// of one issue each get 200 or 412 and never 503, and that every write that
// was answered 200 is kept.
func TestReadModifyWriteClients(t *testing.T) {
	h := newConfiguredHandler(t, issuefields.Config{Store: newFixtureStore(t),
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
func listOf(t testing.TB, r response) []listItem {
	var items []listItem
	r.json(t, &items)
	return items
}

// hookedStore is a memstore that runs beforeUpdate before each UpdateIssue.
type hookedStore struct {
	*memstore.Store
	beforeUpdate func()
}

func (s *hookedStore) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	s.beforeUpdate()
	return s.Store.UpdateIssue(ctx, snap, next)
}

// TestWriteRacingAFieldRemoval removes a field between the validation of a
// write that sets it and the write's commit, as a change made through
// another server at that moment would. The write either happened before the
// removal (200) or is refused (422); either way, afterwards no list shows a
// value of the removed field, and a new write of it is refused.
func TestWriteRacingAFieldRemoval(t *testing.T) {
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
	h := newConfiguredHandler(t, issuefields.Config{Store: &hookedStore{Store: m, beforeUpdate: removeDue}})
	path := valuesPath(org, publicRepo, 2)
	got := do(t, h, "POST", path, writerToken, writeBody(fieldItem(dueID, `"2026-01-31"`)))
	if got.status != http.StatusOK && got.status != http.StatusUnprocessableEntity {
		t.Errorf("POST of a field removed before the write committed: status %d, want 200 or 422: %s", got.status, got.body)
	}
	if ids := fieldIDs(t, do(t, h, "GET", path, writerToken, "")); len(ids) != 0 {
		t.Errorf("after the removal the list shows the fields %v, want none", ids)
	}
	if got := do(t, h, "POST", path, writerToken, writeBody(fieldItem(dueID, `"2026-02-28"`))); got.status != http.StatusUnprocessableEntity {
		t.Errorf("POST of the removed field: status %d, want 422: %s", got.status, got.body)
	}
}
