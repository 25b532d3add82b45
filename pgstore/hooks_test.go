package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/issuefields/issuefields/webhook"
	"github.com/jackc/pgx/v5"
)

// twoStores returns two Stores, each with a pool of its own, over one new,
// migrated schema, as two servers would have, and a connection of its own to
// the schema.
func twoStores(t *testing.T) ([2]*pgstore.Store, *pgx.Conn) {
	t.Helper()
	_, cfg := newSchema(t)
	var stores [2]*pgstore.Store
	for i := range stores {
		stores[i] = pgstore.New(newPool(t, cfg.Copy()))
	}
	if err := pgstore.Migrate(context.Background(), stores[0].Pool()); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.ConnectConfig(context.Background(), cfg.ConnConfig.Copy())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return stores, conn
}

// TestHooksSharedByStores checks that two Stores over one database see the
// same hooks and deliveries, that concurrent creations through both keep the
// limit of a scope, and that concurrent deliveries through both keep the
// newest KeptDeliveries of the hook, and never more.
func TestHooksSharedByStores(t *testing.T) {
	ctx := context.Background()
	stores, sql := twoStores(t)
	scope := webhook.Scope{Organization: "octo-org"}

	const creators, limit = 30, 20
	var wg sync.WaitGroup
	errs := make([]error, creators)
	for i := range creators {
		wg.Go(func() {
			_, errs[i] = stores[i%2].Hooks().CreateHook(ctx, webhook.Hook{Scope: scope, Events: []string{"issues"}}, limit)
		})
	}
	wg.Wait()
	created := 0
	for i, err := range errs {
		switch {
		case err == nil:
			created++
		case !errors.Is(err, webhook.ErrTooManyHooks):
			t.Errorf("creator %d: %v, want nil or ErrTooManyHooks", i, err)
		}
	}
	if created != limit {
		t.Errorf("%d of %d creators through two Stores succeeded with max %d, want exactly %d", created, creators, limit, limit)
	}
	hooks := make([][]webhook.Hook, len(stores))
	for i, s := range stores {
		var err error
		if hooks[i], err = s.Hooks().Hooks(ctx, webhook.Scope{Organization: "Octo-Org"}); err != nil {
			t.Fatal(err)
		}
	}
	if len(hooks[0]) != limit || !slices.EqualFunc(hooks[0], hooks[1], func(a, b webhook.Hook) bool { return a.ID == b.ID }) {
		t.Fatalf("the two Stores list the hooks %v and %v, want the same %d", hooks[0], hooks[1], limit)
	}

	// The hook has one delivery short of KeptDeliveries, then both Stores
	// record deliveries at once.
	hook := hooks[0][0].ID
	_, err := sql.Exec(ctx, `INSERT INTO hook_deliveries (hook_id, guid, delivered_at, redelivery, duration_ns, status,
			status_code, event, action, installation_id, repository_id, url,
			request_headers, request_body, request_truncated, response_headers, response_body, response_truncated)
		SELECT $1, 'old', now(), false, 0, 'OK', 200, 'issues', 'field_added', 0, 0, '', 'null', '', false, 'null', '', false
		FROM generate_series(1, $2)`, hook, webhook.KeptDeliveries-1)
	if err != nil {
		t.Fatal(err)
	}
	// A watcher counts the hook's deliveries meanwhile, as a list would.
	done, most := make(chan struct{}), make(chan int)
	go func() {
		seen := 0
		for {
			select {
			case <-done:
				most <- seen
				return
			default:
			}
			var n int
			if err := sql.QueryRow(ctx, `SELECT count(*) FROM hook_deliveries WHERE hook_id = $1`, hook).Scan(&n); err != nil {
				t.Error(err)
			}
			seen = max(seen, n)
		}
	}()
	const writers, each = 8, 5
	added := make([][]webhook.Delivery, writers)
	for w := range writers {
		wg.Go(func() {
			for range each {
				d, err := stores[w%2].Hooks().AddDelivery(ctx, webhook.Delivery{HookID: hook, GUID: fmt.Sprint("writer ", w), StatusCode: 200})
				if err != nil {
					t.Errorf("writer %d: AddDelivery: %v", w, err)
					return
				}
				added[w] = append(added[w], d)
			}
		})
	}
	wg.Wait()
	close(done)
	if seen := <-most; seen > webhook.KeptDeliveries {
		t.Errorf("while two Stores recorded deliveries at once, the hook had %d deliveries, more than %d", seen, webhook.KeptDeliveries)
	}
	var newest []int64
	for _, ds := range added {
		for i, d := range ds {
			if i > 0 && d.ID <= ds[i-1].ID {
				t.Errorf("AddDelivery gave the ID %d after %d", d.ID, ds[i-1].ID)
			}
			newest = append(newest, d.ID)
		}
	}
	slices.Sort(newest)
	slices.Reverse(newest)
	var kept int
	if err := sql.QueryRow(ctx, `SELECT count(*) FROM hook_deliveries WHERE hook_id = $1`, hook).Scan(&kept); err != nil {
		t.Fatal(err)
	}
	if kept != webhook.KeptDeliveries {
		t.Errorf("after concurrent deliveries through two Stores, the hook has %d deliveries, want %d", kept, webhook.KeptDeliveries)
	}
	for i, s := range stores {
		ds, err := s.Hooks().Deliveries(ctx, hook, webhook.DeliveryQuery{Limit: len(newest)})
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, d := range ds {
			got = append(got, d.ID)
		}
		if !slices.Equal(got, newest) {
			t.Errorf("Store %d lists the deliveries %v, want those recorded through both, newest first: %v", i, got, newest)
		}
	}
}

// TestLockedHookIsBounded holds the row of a hook locked in a transaction of
// its own, as a psql session would: UpdateHook and AddDelivery of the hook
// must fail with ErrUnavailable after the store's Timeout, while the reads
// of its hooks and deliveries, and a delivery to another hook, answer at
// once.
func TestLockedHookIsBounded(t *testing.T) {
	ctx := context.Background()
	_, cfg := newSchema(t)
	s := pgstore.New(newPool(t, cfg.Copy()), pgstore.Timeout(testTimeout))
	if err := pgstore.Migrate(ctx, s.Pool()); err != nil {
		t.Fatal(err)
	}
	scope := webhook.Scope{RepositoryID: 1}
	var hooks [2]webhook.Hook
	for i := range hooks {
		var err error
		if hooks[i], err = s.Hooks().CreateHook(ctx, webhook.Hook{Scope: scope}, webhook.MaxHooks); err != nil {
			t.Fatal(err)
		}
	}
	locked := hooks[0].ID
	locker, err := pgx.ConnectConfig(ctx, cfg.ConnConfig.Copy())
	if err != nil {
		t.Fatal(err)
	}
	defer locker.Close(ctx)
	tx, err := locker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `SELECT FROM hooks WHERE id = $1 FOR UPDATE`, locked); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name      string
		call      func() error
		available bool
	}{
		{"UpdateHook of the locked hook", func() error {
			_, err := s.Hooks().UpdateHook(ctx, scope, locked, func(h webhook.Hook) (webhook.Hook, error) { return h, nil })
			return err
		}, false},
		{"AddDelivery to the locked hook", func() error {
			_, err := s.Hooks().AddDelivery(ctx, webhook.Delivery{HookID: locked})
			return err
		}, false},
		{"AddDelivery to another hook", func() error {
			_, err := s.Hooks().AddDelivery(ctx, webhook.Delivery{HookID: hooks[1].ID})
			return err
		}, true},
		{"Hooks", func() error {
			_, err := s.Hooks().Hooks(ctx, scope)
			return err
		}, true},
		{"HooksFor", func() error {
			_, err := s.Hooks().HooksFor(ctx, issuefields.Repository{ID: 1})
			return err
		}, true},
		{"Deliveries of the locked hook", func() error {
			_, err := s.Hooks().Deliveries(ctx, locked, webhook.DeliveryQuery{Limit: 10})
			return err
		}, true},
	} {
		start := time.Now()
		err := c.call()
		took := time.Since(start)
		switch {
		case c.available && err != nil:
			t.Errorf("%s while the hook is locked: %v", c.name, err)
		case !c.available && !errors.Is(err, issuefields.ErrUnavailable):
			t.Errorf("%s while the hook is locked: error = %v, want ErrUnavailable", c.name, err)
		case !c.available && took > 3*testTimeout:
			t.Errorf("%s while the hook is locked took %v, want about the Timeout, %v", c.name, took, testTimeout)
		case c.available && took > testTimeout/2:
			t.Errorf("%s while another hook is locked took %v, want no wait", c.name, took)
		}
	}
}

// TestHookRoundTrips checks that, once its connection has prepared its
// statements, each method of webhook.Store makes one round trip to the
// database but for UpdateHook, a transaction of four, Deliveries of a hook
// without deliveries, which makes a second to tell whether the hook exists,
// and HooksFor asked again within a second, which makes none.
func TestHookRoundTrips(t *testing.T) {
	ctx := context.Background()
	_, cfg := newSchema(t)
	trips := &roundTrips{}
	cfg.ConnConfig.Tracer = trips
	s := openStore(t, cfg, pgstore.PoolSize(1))
	if err := pgstore.Migrate(ctx, s.Pool()); err != nil {
		t.Fatal(err)
	}
	scope := webhook.Scope{Organization: "octo-org"}
	repo := issuefields.Repository{ID: 1, Owner: "octo-org", OwnedByOrganization: true}
	var hook webhook.Hook
	var delivery webhook.Delivery
	calls := []struct {
		name string
		call func() error
		most int64
	}{
		{"CreateHook", func() (err error) {
			hook, err = s.Hooks().CreateHook(ctx, webhook.Hook{Scope: scope, Events: []string{"issues"}}, webhook.MaxHooks)
			return err
		}, 1},
		{"UpdateHook", func() error {
			_, err := s.Hooks().UpdateHook(ctx, scope, hook.ID, func(h webhook.Hook) (webhook.Hook, error) { return h, nil })
			return err
		}, 4},
		{"Hooks", func() error { _, err := s.Hooks().Hooks(ctx, scope); return err }, 1},
		{"HooksFor", func() error { _, err := s.Hooks().HooksFor(ctx, repo); return err }, 1},
		{"HooksFor again", func() error { _, err := s.Hooks().HooksFor(ctx, repo); return err }, 0},
		{"AddDelivery", func() (err error) {
			delivery, err = s.Hooks().AddDelivery(ctx, webhook.Delivery{HookID: hook.ID, StatusCode: 200})
			return err
		}, 1},
		{"Deliveries", func() error {
			_, err := s.Hooks().Deliveries(ctx, hook.ID, webhook.DeliveryQuery{Limit: 30})
			return err
		}, 1},
		{"Delivery", func() error { _, err := s.Hooks().Delivery(ctx, hook.ID, delivery.ID); return err }, 1},
		{"DeleteHook", func() error { return s.Hooks().DeleteHook(ctx, scope, hook.ID) }, 1},
	}
	for round := range 2 {
		for _, c := range calls {
			before := trips.n.Load()
			if err := c.call(); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			n := trips.n.Load() - before
			// The first round prepares the statements.
			if round == 0 {
				continue
			}
			t.Logf("%s: %d round trips", c.name, n)
			if n > c.most {
				t.Errorf("%s: %d round trips to the database, want at most %d", c.name, n, c.most)
			}
		}
	}
}

// TestHooksForFollowsOtherStores checks what HooksFor of a Store tells once
// a hook changes: at once when the change goes through that Store, and
// within a second when it goes through another Store on the database; and
// that a repeated HooksFor within that second costs the database nothing.
func TestHooksForFollowsOtherStores(t *testing.T) {
	ctx := context.Background()
	stores, _ := twoStores(t)
	repo := issuefields.Repository{ID: 7, Owner: "Octo-Org", OwnedByOrganization: true}
	ids := func(s *pgstore.Store) []int64 {
		t.Helper()
		hooks, err := s.Hooks().HooksFor(ctx, repo)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, h := range hooks {
			ids = append(ids, h.ID)
		}
		return ids
	}
	for _, s := range stores {
		if got := ids(s); len(got) != 0 {
			t.Fatalf("HooksFor before any hook = %v, want none", got)
		}
	}
	hook, err := stores[0].Hooks().CreateHook(ctx, webhook.Hook{Scope: webhook.Scope{Organization: "octo-org"}, Active: true, Events: []string{"issues"}}, webhook.MaxHooks)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(stores[0]); !slices.Equal(got, []int64{hook.ID}) {
		t.Errorf("HooksFor of the Store that created hook %d = %v, want it at once", hook.ID, got)
	}
	for deadline := time.Now().Add(2 * time.Second); !slices.Equal(ids(stores[1]), []int64{hook.ID}); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("HooksFor of the other Store = %v two seconds after hook %d was created, want it within one", ids(stores[1]), hook.ID)
		}
	}
	if err := stores[1].Hooks().DeleteHook(ctx, hook.Scope, hook.ID); err != nil {
		t.Fatal(err)
	}
	if got := ids(stores[1]); len(got) != 0 {
		t.Errorf("HooksFor of the Store that deleted hook %d = %v, want none at once", hook.ID, got)
	}
}
