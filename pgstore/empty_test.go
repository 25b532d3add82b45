package pgstore_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/issuefields/issuefields/webhook"
)

// seedSmall seeds s with an organization, its two fields, two repositories
// and an issue with a value, and returns the repositories.
func seedSmall(t *testing.T, s *pgstore.Store) []issuefields.Repository {
	t.Helper()
	if err := s.AddOrganization("octo-org"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []issuefields.Field{
		{ID: 1, Name: "Priority", DataType: issuefields.DataTypeSingleSelect, Options: []issuefields.FieldOption{
			{ID: 11, Name: "High", Color: "red"}, {ID: 12, Name: "Low", Color: "green"}}},
		{ID: 2, Name: "Summary", DataType: issuefields.DataTypeText},
	} {
		if err := s.AddField("octo-org", f); err != nil {
			t.Fatal(err)
		}
	}
	var repos []issuefields.Repository
	for _, name := range []string{"hello", "world"} {
		r, err := s.AddRepository("octo-org", name, false)
		if err != nil {
			t.Fatal(err)
		}
		repos = append(repos, r)
	}
	if err := s.AddIssue("octo-org", "hello", 1); err != nil {
		t.Fatal(err)
	}
	if err := s.SetValues("octo-org", "hello", 1, []issuefields.Value{{FieldID: 1, OptionIDs: []int64{11}}}); err != nil {
		t.Fatal(err)
	}
	return repos
}

// TestEmpty checks that Empty empties every table of the data for both
// Stores on a database, that the same seeding then gives the same
// repository IDs while hook IDs go on, that no ETag from before matches
// after it, whichever server took it, and that both Stores' write
// limiters start every budget afresh.
func TestEmpty(t *testing.T) {
	ctx := context.Background()
	stores, sql := twoStores(t)
	first := seedSmall(t, stores[0])
	limits := issuefields.WriteLimits{PerMinute: 2, PerHour: -1}
	var handlers [2]http.Handler
	var limiters [2]*pgstore.WriteLimiter
	for i, s := range stores {
		limiters[i] = s.WriteLimiter(limits, quietLog(t))
		t.Cleanup(limiters[i].Close)
		handlers[i] = newLimitedHandler(t, s, limiters[i])
	}
	hello1 := valuesPath("octo-org", "hello", 1)
	var etags []string
	for i := range 2 {
		rec := serve(handlers[i], http.MethodGet, hello1, "")
		etags = append(etags, rec.Header().Get("ETag"))
		rec = serve(handlers[i], http.MethodPost, hello1, `{"issue_field_values": [{"field_id": 2, "value": "Before"}]}`)
		if rec.Code != http.StatusOK {
			t.Fatalf("POST to server %d = %d %s", i, rec.Code, rec.Body)
		}
		etags = append(etags, rec.Header().Get("ETag"))
	}
	refused := func(i int) bool {
		rec := serve(handlers[i], http.MethodPost, hello1, `{"issue_field_values": [{"field_id": 2, "value": "Over"}]}`)
		if rec.Code == http.StatusOK {
			etags = append(etags, rec.Header().Get("ETag"))
		}
		return rec.Code != http.StatusOK
	}
	for i := range 2 {
		if !refused(i) {
			t.Fatalf("server %d accepted a third write, past the budget of two a minute", i)
		}
	}
	hook, err := stores[0].Hooks().CreateHook(ctx, webhook.Hook{Scope: webhook.Scope{Organization: "octo-org"}, Active: true, Events: []string{"issues"}}, webhook.MaxHooks)
	if err != nil {
		t.Fatal(err)
	}
	// The Store that empties keeps the hook in its cache.
	if hooks, err := stores[1].Hooks().HooksFor(ctx, first[0]); err != nil || len(hooks) != 1 {
		t.Fatalf("HooksFor = %v, %v, want the hook", hooks, err)
	}

	if err := stores[1].Empty(ctx); err != nil {
		t.Fatalf("Empty: %v", err)
	}
	for _, table := range strings.Split("accounts fields field_options repositories repository_names issues hooks hook_deliveries write_budgets", " ") {
		var n int
		if err := sql.QueryRow(ctx, `SELECT count(*) FROM `+table).Scan(&n); err != nil || n != 0 {
			t.Errorf("after Empty, %s holds %d rows (%v), want none", table, n, err)
		}
	}
	var steps int
	if err := sql.QueryRow(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&steps); err != nil || steps == 0 {
		t.Errorf("after Empty, schema_migrations holds %d rows (%v), want the schema's steps", steps, err)
	}
	if hooks, err := stores[1].Hooks().HooksFor(ctx, first[0]); err != nil || len(hooks) != 0 {
		t.Errorf("HooksFor of the Store that emptied = %v, %v, want none at once", hooks, err)
	}

	again := seedSmall(t, stores[0])
	for i := range again {
		if again[i].ID != first[i].ID {
			t.Errorf("repository %s has ID %d after Empty, want %d as the first time", again[i].Name, again[i].ID, first[i].ID)
		}
	}
	rehook, err := stores[0].Hooks().CreateHook(ctx, webhook.Hook{Scope: webhook.Scope{Organization: "octo-org"}, Active: true, Events: []string{"issues"}}, webhook.MaxHooks)
	if err != nil {
		t.Fatal(err)
	}
	if rehook.ID <= hook.ID {
		t.Errorf("a hook created after Empty has ID %d, want one above %d, the ID of a hook before it", rehook.ID, hook.ID)
	}
	for i, h := range handlers {
		for _, etag := range etags {
			if etag == "" {
				t.Fatal("an answer from before Empty has no ETag")
			}
			rec := serve(h, http.MethodGet, hello1, "", "If-None-Match", etag)
			if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "Before") || !strings.Contains(rec.Body.String(), `"name":"High"`) {
				t.Errorf("server %d: GET with If-None-Match %s from before Empty = %d %s, want 200 with the seeded value", i, etag, rec.Code, rec.Body)
			}
		}
	}

	// The Store that emptied forgets its leases at once, the other one at
	// its next sweep.
	pgstore.SweepWriteLimiter(limiters[0])
	for i := range 2 {
		if refused(i) {
			t.Errorf("server %d refused a write after Empty, want every budget full again", i)
		}
	}
	values, _ := storedValues(t, stores[0], "octo-org", "hello", 1)
	if len(values) != 2 || values[1].Text != "Over" {
		t.Errorf("after Empty and the seeding, the writes left %+v, want the seeded value and the last write", values)
	}
}
