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
// at once, then removes fields through one and adds a select field through
// the other: every field is kept with an ID of its own, each store sees the
// other's changes at once, and no field or option ever gets an ID that one
// had before.
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
	must(t, stores[0].AddOrganization("octo-org"))
	must(t, stores[0].AddField("octo-org", issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText}))
	_, err := stores[0].AddRepository("octo-org", "hello-world", false)
	must(t, err)
	must(t, stores[0].AddIssue("octo-org", "hello-world", 1))

	const adds = 20
	var wg sync.WaitGroup
	errs := make([]error, adds)
	for i := range adds {
		wg.Go(func() {
			_, errs[i] = stores[i%2].ChangeFields(ctx, "octo-org", func(current []issuefields.Field) ([]issuefields.Field, error) {
				return append(slices.Clip(current), issuefields.Field{Name: fmt.Sprint("Field ", i), DataType: issuefields.DataTypeNumber}), nil
			})
		})
	}
	wg.Wait()
	for _, err := range errs {
		must(t, err)
	}
	var before []issuefields.Field
	for i, s := range stores {
		fields, err := s.OrganizationFields(ctx, "octo-org")
		must(t, err)
		if n := len(uniqueIDs(fields)); len(fields) != adds+1 || n != adds+1 {
			t.Errorf("store %d sees %d fields with %d IDs, want %d of each", i, len(fields), n, adds+1)
		}
		before = fields
	}

	// Through the second store, field 1 and the field with the highest ID
	// go; the first store, which keeps the fields it read, sees it at once.
	highest := slices.Max(uniqueIDs(before))
	if _, err := stores[0].Snapshot(ctx, "octo-org", "hello-world", 1); err != nil {
		t.Fatal(err)
	}
	_, err = stores[1].ChangeFields(ctx, "octo-org", func(current []issuefields.Field) ([]issuefields.Field, error) {
		return slices.DeleteFunc(slices.Clone(current), func(f issuefields.Field) bool { return f.ID == 1 || f.ID == highest }), nil
	})
	must(t, err)
	snap, err := stores[0].Snapshot(ctx, "octo-org", "hello-world", 1)
	must(t, err)
	if ids := uniqueIDs(snap.Fields); len(ids) != adds-1 || slices.Contains(ids, 1) || slices.Contains(ids, highest) {
		t.Errorf("after fields 1 and %d went through the other server, a Snapshot shows the fields %v", highest, ids)
	}

	// A select field added through the first store gets new IDs for itself
	// and its options.
	added, err := stores[0].ChangeFields(ctx, "octo-org", func(current []issuefields.Field) ([]issuefields.Field, error) {
		return append(slices.Clip(current), issuefields.Field{Name: "Priority", DataType: issuefields.DataTypeSingleSelect,
			Options: []issuefields.FieldOption{{Name: "High", Color: "red"}, {Name: "Low", Color: "green"}}}), nil
	})
	must(t, err)
	f := added[len(added)-1]
	ids := []int64{f.ID, f.Options[0].ID, f.Options[1].ID}
	if slices.Min(ids) <= highest || len(slices.Compact(slices.Sorted(slices.Values(ids)))) != len(ids) {
		t.Errorf("the new field and its options got the IDs %v, after fields with IDs up to %d; want three new ones above %d",
			ids, highest, highest)
	}
	fields, err := stores[1].OrganizationFields(ctx, "OCTO-ORG")
	must(t, err)
	if got := fields[len(fields)-1]; got.ID != f.ID || len(got.Options) != 2 || got.Options[1].ID != f.Options[1].ID {
		t.Errorf("the other server lists the new field as %+v, want %+v", got, f)
	}
}

// uniqueIDs returns the IDs of fields, each once, in order.
func uniqueIDs(fields []issuefields.Field) []int64 {
	var ids []int64
	for _, f := range fields {
		if !slices.Contains(ids, f.ID) {
			ids = append(ids, f.ID)
		}
	}
	return ids
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

// A createdField is what a client reads of the answer to a field's creation.
type createdField struct {
	ID      int64 `json:"id"`
	Options []struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"options"`
}

// TestFieldRoutesAcrossServers manages fields through one server's handler
// and uses them through another's, each over a pool of its own on one
// database: a new field takes a value at once; once it is deleted, or once
// the option an issue holds is removed from a select field, the value is
// gone from the list, the list's ETag changes, and a write of it is refused.
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
	must(t, seed.AddOrganization("octo-org"))
	_, err := seed.AddRepository("octo-org", "hello-world", false)
	must(t, err)
	must(t, seed.AddIssue("octo-org", "hello-world", 1))
	one, other := handlers[0], handlers[1]
	path := valuesPath("octo-org", "hello-world", 1)
	create := func(body string) createdField {
		t.Helper()
		rec := serve(one, http.MethodPost, "/orgs/octo-org/issue-fields", body)
		var created createdField
		if err := json.Unmarshal(rec.Body.Bytes(), &created); rec.Code != http.StatusOK || err != nil {
			t.Fatalf("create %s: %d %s", body, rec.Code, rec.Body)
		}
		return created
	}
	// wantGone checks that the other server no longer shows or takes the
	// value that body wrote, and that its list's ETag is no longer tag.
	wantGone := func(what, tag, body string) {
		t.Helper()
		rec := serve(other, http.MethodGet, path, "", "If-None-Match", tag)
		if rec.Code != http.StatusOK || strings.TrimSpace(rec.Body.String()) != "[]" || rec.Header().Get("ETag") == tag {
			t.Errorf("after %s the other server lists %d %s with ETag %q (was %q); want [] under a new ETag",
				what, rec.Code, rec.Body, rec.Header().Get("ETag"), tag)
		}
		if rec := serve(other, http.MethodPost, path, body); rec.Code != http.StatusUnprocessableEntity {
			t.Errorf("after %s the other server takes the value again: %d %s, want 422", what, rec.Code, rec.Body)
		}
	}

	team := create(`{"name":"Team","data_type":"text"}`)
	body := textBody(team.ID, "Platform")
	if rec := serve(other, http.MethodPost, path, body); rec.Code != http.StatusOK {
		t.Fatalf("the other server writes the new field: %d %s", rec.Code, rec.Body)
	}
	rec := serve(other, http.MethodGet, path, "")
	if !strings.Contains(rec.Body.String(), `"issue_field_name":"Team"`) {
		t.Fatalf("list: %s", rec.Body)
	}
	if rec := serve(one, http.MethodDelete, fmt.Sprintf("/orgs/octo-org/issue-fields/%d", team.ID), ""); rec.Code != http.StatusNoContent {
		t.Fatalf("delete: %d %s", rec.Code, rec.Body)
	}
	wantGone("the field's deletion", rec.Header().Get("ETag"), body)
	if rec := serve(other, http.MethodGet, "/orgs/octo-org/issue-fields", ""); strings.TrimSpace(rec.Body.String()) != "[]" {
		t.Errorf("the other server lists the fields %s, want []", rec.Body)
	}

	priority := create(`{"name":"Priority","data_type":"single_select","options":[{"name":"High","color":"red"},{"name":"Low","color":"green"}]}`)
	body = fmt.Sprintf(`{"issue_field_values":[{"field_id":%d,"value":"High"}]}`, priority.ID)
	if rec := serve(other, http.MethodPost, path, body); rec.Code != http.StatusOK {
		t.Fatalf("the other server writes the new select field: %d %s", rec.Code, rec.Body)
	}
	rec = serve(other, http.MethodGet, path, "")
	patch := fmt.Sprintf(`{"options":[{"id":%d,"name":"Low","color":"green"}]}`, priority.Options[1].ID)
	if rec := serve(one, http.MethodPatch, fmt.Sprintf("/orgs/octo-org/issue-fields/%d", priority.ID), patch); rec.Code != http.StatusOK {
		t.Fatalf("remove option High: %d %s", rec.Code, rec.Body)
	}
	wantGone("the option's removal", rec.Header().Get("ETag"), body)
}
