package pgstore_test

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
)

// The load of TestServersShareOneDatabase: writers goroutines, each sending
// posts POSTs that each add a field of their own.
const (
	writers = 16
	posts   = 20
)

// TestServersShareOneDatabase runs two handlers, each with a pool of its own,
// over one database, as two servers would, and has many clients add values
// through both at once. No write may be lost, and every answer must show a
// state of the issue that the database went through.
func TestServersShareOneDatabase(t *testing.T) {
	ctx := context.Background()
	_, cfg := newSchema(t)
	cfg.MaxConns = 8
	stores := [2]*pgstore.Store{}
	var wg sync.WaitGroup
	errs := make([]error, len(stores))
	for i := range stores {
		pool := newPool(t, cfg.Copy())
		stores[i] = pgstore.New(pool)
		wg.Go(func() { errs[i] = pgstore.Migrate(ctx, pool) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	seed := stores[0]
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(seed.AddOrganization("octo-org"))
	for id := int64(1); id <= writers*posts; id++ {
		must(seed.AddField("octo-org", issuefields.Field{ID: id, Name: fmt.Sprint("Field ", id), DataType: issuefields.DataTypeText}))
	}
	_, err := seed.AddRepository("octo-org", "hello-world", false)
	must(err)
	for n := int64(1); n <= 5; n++ {
		must(seed.AddIssue("octo-org", "hello-world", n))
	}
	handlers := []http.Handler{newHandler(t, stores[0]), newHandler(t, stores[1])}

	t.Run("one issue", func(t *testing.T) {
		addConcurrently(t, handlers, stores[1], func(int) int64 { return 1 })
	})
	t.Run("several issues", func(t *testing.T) {
		addConcurrently(t, handlers, stores[1], func(w int) int64 { return int64(2 + w%4) })
	})
}

// addConcurrently has each of writers goroutines send posts POSTs, each adding
// a field of its own to the issue of hello-world that issueOf gives for the
// writer, alternating between handlers, and retrying an answer 503 as a
// client would. It then checks the answers and the issues' final values,
// through both handlers and s.
func addConcurrently(t *testing.T, handlers []http.Handler, s *pgstore.Store, issueOf func(writer int) int64) {
	var mu sync.Mutex
	answers := make(map[int64][]map[int64]any) // by issue, each 200 answer's list
	written := make(map[int64]map[int64]any)   // by issue, the value each field got
	var unavailable atomic.Int64
	var wg sync.WaitGroup
	for w := range writers {
		number := issueOf(w)
		path := valuesPath("octo-org", "hello-world", number)
		wg.Go(func() {
			for p := range posts {
				field := int64(w*posts + p + 1)
				value := fmt.Sprintf("writer %d, post %d", w, p)
				list, ok := postUntilDone(t, handlers[(w+p)%len(handlers)], path, textBody(field, value), &unavailable)
				if !ok {
					return
				}
				if got, ok := list[field]; !ok || got != value {
					t.Errorf("the answer to the POST of field %d shows %v, %t; want %q", field, got, ok, value)
				}
				mu.Lock()
				answers[number] = append(answers[number], list)
				if written[number] == nil {
					written[number] = make(map[int64]any)
				}
				written[number][field] = value
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	var done int
	for _, lists := range answers {
		done += len(lists)
	}
	t.Logf("%d POSTs answered 200, after %d answers 503 that the clients retried",
		done, unavailable.Load())
	for number, want := range written {
		path := valuesPath("octo-org", "hello-world", number)
		for i, h := range handlers {
			if got := listAll(t, h, path); !maps.Equal(got, want) {
				t.Errorf("issue %d through handler %d holds %d values, want the %d written: missing %v", number, i, len(got), len(want), missing(got, want))
			}
		}
		checkHistory(t, number, answers[number], want)
	}
	checkStored(t, s, written)
}

// postUntilDone sends the POST to h until it is answered with something other
// than 503, and returns the list of a 200 answer. It counts the 503 answers
// in unavailable.
func postUntilDone(t *testing.T, h http.Handler, path, body string, unavailable *atomic.Int64) (map[int64]any, bool) {
	for range 1000 {
		rec := serve(h, "POST", path, body)
		switch rec.Code {
		case http.StatusOK:
			return decodeList(t, rec), true
		case http.StatusServiceUnavailable:
			unavailable.Add(1)
		default:
			t.Errorf("POST %s %s: status %d: %s", path, body, rec.Code, rec.Body)
			return nil, false
		}
	}
	t.Errorf("POST %s %s: answered 503 1000 times", path, body)
	return nil, false
}

// checkHistory checks that the lists of the 200 answers to the POSTs of one
// issue are the states that the issue went through: as each POST added one
// field, their sizes are 1 to the number of POSTs, each once, and each list
// holds the one before it.
func checkHistory(t *testing.T, number int64, lists []map[int64]any, final map[int64]any) {
	t.Helper()
	slices.SortFunc(lists, func(a, b map[int64]any) int { return len(a) - len(b) })
	previous := map[int64]any{}
	for i, list := range lists {
		if len(list) != i+1 {
			t.Errorf("issue %d: the answers hold lists of sizes %v, want 1 to %d once each", number, sizes(lists), len(lists))
			return
		}
		for id, v := range previous {
			if list[id] != v {
				t.Errorf("issue %d: an answer with %d values lacks the value %v of field %d that an answer with %d values had", number, len(list), v, id, len(previous))
				return
			}
		}
		previous = list
	}
	if !maps.Equal(previous, final) {
		t.Errorf("issue %d: the last answer's list differs from the final values: missing %v", number, missing(previous, final))
	}
}

// checkStored checks that s holds exactly the values that were written.
func checkStored(t *testing.T, s *pgstore.Store, written map[int64]map[int64]any) {
	t.Helper()
	for number, want := range written {
		values, _ := storedValues(t, s, "octo-org", "hello-world", number)
		got := make(map[int64]any, len(values))
		for _, v := range values {
			got[v.FieldID] = v.Text
		}
		if !maps.Equal(got, want) || len(values) != len(want) {
			t.Errorf("the database holds %d values on issue %d, want the %d written: missing %v", len(values), number, len(want), missing(got, want))
		}
	}
}

// missing returns the IDs of the fields of want that got lacks or holds with
// another value.
func missing(got, want map[int64]any) []int64 {
	var ids []int64
	for id, v := range want {
		if got[id] != v {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// sizes returns the sizes of lists.
func sizes(lists []map[int64]any) []int {
	out := make([]int, len(lists))
	for i, l := range lists {
		out[i] = len(l)
	}
	return out
}
