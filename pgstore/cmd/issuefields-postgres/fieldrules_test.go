package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// TestNamesFromBeforeTheRules starts the command on a database that schema
// step 5 left with fields and options whose names the rules of names find
// taken or refuse: the command migrates it, serves every one of them, logs
// each once, and takes a change of another field; a second start logs them
// again, once.
func TestNamesFromBeforeTheRules(t *testing.T) {
	dsn := newDatabase(t)
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	migrateToStep5(t, pool)
	store := pgstore.New(pool)
	for _, seed := range []func() error{
		func() error { return store.AddOrganization("octo-org") },
		func() error { _, err := store.AddRepository("octo-org", "hello-world", false); return err },
		func() error {
			// As step 5 held an issue: AddIssue writes the columns of later
			// steps, which step 11 fills for the rows it finds.
			_, err := pool.Exec(ctx, `INSERT INTO issues (repository_id, number) SELECT id, 1 FROM repositories WHERE name = 'hello-world'`)
			return err
		},
		func() error {
			_, err := pool.Exec(ctx, `
				WITH a AS (SELECT id FROM accounts WHERE login = 'octo-org'),
				f AS (INSERT INTO fields (account_id, id, position, name, data_type)
					SELECT a.id, v.id, v.id, v.name, v.data_type FROM a, (VALUES (1, 'Team', 'text'), (2, 'team', 'text'),
						(3, 'Level', 'single_select'), (6, E'Notes\u202e', 'text'), (7, 'Due', 'date')) AS v (id, name, data_type)
					RETURNING account_id)
				INSERT INTO field_options (account_id, field_id, id, position, name, color)
					SELECT a.id, 3, v.id, v.id, v.name, 'red' FROM a, (VALUES (4, 'High'), (5, 'high')) AS v (id, name)`)
			return err
		},
		func() error {
			return store.SetValues("octo-org", "hello-world", 1, []issuefields.Value{
				{FieldID: 1, Text: "first"}, {FieldID: 2, Text: "second"}, {FieldID: 3, OptionIDs: []int64{5}}})
		},
	} {
		if err := seed(); err != nil {
			t.Fatal(err)
		}
	}
	problems := []string{`duplicate field name \"team\"`, `duplicate option name \"high\"`, "bidirectional control U+202E"}

	r := start(t, "-postgres", dsn)
	hello1 := valuesURL(r, "octo-org/hello-world", 1)
	for _, want := range []string{`"value":"first"`, `"value":"second"`, `"name":"high"`} {
		if status, body := do(t, http.MethodGet, hello1, "demo-reader-token", ""); status != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("GET octo-org/hello-world#1 = %d %s, want 200 with %s", status, body, want)
		}
	}
	status, body := do(t, http.MethodPatch, r.base+"orgs/octo-org/issue-fields/7", "demo-fields-admin-token", `{"name":"Due date"}`)
	if status != http.StatusOK {
		t.Errorf("renaming another field = %d %s, want 200", status, body)
	}
	if status, body := do(t, http.MethodGet, hello1, "demo-reader-token", ""); status != http.StatusOK || strings.Count(body, `"issue_field_id"`) != 3 {
		t.Errorf("after the change, GET octo-org/hello-world#1 = %d %s, want the three values", status, body)
	}
	if err := r.stop(); err != nil {
		t.Fatal(err)
	}
	again := start(t, "-postgres", dsn)
	if err := again.stop(); err != nil {
		t.Fatal(err)
	}
	for i, logs := range []string{r.logs.String(), again.logs.String()} {
		for _, problem := range problems {
			if n := strings.Count(logs, problem); n != 1 {
				t.Errorf("start %d logged %q %d times, want once:\n%s", i+1, problem, n, logs)
			}
		}
	}
}

// migrateToStep5 brings the schema of pool's connections to step 5, as a
// version of pgstore before step 6 left it.
func migrateToStep5(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	ctx := context.Background()
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `CREATE TABLE schema_migrations (
			version     integer     PRIMARY KEY,
			description text        NOT NULL,
			applied_at  timestamptz NOT NULL DEFAULT now())`)
		if err != nil {
			return err
		}
		for version := 1; version <= 5; version++ {
			files, err := filepath.Glob(filepath.Join("..", "..", "migrations", "00"+string(rune('0'+version))+"_*.sql"))
			if err != nil || len(files) != 1 {
				t.Fatalf("the file of schema step %d: %v %v", version, files, err)
			}
			sql, err := os.ReadFile(files[0])
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, string(sql)); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, description) VALUES ($1, $2)`, version, files[0]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
