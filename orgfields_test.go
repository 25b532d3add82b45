package issuefields_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/ids"
	"github.com/issuefields/issuefields/memstore"
)

// Tokens of the field management tests, besides the fixture's.
const (
	fieldsAdminToken   = "fields-admin-token"   // fine-grained PAT: issue_fields write in octo-org
	fieldsReaderToken  = "fields-reader-token"  // app installation: issue_fields read in octo-org
	fieldsBlindToken   = "fields-blind-token"   // fine-grained PAT: sees no organization
	fieldsVisibleToken = "fields-visible-token" // fine-grained PAT: sees octo-org, no permission
	classicReadToken   = "classic-read-org"     // classic PAT: read:org, sees octo-org
	classicAdminToken  = "classic-admin-org"    // classic PAT: admin:org, sees octo-org
)

// fieldsVerifier knows the field management tokens and the fixture's.
var fieldsVerifier = issuefields.TokenVerifierFunc(func(ctx context.Context, token string) (*issuefields.Principal, error) {
	in := func(kind issuefields.TokenKind, visible bool, perm issuefields.Permission, scopes ...string) *issuefields.Principal {
		return &issuefields.Principal{Kind: kind, Login: token, Scopes: scopes,
			OrganizationPermissions: func(_ context.Context, login string) (issuefields.OrganizationPermissions, error) {
				return issuefields.OrganizationPermissions{Visible: visible && strings.EqualFold(login, org), IssueFields: perm}, nil
			}}
	}
	switch token {
	case fieldsAdminToken:
		return in(issuefields.FineGrainedPersonalAccessToken, true, issuefields.PermissionWrite), nil
	case fieldsReaderToken:
		return in(issuefields.AppInstallationToken, true, issuefields.PermissionRead), nil
	case fieldsBlindToken:
		return in(issuefields.FineGrainedPersonalAccessToken, false, issuefields.PermissionWrite), nil
	case fieldsVisibleToken:
		return in(issuefields.FineGrainedPersonalAccessToken, true, issuefields.PermissionNone), nil
	case classicReadToken:
		return in(issuefields.ClassicPersonalAccessToken, true, issuefields.PermissionNone, "read:org"), nil
	case classicAdminToken:
		return in(issuefields.ClassicPersonalAccessToken, true, issuefields.PermissionNone, "repo", "admin:org"), nil
	}
	return fixtureVerifier(ctx, token)
})

// newFieldsHandler returns a handler over a fresh fixture store that knows
// the field management tokens.
func newFieldsHandler(t testing.TB, cfg issuefields.Config) (*issuefields.Handler, *memstore.Store) {
	t.Helper()
	s := newFixtureStore(t)
	cfg.Store, cfg.Verifier = s, fieldsVerifier
	return newConfiguredHandler(t, cfg), s
}

const orgFieldsPath = "/orgs/" + org + "/issue-fields"

// issueFieldJSON is a field as a client of the field management routes
// decodes it.
type issueFieldJSON struct {
	ID          int64                  `json:"id"`
	NodeID      string                 `json:"node_id"`
	Name        string                 `json:"name"`
	Description *string                `json:"description"`
	DataType    issuefields.DataType   `json:"data_type"`
	Visibility  issuefields.Visibility `json:"visibility"`
	Options     []struct {
		ID          int64   `json:"id"`
		Name        string  `json:"name"`
		Description *string `json:"description"`
		Color       string  `json:"color"`
		Priority    int     `json:"priority"`
	} `json:"options"`
	CreatedAt *string `json:"created_at"`
	UpdatedAt *string `json:"updated_at"`
}

// namesField reports whether nodeID decodes to the field id of octo-org,
// the fixture's organization, as GraphQL's node(id:) decodes it.
func namesField(nodeID string, id int64) bool {
	got, err := ids.Decode(nodeID)
	return err == nil && got == ids.ID{Kind: ids.KindField, Login: "octo-org", Field: id}
}

// simpleErrors is a 422 of the field management routes as a client decodes
// it: GitHub's validation-error-simple, errors as strings.
type simpleErrors struct {
	Message          string   `json:"message"`
	DocumentationURL string   `json:"documentation_url"`
	Errors           []string `json:"errors"`
}

// listedFields returns the fields that GET lists with token.
func listedFields(t *testing.T, h http.Handler, token string) []issueFieldJSON {
	t.Helper()
	r := do(t, h, http.MethodGet, orgFieldsPath, token, "")
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", orgFieldsPath, r.status, r.body)
	}
	var fields []issueFieldJSON
	r.json(t, &fields)
	return fields
}

func TestListFields(t *testing.T) {
	h, _ := newFieldsHandler(t, issuefields.Config{})
	got := listedFields(t, h, fieldsReaderToken)
	if len(got) != len(fixtureFields) {
		t.Fatalf("listed %d fields, want %d", len(got), len(fixtureFields))
	}
	for i, f := range got {
		want := fixtureFields[i] // the fixture's fields are in ID order
		if f.ID != want.ID || f.Name != want.Name || f.DataType != want.DataType || !namesField(f.NodeID, want.ID) ||
			f.Visibility != issuefields.VisibleToMembers || f.Description != nil || f.CreatedAt != nil {
			t.Errorf("field %d listed as %+v, want %+v with the default visibility, no description and no times", i, f, want)
		}
		if len(f.Options) != len(want.Options) {
			t.Errorf("field %q lists %d options, want %d", f.Name, len(f.Options), len(want.Options))
		}
	}
}

func TestFieldLifecycle(t *testing.T) {
	h, s := newFieldsHandler(t, issuefields.Config{})
	before := time.Now().UTC().Truncate(time.Second)
	r := do(t, h, http.MethodPost, orgFieldsPath, fieldsAdminToken, `{"name":"Stage","data_type":"single_select",
		"description":"Where the work is","visibility":"all","options":[
		{"name":"Done","color":"green","priority":3},{"name":"Todo","color":"gray","priority":1,"description":"Not started"},
		{"name":"Doing","color":"blue","priority":2}]}`)
	if r.status != http.StatusOK {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	var created issueFieldJSON
	r.json(t, &created)
	names := []string{}
	for _, o := range created.Options {
		names = append(names, o.Name)
	}
	if created.ID <= labelsID || created.Name != "Stage" || created.Visibility != issuefields.VisibleToAll ||
		created.Description == nil || *created.Description != "Where the work is" || !slices.Equal(names, []string{"Todo", "Doing", "Done"}) {
		t.Fatalf("created %+v, want Stage with a new ID, visibility all, its description, options by priority", created)
	}
	if at, err := time.Parse(time.RFC3339, *created.CreatedAt); err != nil || at.Before(before) || *created.UpdatedAt != *created.CreatedAt {
		t.Errorf("created_at %q, updated_at %q: want the time of creation, in RFC 3339, twice", *created.CreatedAt, *created.UpdatedAt)
	}
	if got := listedFields(t, h, fieldsAdminToken); len(got) != len(fixtureFields)+1 || got[len(got)-1].ID != created.ID {
		t.Errorf("after create the list is %+v, want the new field last (by ID)", got)
	}

	// The new field takes values at once.
	todo, doing := created.Options[0].ID, created.Options[1].ID
	r = do(t, h, http.MethodPost, valuesPath(org, publicRepo, 2), writerToken, writeBody(fieldItem(int(created.ID), `"Doing"`)))
	if r.status != http.StatusOK || !strings.Contains(r.body, `"single_select_option":{"id":`+itoa(int(doing))) {
		t.Fatalf("writing the new field: %d %s", r.status, r.body)
	}
	tag := r.header.Get("ETag")

	// An update that drops the option in use removes the value, and the
	// issue's ETag changes.
	r = do(t, h, http.MethodPatch, orgFieldsPath+"/"+itoa(int(created.ID)), fieldsAdminToken,
		`{"name":"Phase","description":null,"options":[{"id":`+itoa(int(todo))+`,"name":"To do","color":"gray"},{"name":"Shipped","color":"purple"}]}`)
	if r.status != http.StatusOK {
		t.Fatalf("update: %d %s", r.status, r.body)
	}
	var updated issueFieldJSON
	r.json(t, &updated)
	if updated.Name != "Phase" || updated.Description != nil || len(updated.Options) != 2 ||
		updated.Options[0].ID != todo || updated.Options[0].Name != "To do" || updated.Options[1].ID <= created.Options[2].ID {
		t.Errorf("updated %+v, want Phase without description, option %d renamed and a new option", updated, todo)
	}
	r = do(t, h, http.MethodGet, valuesPath(org, publicRepo, 2), writerToken, "")
	if r.status != http.StatusOK || r.body != "[]\n" || r.header.Get("ETag") == tag {
		t.Errorf("after its option went, the issue lists %d %s with ETag %q (was %q); want [] and a new ETag", r.status, r.body, r.header.Get("ETag"), tag)
	}
	r = do(t, h, http.MethodPost, valuesPath(org, publicRepo, 2), writerToken, writeBody(fieldItem(int(created.ID), `"Doing"`)))
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, "To do") {
		t.Errorf("writing a deleted option: %d %s, want 422 listing the options left", r.status, r.body)
	}

	// Deleting a field removes its values from every issue and refuses writes.
	r = do(t, h, http.MethodDelete, orgFieldsPath+"/"+itoa(notesID), fieldsAdminToken, "")
	if r.status != http.StatusNoContent || r.body != "" {
		t.Fatalf("delete: %d %q, want 204 without a body", r.status, r.body)
	}
	for _, repo := range []string{publicRepo, secretRepo} {
		if ids := fieldIDs(t, do(t, h, http.MethodGet, valuesPath(org, repo, 1), writerToken, "")); slices.Contains(ids, notesID) {
			t.Errorf("%s issue 1 still shows a value of the deleted field: %v", repo, ids)
		}
	}
	// A write keeps only what the fields define: the value of the deleted
	// field is not stored again.
	if r := do(t, h, http.MethodPost, valuesPath(org, publicRepo, 1), writerToken, writeBody(fieldItem(estimateID, "21"))); r.status != http.StatusOK {
		t.Fatalf("a write after the delete: %d %s", r.status, r.body)
	}
	if values, _ := readStored(t, s, issueAt(org, publicRepo, 1)); slices.ContainsFunc(values, func(v issuefields.Value) bool { return v.FieldID == notesID }) {
		t.Errorf("after a write the issue still holds a value of the deleted field: %v", values)
	}
	r = do(t, h, http.MethodPut, valuesPath(org, publicRepo, 1), writerToken, writeBody(fieldItem(notesID, `"back"`)))
	if r.status != http.StatusUnprocessableEntity {
		t.Errorf("writing the deleted field: %d %s, want 422", r.status, r.body)
	}
	if slices.ContainsFunc(listedFields(t, h, fieldsReaderToken), func(f issueFieldJSON) bool { return f.ID == notesID }) {
		t.Errorf("the deleted field is still listed")
	}
	for _, method := range []string{http.MethodDelete, http.MethodPatch} {
		if r := do(t, h, method, orgFieldsPath+"/"+itoa(notesID), fieldsAdminToken, `{"name":"Again"}`); r.status != http.StatusNotFound {
			t.Errorf("%s of the deleted field: %d %s, want 404", method, r.status, r.body)
		}
	}
}

func TestFieldAuthorization(t *testing.T) {
	h, _ := newFieldsHandler(t, issuefields.Config{})
	const create = `{"name":"Team","data_type":"text"}`
	tests := []struct {
		name, method, path, token string
		status                    int
		message                   string
	}{
		{"anonymous list", http.MethodGet, orgFieldsPath, "", 401, "Requires authentication"},
		{"anonymous create", http.MethodPost, orgFieldsPath, "", 401, "Requires authentication"},
		{"bad token", http.MethodGet, orgFieldsPath, "nope", 401, "Bad credentials"},
		{"reader lists", http.MethodGet, orgFieldsPath, fieldsReaderToken, 200, ""},
		{"reader creates", http.MethodPost, orgFieldsPath, fieldsReaderToken, 403, "issue_fields=write"},
		{"reader deletes", http.MethodDelete, orgFieldsPath + "/1", fieldsReaderToken, 403, "issue_fields=write"},
		{"no permission lists", http.MethodGet, orgFieldsPath, fieldsVisibleToken, 403, "issue_fields=read"},
		{"blind lists", http.MethodGet, orgFieldsPath, fieldsBlindToken, 404, "Not Found"},
		{"values token lists", http.MethodGet, orgFieldsPath, writerToken, 404, "Not Found"},
		{"classic read:org lists", http.MethodGet, orgFieldsPath, classicReadToken, 200, ""},
		{"classic read:org creates", http.MethodPost, orgFieldsPath, classicReadToken, 403, "admin:org"},
		{"classic admin:org creates", http.MethodPost, orgFieldsPath, classicAdminToken, 200, ""},
		{"classic admin:org writes values", http.MethodPost, valuesPath(org, publicRepo, 1), classicAdminToken, 403, "accepts only"},
		{"unknown organization", http.MethodGet, "/orgs/nobody/issue-fields", fieldsAdminToken, 404, "Not Found"},
		{"unknown organization, create", http.MethodPost, "/orgs/nobody/issue-fields", fieldsAdminToken, 404, "Not Found"},
		{"anonymous list of an unknown organization", http.MethodGet, "/orgs/nobody/issue-fields", "", 401, "Requires authentication"},
		{"anonymous delete in an unknown organization", http.MethodDelete, "/orgs/nobody/issue-fields/1", "", 401, "Requires authentication"},
		{"a user", http.MethodGet, "/orgs/octocat/issue-fields", fieldsAdminToken, 404, "Not Found"},
		{"unknown field", http.MethodPatch, orgFieldsPath + "/999", fieldsAdminToken, 404, "Not Found"},
		{"malformed field id", http.MethodDelete, orgFieldsPath + "/01", fieldsAdminToken, 404, "Not Found"},
		{"another method", http.MethodPut, orgFieldsPath, fieldsAdminToken, 405, "Method Not Allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := do(t, h, tt.method, tt.path, tt.token, create)
			if r.status != tt.status || !strings.Contains(r.body, tt.message) {
				t.Errorf("%s %s: %d %s, want %d with %q", tt.method, tt.path, r.status, r.body, tt.status, tt.message)
			}
			want := "issue_fields=write"
			switch {
			case tt.method == http.MethodGet:
				want = "issue_fields=read"
			case !strings.HasPrefix(tt.path, "/orgs/"):
				want = "issues=write; pull_requests=write"
			case tt.status == 405:
				want = ""
			}
			if got := r.header.Get("X-Accepted-Service-Permissions"); got != want {
				t.Errorf("X-Accepted-Service-Permissions %q, want %q", got, want)
			}
		})
	}
}

func TestFieldBodyRefused(t *testing.T) {
	tests := []struct {
		name, method, body string
		status             int
		problems           []string // what each error names, in order
	}{
		{"not JSON", "POST", `{"name":`, 400, nil},
		{"not an object", "POST", `["name"]`, 400, nil},
		{"duplicate key", "POST", `{"name":"A","name":"B","data_type":"text"}`, 400, nil},
		{"duplicate key in an option", "POST", `{"name":"A","data_type":"single_select","options":[{"name":"x","name":"y","color":"red"}]}`, 400, nil},
		{"empty object", "POST", `{}`, 422, []string{`"name"`, `"data_type"`}},
		{"unknown key", "POST", `{"name":"A","data_type":"text","colour":"red"}`, 422, []string{`"colour"`}},
		{"long name", "POST", `{"name":"` + strings.Repeat("é", 65) + `","data_type":"text"}`, 422, []string{"at most 64"}},
		{"name taken in another case", "POST", `{"name":"notes","data_type":"text"}`, 422, []string{`named "Notes"`}},
		{"unknown data type", "POST", `{"name":"A","data_type":"boolean"}`, 422, []string{`"data_type"`}},
		{"bad visibility and description", "POST", `{"name":"A","data_type":"text","visibility":"public","description":5}`, 422, []string{`"description"`, `"visibility"`}},
		{"options on text", "POST", `{"name":"A","data_type":"text","options":[{"name":"x","color":"red"}]}`, 422, []string{`"options"`}},
		{"select without options", "POST", `{"name":"A","data_type":"multi_select"}`, 422, []string{`"options"`}},
		{"select with no options", "POST", `{"name":"A","data_type":"single_select","options":[]}`, 422, []string{"at least one option"}},
		{"bad option", "POST", `{"name":"A","data_type":"single_select","options":[{"name":"","color":"teal","priority":"1","id":3}]}`, 422,
			[]string{"options[0].priority", `"id" in options[0]`}},
		{"bad option values", "POST", `{"name":"A","data_type":"single_select","options":[{"name":"","color":"teal"}]}`, 422,
			[]string{"empty name", `color "teal"`}},
		{"option names repeat", "POST", `{"name":"A","data_type":"single_select","options":[{"name":"x","color":"red"},{"name":"x","color":"blue"}]}`, 422, []string{`option name "x"`}},
		{"data type changes", "PATCH", `{"data_type":"text"}`, 422, []string{"data type"}},
		{"unknown option id", "PATCH", `{"options":[{"id":51,"name":"High","color":"red"}]}`, 422, []string{"option 51"}},
		{"option id twice", "PATCH", `{"options":[{"id":11,"name":"High","color":"red"},{"id":11,"name":"Top","color":"red"}]}`, 422, []string{"option 11"}},
		{"name of another field", "PATCH", `{"name":"DUE"}`, 422, []string{`named "Due"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, s := newFieldsHandler(t, issuefields.Config{})
			target := orgFieldsPath
			if tt.method == http.MethodPatch {
				target += "/" + itoa(priorityID)
			}
			r := do(t, h, tt.method, target, fieldsAdminToken, tt.body)
			if r.status != tt.status {
				t.Fatalf("%s %s: %d %s, want %d", tt.method, tt.body, r.status, r.body, tt.status)
			}
			var e simpleErrors
			r.json(t, &e)
			if len(e.Errors) != len(tt.problems) {
				t.Errorf("%d errors, want %d naming %q: %s", len(e.Errors), len(tt.problems), tt.problems, r.body)
			}
			for i, problem := range tt.problems {
				if i < len(e.Errors) && !strings.Contains(e.Errors[i], problem) {
					t.Errorf("errors[%d] = %q, want it to name %s", i, e.Errors[i], problem)
				}
			}
			if tt.status == http.StatusUnprocessableEntity && !strings.HasPrefix(e.DocumentationURL, "https://docs.github.com/rest/orgs/issue-fields#") {
				t.Errorf("documentation_url %q, want GitHub's page of the field management routes", e.DocumentationURL)
			}
			if fields, _ := s.OrganizationFields(context.Background(), org); len(fields) != len(fixtureFields) || fields[1].Name != "Priority" || len(fields[1].Options) != 3 {
				t.Errorf("a refused request changed the fields: %+v", fields)
			}
		})
	}
}

func TestFieldWritesAreRateLimited(t *testing.T) {
	h, _ := newFieldsHandler(t, issuefields.Config{WriteLimits: issuefields.WriteLimits{PerMinute: 1, PerHour: -1}})
	if r := do(t, h, http.MethodPost, orgFieldsPath, fieldsAdminToken, `{"name":"A","data_type":"text"}`); r.status != http.StatusOK {
		t.Fatalf("first write: %d %s", r.status, r.body)
	}
	r := do(t, h, http.MethodPost, orgFieldsPath, fieldsAdminToken, `{"name":"B","data_type":"text"}`)
	if r.status != http.StatusUnprocessableEntity || r.header.Get("Retry-After") == "" || !strings.Contains(r.body, "secondary rate limit") {
		t.Errorf("second write: %d %s, want 422 for the secondary rate limit with Retry-After", r.status, r.body)
	}
	if r := do(t, h, http.MethodGet, orgFieldsPath, fieldsAdminToken, ""); r.status != http.StatusOK {
		t.Errorf("a list after the limit: %d, want 200", r.status)
	}
	if got := listedFields(t, h, fieldsAdminToken); slices.ContainsFunc(got, func(f issueFieldJSON) bool { return f.Name == "B" }) {
		t.Errorf("the refused write created its field")
	}
}

// TestFieldRoutesTellAnonymousCallersNothing checks that a caller without a
// token gets the same 401 Requires authentication from every field route
// for an organization that exists, one that does not and a user, over a
// store that manages fields and over one that does not: the answer tells
// nothing about which organizations exist, or what the store can do.
func TestFieldRoutesTellAnonymousCallersNothing(t *testing.T) {
	stores := []struct {
		name  string
		store issuefields.Store
	}{
		{"a FieldManager", newFixtureStore(t)},
		{"a store without FieldManager", valuesOnlyStore{newFixtureStore(t)}},
	}
	for _, s := range stores {
		h := newConfiguredHandler(t, issuefields.Config{Store: s.store, Verifier: fieldsVerifier})
		for _, route := range []struct{ method, suffix string }{
			{http.MethodGet, ""}, {http.MethodPost, ""}, {http.MethodPatch, "/" + itoa(priorityID)}, {http.MethodDelete, "/" + itoa(priorityID)},
		} {
			t.Run(s.name+"/"+route.method+route.suffix, func(t *testing.T) {
				var first string
				for _, owner := range []string{org, "nobody", "octocat"} {
					path := "/orgs/" + owner + "/issue-fields" + route.suffix
					r := do(t, h, route.method, path, "", `{"name":"Team","data_type":"text"}`)
					var e errorResponse
					r.json(t, &e)
					if r.status != http.StatusUnauthorized || e.Message != "Requires authentication" {
						t.Errorf("%s %s without a token: %d %s, want 401 Requires authentication", route.method, path, r.status, r.body)
					}
					if first == "" {
						first = r.body
					} else if r.body != first {
						t.Errorf("%s %s without a token answered %s, and for %s %s", route.method, path, r.body, org, first)
					}
				}
			})
		}
	}
}

// valuesOnlyStore is a Store that cannot manage fields.
type valuesOnlyStore struct{ issuefields.Store }

func TestFieldRoutesNeedAFieldManager(t *testing.T) {
	h := newConfiguredHandler(t, issuefields.Config{Store: valuesOnlyStore{newFixtureStore(t)}, Verifier: fieldsVerifier})
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		if r := do(t, h, method, orgFieldsPath, fieldsAdminToken, `{"name":"A","data_type":"text"}`); r.status != http.StatusNotFound {
			t.Errorf("%s over a store without FieldManager: %d %s, want 404", method, r.status, r.body)
		}
	}
}

// FuzzFieldBody sends arbitrary create and update bodies: each answer is 200,
// 400 or 422; a refusal changes no field, and a success answers a field that
// the list then shows.
func FuzzFieldBody(f *testing.F) {
	for _, seed := range []string{
		`{"name":"Stage","data_type":"single_select","options":[{"name":"Todo","color":"gray","priority":1}]}`,
		`{"name":"Team","data_type":"text","description":null,"visibility":"all"}`,
		`{"options":[{"id":11,"name":"High","color":"red"},{"name":"New","color":"pink","description":"d"}]}`,
		`{"name":"A","name":"B"}`, `{"data_type":"date"}`, `[]`, `{`, `{"options":[{}]}`,
	} {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	h, s := newFieldsHandler(f, issuefields.Config{WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: -1}})
	f.Fuzz(func(t *testing.T, body string, update bool) {
		method, target := http.MethodPost, orgFieldsPath
		if update {
			method, target = http.MethodPatch, orgFieldsPath+"/"+itoa(priorityID)
		}
		before, _ := s.OrganizationFields(context.Background(), org)
		r := do(t, h, method, target, fieldsAdminToken, body)
		after, _ := s.OrganizationFields(context.Background(), org)
		switch r.status {
		case http.StatusOK:
			var got issueFieldJSON
			r.json(t, &got)
			if !slices.ContainsFunc(after, func(f issuefields.Field) bool { return f.ID == got.ID && f.Name == got.Name }) {
				t.Fatalf("%s %q answered %s, which the store does not hold", method, body, r.body)
			}
		case http.StatusBadRequest, http.StatusUnprocessableEntity:
			if len(before) != len(after) || len(before) > 0 && &before[0] != &after[0] {
				t.Fatalf("%s %q was refused (%d) but changed the fields", method, body, r.status)
			}
		default:
			t.Fatalf("%s %q: %d %s, want 200, 400 or 422", method, body, r.status, r.body)
		}
	})
}
