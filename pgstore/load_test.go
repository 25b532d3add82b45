package pgstore_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/issuefields/issuefields/webhook"
)

// errHalfWay is the error of a load that stops part-way, as one whose
// process is killed does.
var errHalfWay = errors.New("stopped half-way")

// isEmpty reports whether s holds no data, or fails t.
func isEmpty(t *testing.T, s *pgstore.Store) bool {
	t.Helper()
	empty, err := s.IsEmpty(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return empty
}

// TestLoadIfEmptyIsAllOrNothing checks that what LoadIfEmpty's load writes
// is seen by the load itself, by no other Store until the load returns, and
// by none at all when the load fails part-way, so that the next
// LoadIfEmpty loads again; and that a store that holds data is not loaded.
func TestLoadIfEmptyIsAllOrNothing(t *testing.T) {
	ctx := context.Background()
	stores, _ := twoStores(t)
	loaded, err := stores[0].LoadIfEmpty(ctx, func(ctx context.Context, into *pgstore.Store) error {
		seedSmall(t, into)
		if snap, err := into.Snapshot(ctx, "octo-org", "hello", 1); err != nil || snap.IssueErr != nil || len(snap.Issue.Values) != 1 {
			t.Errorf("within the load, Snapshot of octo-org/hello#1 = %+v, %v, want the value just seeded", snap, err)
		}
		if !isEmpty(t, stores[1]) {
			t.Error("during the load, another Store sees data, want none until the load is done")
		}
		return errHalfWay
	})
	if !loaded || !errors.Is(err, errHalfWay) {
		t.Errorf("LoadIfEmpty with a load that fails = %v, %v, want true and the load's error", loaded, err)
	}
	for i, s := range stores {
		if !isEmpty(t, s) {
			t.Errorf("after a load that failed half-way, Store %d sees data, want none", i+1)
		}
	}

	loaded, err = stores[1].LoadIfEmpty(ctx, func(ctx context.Context, into *pgstore.Store) error {
		seedSmall(t, into)
		return nil
	})
	if !loaded || err != nil {
		t.Fatalf("LoadIfEmpty after a failed load = %v, %v, want it to load", loaded, err)
	}
	if values, _ := storedValues(t, stores[0], "octo-org", "hello", 1); len(values) != 1 {
		t.Errorf("after the load, another Store reads %+v on octo-org/hello#1, want the value loaded", values)
	}
	loaded, err = stores[0].LoadIfEmpty(ctx, func(context.Context, *pgstore.Store) error {
		t.Error("LoadIfEmpty called load on a store that holds data")
		return nil
	})
	if loaded || err != nil {
		t.Errorf("LoadIfEmpty on a store that holds data = %v, %v, want false", loaded, err)
	}
}

// TestReloadIsOneStep checks that a Reload whose load fails part-way leaves
// the data as it was, that one that succeeds replaces it, for every Store,
// and that each Reload that commits moves the epoch, which every Store
// reads.
func TestReloadIsOneStep(t *testing.T) {
	ctx := context.Background()
	stores, _ := twoStores(t)
	seedSmall(t, stores[0])
	h := newHandler(t, stores[0])
	hello1 := valuesPath("octo-org", "hello", 1)
	if rec := serve(h, http.MethodPost, hello1, `{"issue_field_values": [{"field_id": 2, "value": "Before"}]}`); rec.Code != http.StatusOK {
		t.Fatalf("POST = %d %s", rec.Code, rec.Body)
	}
	epoch, err := stores[1].Epoch(ctx)
	if err != nil {
		t.Fatal(err)
	}

	err = stores[1].Reload(ctx, func(ctx context.Context, into *pgstore.Store) error {
		if !isEmpty(t, into) {
			t.Error("within the reload, the store holds data, want it emptied")
		}
		if err := into.AddOrganization("octo-org"); err != nil {
			t.Fatal(err)
		}
		return errHalfWay
	})
	if !errors.Is(err, errHalfWay) {
		t.Errorf("Reload with a load that fails = %v, want the load's error", err)
	}
	if values, _ := storedValues(t, stores[0], "octo-org", "hello", 1); len(values) != 2 || values[1].Text != "Before" {
		t.Errorf("after a reload that failed, the store holds %+v on octo-org/hello#1, want the values before it", values)
	}
	if e, err := stores[0].Epoch(ctx); err != nil || e != epoch {
		t.Errorf("after a reload that failed, Epoch = %d, %v, want %d as before", e, err, epoch)
	}

	// A read through another Store while the reload loads waits for it, and
	// then finds the data loaded, never a part of it.
	read := make(chan issuefields.Snapshot, 1)
	err = stores[1].Reload(ctx, func(ctx context.Context, into *pgstore.Store) error {
		go func() {
			snap, err := pgstore.New(stores[0].Pool(), pgstore.Timeout(time.Minute)).Snapshot(ctx, "octo-org", "hello", 1)
			if err != nil {
				snap.IssueErr = err
			}
			read <- snap
		}()
		seedSmall(t, into)
		return nil
	})
	if err != nil {
		t.Fatalf("Reload: %v", err)
	}
	if snap := <-read; snap.IssueErr != nil || len(snap.Issue.Values) != 1 {
		t.Errorf("a read during the reload = %+v, want the data loaded", snap)
	}
	if values, _ := storedValues(t, stores[0], "octo-org", "hello", 1); len(values) != 1 {
		t.Errorf("after the reload, the store holds %+v on octo-org/hello#1, want the seeded value alone", values)
	}
	for i, s := range stores {
		if e, err := s.Epoch(ctx); err != nil || e != epoch+1 {
			t.Errorf("after the reload, Epoch of Store %d = %d, %v, want %d", i+1, e, err, epoch+1)
		}
	}
}

// TestAWriteTellsOfAnotherStoresReset checks that a Store that learns of a
// reset through another Store from its own write forgets the hooks it read
// before it at once, rather than a second later.
func TestAWriteTellsOfAnotherStoresReset(t *testing.T) {
	ctx := context.Background()
	stores, _ := twoStores(t)
	repos := seedSmall(t, stores[0])
	scope := webhook.Scope{Organization: "octo-org"}
	if _, err := stores[0].Hooks().CreateHook(ctx, webhook.Hook{Scope: scope, Active: true, Events: []string{"issues"}}, webhook.MaxHooks); err != nil {
		t.Fatal(err)
	}
	if hooks, err := stores[0].Hooks().HooksFor(ctx, repos[0]); err != nil || len(hooks) != 1 {
		t.Fatalf("HooksFor = %v, %v, want the hook", hooks, err)
	}
	if err := stores[1].Empty(ctx); err != nil {
		t.Fatal(err)
	}
	seedSmall(t, stores[1])
	h := newHandler(t, stores[0])
	if rec := serve(h, http.MethodPost, valuesPath("octo-org", "hello", 1), `{"issue_field_values": [{"field_id": 2, "value": "After"}]}`); rec.Code != http.StatusOK {
		t.Fatalf("POST after the reset = %d %s", rec.Code, rec.Body)
	}
	if hooks, err := stores[0].Hooks().HooksFor(ctx, repos[0]); err != nil || len(hooks) != 0 {
		t.Errorf("after a write that followed another Store's reset, HooksFor = %v, %v, want none at once", hooks, err)
	}
}

// heldNotifier is a Notifier that holds each event until the test lets it
// go, and then gives it to next with the context that the handler gave it.
type heldNotifier struct {
	next    issuefields.Notifier
	reached chan struct{}
	release chan struct{}
}

func (n heldNotifier) Notify(ctx context.Context, e issuefields.Event) error {
	n.reached <- struct{}{}
	<-n.release
	return n.next.Notify(ctx, e)
}

// TestAnEventGoesToTheHooksOfItsWritesEpoch writes through one Store, and,
// after the write and before its event reaches the Notifier, resets
// through another Store that creates the hook again: the event of the write
// before the reset goes to no hook, while the event of a write after it
// goes to the new hook.
func TestAnEventGoesToTheHooksOfItsWritesEpoch(t *testing.T) {
	ctx := context.Background()
	stores, _ := twoStores(t)
	seedSmall(t, stores[0])
	got := make(chan string, 10)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- string(body)
	}))
	t.Cleanup(rc.Close)
	hook := webhook.Hook{Scope: webhook.Scope{Organization: "octo-org"}, Active: true, Events: []string{"issues"},
		Config: webhook.Config{URL: rc.URL, ContentType: "json", InsecureSSL: "0"}}
	if _, err := stores[0].Hooks().CreateHook(ctx, hook, webhook.MaxHooks); err != nil {
		t.Fatal(err)
	}
	n, err := webhook.New(webhook.Options{Store: stores[0].Hooks(), Epochs: stores[0], Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	held := heldNotifier{next: n, reached: make(chan struct{}, 1), release: make(chan struct{})}
	h, err := issuefields.New(issuefields.Config{
		Store:       stores[0],
		Verifier:    issuefields.TokenVerifierFunc(func(context.Context, string) (*issuefields.Principal, error) { return writer, nil }),
		WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: -1},
		Logger:      slog.New(slog.DiscardHandler),
		Notifier:    held,
	})
	if err != nil {
		t.Fatal(err)
	}
	marked := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(webhook.WithEpochMark(r.Context())))
	})
	hello1 := valuesPath("octo-org", "hello", 1)

	written := make(chan *httptest.ResponseRecorder, 1)
	go func() {
		written <- serve(marked, http.MethodPost, hello1, `{"issue_field_values": [{"field_id": 2, "value": "Before the reset"}]}`)
	}()
	<-held.reached
	if err := stores[1].Reload(ctx, func(ctx context.Context, into *pgstore.Store) error {
		seedSmall(t, into)
		_, err := into.Hooks().CreateHook(ctx, hook, webhook.MaxHooks)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	close(held.release)
	if rec := <-written; rec.Code != http.StatusOK {
		t.Fatalf("POST before the reset = %d %s", rec.Code, rec.Body)
	}
	if rec := serve(marked, http.MethodPost, hello1, `{"issue_field_values": [{"field_id": 2, "value": "After the reset"}]}`); rec.Code != http.StatusOK {
		t.Fatalf("POST after the reset = %d %s", rec.Code, rec.Body)
	}
	closeCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := n.Close(closeCtx); err != nil {
		t.Fatal(err)
	}
	close(got)
	var bodies []string
	for body := range got {
		bodies = append(bodies, body)
	}
	if len(bodies) != 1 || !strings.Contains(bodies[0], "After the reset") {
		t.Errorf("the receiver got %d deliveries, want the one of the write after the reset:\n%s", len(bodies), strings.Join(bodies, "\n"))
	}
}
