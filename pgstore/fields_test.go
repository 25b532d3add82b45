package pgstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
)

// TestFieldChangesAcrossServers has two stores, each with a pool of its own
// over one database as two servers would have, add fields to one organization
// at once, and deletes one through the other: every field is kept with an ID
// of its own, each store sees the other's changes at once, and the deleted
// field's values go from the issue in the same change.
func TestFieldChangesAcrossServers(t *testing.T) {
	ctx := context.Background()
	_, cfg := newSchema(t)
	stores := [2]*pgstore.Store{}
	for i := range stores {
		pool := newPool(t, cfg.Copy())
		if err := pgstore.Migrate(ctx, pool); err != nil {
			t.Fatal(err)
		}
		stores[i] = pgstore.New(pool)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(stores[0].AddOrganization("octo-org"))
	must(stores[0].AddField("octo-org", issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.Text}))
	repo, err := stores[0].AddRepository("octo-org", "hello-world", false)
	must(err)
	must(stores[0].AddIssue("octo-org", "hello-world", 1))
	must(stores[0].SetValues("octo-org", "hello-world", 1, []issuefields.Value{{FieldID: 1, Text: "note"}}))

	const adds = 20
	var wg sync.WaitGroup
	errs := make([]error, adds)
	for i := range adds {
		wg.Go(func() {
			_, errs[i] = stores[i%2].ChangeFields(ctx, "octo-org", func(current []issuefields.Field) ([]issuefields.Field, error) {
				return append(slices.Clip(current), issuefields.Field{Name: fmt.Sprint("Field ", i), DataType: issuefields.Number}), nil
			})
		})
	}
	wg.Wait()
	for _, err := range errs {
		must(err)
	}
	for i, s := range stores {
		fields, err := s.Fields(ctx, repo)
		must(err)
		ids := map[int64]bool{}
		for _, f := range fields {
			ids[f.ID] = true
		}
		if len(fields) != adds+1 || len(ids) != adds+1 {
			t.Errorf("store %d sees %d fields with %d IDs, want %d of each", i, len(fields), len(ids), adds+1)
		}
	}

	key := issuefields.IssueKey{RepositoryID: repo.ID, Number: 1}
	_, before, err := stores[0].Values(ctx, key)
	must(err)
	_, err = stores[1].ChangeFields(ctx, "octo-org", func(current []issuefields.Field) ([]issuefields.Field, error) {
		return slices.DeleteFunc(slices.Clone(current), func(f issuefields.Field) bool { return f.ID == 1 }), nil
	})
	must(err)
	values, after, err := stores[0].Values(ctx, key)
	must(err)
	if len(values) != 0 || after == before {
		t.Errorf("after field 1 went through the other server, the issue holds %v at version %q (was %q); want none, at a new version", values, after, before)
	}
	fields, err := stores[0].OrganizationFields(ctx, "OCTO-ORG")
	must(err)
	if slices.ContainsFunc(fields, func(f issuefields.Field) bool { return f.ID == 1 }) {
		t.Errorf("the other server still lists the deleted field")
	}
}

// fieldsAdmin may write every repository's values and manage every
// organization's fields.
var fieldsAdmin = &issuefields.Principal{
	Kind:        issuefields.FineGrainedPersonalAccessToken,
	Login:       "fields-admin",
	Permissions: writer.Permissions,
	OrganizationPermissions: func(context.Context, string) (issuefields.OrganizationPermissions, error) {
		return issuefields.OrganizationPermissions{Visible: true, IssueFields: issuefields.PermissionWrite}, nil
	},
}

// TestFieldRoutesAcrossServers manages a field through one server's handler
// and uses it through another's, each over a pool of its own on one
// database: the new field takes a value at once, and once deleted it is
// refused, gone from the list, and the list's ETag changes.
func TestFieldRoutesAcrossServers(t *testing.T) {
	ctx := context.Background()
	_, cfg := newSchema(t)
	var handlers [2]http.Handler
	var seed *pgstore.Store
	for i := range handlers {
		pool := newPool(t, cfg.Copy())
		if err := pgstore.Migrate(ctx, pool); err != nil {
			t.Fatal(err)
		}
		seed = pgstore.New(pool)
		h, err := issuefields.New(issuefields.Config{Store: seed,
			Verifier: issuefields.TokenVerifierFunc(func(context.Context, string) (*issuefields.Principal, error) {
				return fieldsAdmin, nil
			}),
			Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		handlers[i] = h
	}
	if err := seed.AddOrganization("octo-org"); err != nil {
		t.Fatal(err)
	}
	if _, err := seed.AddRepository("octo-org", "hello-world", false); err != nil {
		t.Fatal(err)
	}
	if err := seed.AddIssue("octo-org", "hello-world", 1); err != nil {
		t.Fatal(err)
	}
	one, other := handlers[0], handlers[1]
	path := valuesPath("octo-org", "hello-world", 1)

	rec := serve(one, http.MethodPost, "/orgs/octo-org/issue-fields", `{"name":"Team","data_type":"text"}`)
	var created issuefields.IssueField
	if err := json.Unmarshal(rec.Body.Bytes(), &created); rec.Code != http.StatusOK || err != nil {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	if rec := serve(other, http.MethodPost, path, textBody(created.ID, "Platform")); rec.Code != http.StatusOK {
		t.Fatalf("the other server writes the new field: %d %s", rec.Code, rec.Body)
	}
	rec = serve(other, http.MethodGet, path, "")
	tag := rec.Header().Get("ETag")
	if !strings.Contains(rec.Body.String(), `"issue_field_name":"Team"`) {
		t.Fatalf("list: %s", rec.Body)
	}
	if rec := serve(one, http.MethodDelete, fmt.Sprintf("/orgs/octo-org/issue-fields/%d", created.ID), ""); rec.Code != http.StatusNoContent {
		t.Fatalf("delete: %d %s", rec.Code, rec.Body)
	}
	rec = serve(other, http.MethodGet, path, "", "If-None-Match", tag)
	if rec.Code != http.StatusOK || strings.TrimSpace(rec.Body.String()) != "[]" || rec.Header().Get("ETag") == tag {
		t.Errorf("after the delete the other server lists %d %s with ETag %q (was %q); want [] under a new ETag",
			rec.Code, rec.Body, rec.Header().Get("ETag"), tag)
	}
	if rec := serve(other, http.MethodPost, path, textBody(created.ID, "again")); rec.Code != http.StatusUnprocessableEntity {
		t.Errorf("the other server writes the deleted field: %d %s, want 422", rec.Code, rec.Body)
	}
	if rec := serve(other, http.MethodGet, "/orgs/octo-org/issue-fields", ""); strings.TrimSpace(rec.Body.String()) != "[]" {
		t.Errorf("the other server lists the fields %s, want []", rec.Body)
	}
}

// TestUpdateStoresNoDeletedField checks that Update, which the handler uses
// after losing a compare-and-set, does not store a value of a field that was
// deleted after the write was validated.
func TestUpdateStoresNoDeletedField(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.AddOrganization("octo-org"))
	must(s.AddField("octo-org", issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.Text}))
	must(s.AddField("octo-org", issuefields.Field{ID: 2, Name: "Team", DataType: issuefields.Text}))
	repo, err := s.AddRepository("octo-org", "hello-world", false)
	must(err)
	must(s.AddIssue("octo-org", "hello-world", 1))
	key := issuefields.IssueKey{RepositoryID: repo.ID, Number: 1}
	// The write is validated while field 1 exists; then field 1 goes.
	_, err = s.ChangeFields(ctx, "octo-org", func(current []issuefields.Field) ([]issuefields.Field, error) {
		return current[1:], nil
	})
	must(err)
	_, err = s.Update(ctx, key, func(current []issuefields.Value, _ issuefields.Version) ([]issuefields.Value, error) {
		return []issuefields.Value{{FieldID: 1, Text: "stale"}, {FieldID: 2, Text: "kept"}}, nil
	})
	must(err)
	values, _, err := s.Values(ctx, key)
	must(err)
	if len(values) != 1 || values[0].FieldID != 2 {
		t.Errorf("after Update the issue holds %v, want only the value of field 2", values)
	}
}
