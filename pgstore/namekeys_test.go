package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/jackc/pgx/v5/pgxpool"
)

// TestNameIndexRefusesTakenNames gives ChangeFields, without the handler's
// checks, fields and options whose names another one has under the rules of
// names: the database's unique indexes refuse each, and
// nothing changes.
func TestNameIndexRefusesTakenNames(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	must(t, s.AddOrganization("octo-org"))
	stage := issuefields.Field{Name: "Stage", DataType: issuefields.DataTypeSingleSelect,
		Options: []issuefields.FieldOption{{Name: "High", Color: "red"}}}
	seeded, err := s.ChangeFields(ctx, "octo-org", func([]issuefields.Field) ([]issuefields.Field, error) {
		return []issuefields.Field{{Name: "Team", DataType: issuefields.DataTypeText}, stage}, nil
	})
	must(t, err)
	withOption := func(name string) []issuefields.Field {
		next := slices.Clone(seeded)
		next[1].Options = append(slices.Clone(next[1].Options), issuefields.FieldOption{Name: name, Color: "blue"})
		return next
	}
	renamed := slices.Clone(seeded)
	renamed[1].Name = "ＴＥＡＭ"
	for what, next := range map[string][]issuefields.Field{
		"a new field named team":     append(slices.Clip(seeded), issuefields.Field{Name: "team", DataType: issuefields.DataTypeDate}),
		"two new fields of one name": {{Name: "Size", DataType: issuefields.DataTypeText}, {Name: "size\u200b", DataType: issuefields.DataTypeText}},
		"a field renamed to ＴＥＡＭ":    renamed,
		"a new option named ｈｉｇｈ":    withOption("ｈｉｇｈ"),
		"a new option named High":    withOption("High"),
		"a new field with two Lows": append(slices.Clip(seeded), issuefields.Field{Name: "Risk", DataType: issuefields.DataTypeMultiSelect,
			Options: []issuefields.FieldOption{{Name: "Low", Color: "green"}, {Name: "LOW", Color: "green"}}}),
	} {
		_, err := s.ChangeFields(ctx, "octo-org", func([]issuefields.Field) ([]issuefields.Field, error) { return next, nil })
		if err == nil || errors.Is(err, issuefields.ErrUnavailable) {
			t.Errorf("ChangeFields with %s: error %v, want the index's refusal", what, err)
		}
		if fields, err := s.OrganizationFields(ctx, "octo-org"); err != nil || !equalNames(fields, seeded) {
			t.Errorf("after ChangeFields with %s was refused, the fields are %+v, %v; want %+v", what, fields, err, seeded)
		}
	}
}

// equalNames reports whether a and b are fields with the same IDs and names,
// and options with the same IDs and names.
func equalNames(a, b []issuefields.Field) bool {
	return slices.EqualFunc(a, b, func(f, g issuefields.Field) bool {
		return f.ID == g.ID && f.Name == g.Name && slices.EqualFunc(f.Options, g.Options, func(o, p issuefields.FieldOption) bool {
			return o.ID == p.ID && o.Name == p.Name
		})
	})
}

// TestOneNameFromTwoServers has two servers, each with a pool of its own on
// one database, create fields of one name under two spellings at once: of
// each pair exactly one is created, and the other is refused with 422.
func TestOneNameFromTwoServers(t *testing.T) {
	ctx := context.Background()
	_, cfg := newSchema(t)
	var handlers [2]http.Handler
	var seed *pgstore.Store
	for i := range handlers {
		pool := newPool(t, cfg.Copy())
		must(t, pgstore.Migrate(ctx, pool))
		seed = pgstore.New(pool)
		handlers[i] = newFieldsAdminHandler(t, seed)
	}
	must(t, seed.AddOrganization("octo-org"))
	const pairs = 10
	status := make([][2]int, pairs)
	var wg sync.WaitGroup
	for i := range pairs {
		for j, name := range []string{fmt.Sprint("Team ", i), fmt.Sprint("ＴＥＡＭ ", i)} {
			wg.Go(func() {
				rec := serve(handlers[j], http.MethodPost, "/orgs/octo-org/issue-fields", fmt.Sprintf(`{"name":%q,"data_type":"text"}`, name))
				status[i][j] = rec.Code
			})
		}
	}
	wg.Wait()
	for i, got := range status {
		if !slices.Equal(slices.Sorted(slices.Values(got[:])), []int{http.StatusOK, http.StatusUnprocessableEntity}) {
			t.Errorf("pair %d: the servers answered %v, want one 200 and one 422", i, got)
		}
	}
	fields, err := seed.OrganizationFields(ctx, "octo-org")
	must(t, err)
	if len(fields) != pairs {
		t.Errorf("the organization has %d fields, want %d, one of each pair: %+v", len(fields), pairs, fields)
	}
}

// newFieldsAdminHandler returns a handler over s whose every caller is
// fieldsAdmin, with the secondary rate limit off and its log discarded.
func newFieldsAdminHandler(t testing.TB, s *pgstore.Store) http.Handler {
	t.Helper()
	h, err := issuefields.New(issuefields.Config{Store: s,
		Verifier: issuefields.TokenVerifierFunc(func(context.Context, string) (*issuefields.Principal, error) {
			return fieldsAdmin, nil
		}),
		WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: -1},
		Logger:      slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestNamesFromBeforeTheRule gives octo-org fields and options whose names
// collide under the rules of names, written as rows that a store wrote
// before schema step 6, without their keys: both of each pair keep being
// served, a change of the organization's fields keeps them and keys the
// first of each, a rename of the second frees it, and a new field of the
// taken name is refused.
func TestNamesFromBeforeTheRule(t *testing.T) {
	s, pool := newStore(t)
	must(t, s.AddOrganization("octo-org"))
	_, err := s.AddRepository("octo-org", "hello-world", false)
	must(t, err)
	must(t, s.AddIssue("octo-org", "hello-world", 1))
	legacyFields(t, pool, "octo-org")
	must(t, s.SetValues("octo-org", "hello-world", 1, []issuefields.Value{
		{FieldID: 1, Text: "first"}, {FieldID: 2, Text: "second"}, {FieldID: 3, OptionIDs: []int64{5}}}))
	h := newFieldsAdminHandler(t, s)
	path := valuesPath("octo-org", "hello-world", 1)

	rec := serve(h, http.MethodPatch, "/orgs/octo-org/issue-fields/6", `{"name":"Remarks"}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("a change of another field: %d %s, want 200", rec.Code, rec.Body)
	}
	if got := listAll(t, h, path); len(got) != 3 || got[1] != "first" || got[2] != "second" || got[3] != float64(5) {
		t.Errorf("after the change the issue lists %v, want both fields' values and option 5", got)
	}
	want := map[string]*string{"fields 1": ptr("team"), "fields 2": nil, "options 4": ptr("high"), "options 5": nil, "fields 6": ptr("remarks")}
	checkKeys(t, pool, want)

	for _, c := range []struct{ method, path, body string }{
		{http.MethodPatch, "/orgs/octo-org/issue-fields/2", `{"description":"The second team"}`},
		{http.MethodPatch, "/orgs/octo-org/issue-fields/3", `{"options":[{"id":4,"name":"High","color":"red"},{"id":5,"name":"HIGHER","color":"red"}]}`},
		{http.MethodPatch, "/orgs/octo-org/issue-fields/2", `{"name":"Squad"}`},
	} {
		if rec := serve(h, c.method, c.path, c.body); rec.Code != http.StatusOK {
			t.Errorf("%s %s %s: %d %s, want 200", c.method, c.path, c.body, rec.Code, rec.Body)
		}
	}
	want["fields 2"], want["options 5"] = ptr("squad"), ptr("higher")
	checkKeys(t, pool, want)
	if rec := serve(h, http.MethodPost, "/orgs/octo-org/issue-fields", `{"name":"TEAM","data_type":"text"}`); rec.Code != http.StatusUnprocessableEntity {
		t.Errorf("a new field named TEAM: %d %s, want 422", rec.Code, rec.Body)
	}
}

// legacyFields gives the organization org, which has no fields, the fields
// and options that a database may hold from before the rules of names, as
// rows without keys: text fields 1 "Team" and 2 "team", single_select field
// 3 "Level" with options 4 "High" and 5 "high", and text field 6 "Notes".
func legacyFields(t testing.TB, pool *pgxpool.Pool, org string) {
	t.Helper()
	_, err := pool.Exec(context.Background(), `
		WITH a AS (SELECT id FROM accounts WHERE login = $1),
		f AS (INSERT INTO fields (account_id, id, position, name, data_type)
			SELECT a.id, v.id, v.id, v.name, v.data_type FROM a,
			(VALUES (1, 'Team', 'text'), (2, 'team', 'text'), (3, 'Level', 'single_select'), (6, 'Notes', 'text')) AS v (id, name, data_type)
			RETURNING account_id)
		INSERT INTO field_options (account_id, field_id, id, position, name, color)
			SELECT a.id, 3, v.id, v.id, v.name, 'red' FROM a, (VALUES (4, 'High'), (5, 'high')) AS v (id, name)`, org)
	if err != nil {
		t.Fatal(err)
	}
	_, err = pool.Exec(context.Background(), `UPDATE accounts SET last_field_id = 6 WHERE login = $1`, org)
	if err != nil {
		t.Fatal(err)
	}
}

// checkKeys checks the keys of the names of fields and options, by "fields
// ID" and "options ID": nil for none.
func checkKeys(t *testing.T, pool *pgxpool.Pool, want map[string]*string) {
	t.Helper()
	rows, err := pool.Query(context.Background(), `
		SELECT 'fields ' || id, name_key FROM fields UNION ALL SELECT 'options ' || id, name_key FROM field_options`)
	if err != nil {
		t.Fatal(err)
	}
	got := make(map[string]*string)
	for rows.Next() {
		var row string
		var key *string
		if err := rows.Scan(&row, &key); err != nil {
			t.Fatal(err)
		}
		got[row] = key
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for row, key := range want {
		if k, ok := got[row]; !ok || (k == nil) != (key == nil) || k != nil && *k != *key {
			t.Errorf("the key of %s is %s, want %s", row, show(k), show(key))
		}
	}
}

// ptr returns a pointer to s.
func ptr(s string) *string { return &s }

// show returns *key quoted, or NULL.
func show(key *string) string {
	if key == nil {
		return "NULL"
	}
	return fmt.Sprintf("%q", *key)
}
