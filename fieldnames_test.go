package issuefields_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/issuefields/issuefields"
)

// TestNamesCheckedWhenGiven gives octo-org two fields named "Team" and
// "team", as a store may hold them from before the rules of names: a change
// of either that keeps its name, and a change of another field, are
// accepted; a new field or a rename to that name is refused.
func TestNamesCheckedWhenGiven(t *testing.T) {
	h, s := newFieldsHandler(t, issuefields.Config{})
	both, err := s.ChangeFields(context.Background(), org, func(current []issuefields.Field) ([]issuefields.Field, error) {
		return append(slices.Clip(current),
			issuefields.Field{Name: "Team", DataType: issuefields.DataTypeText},
			issuefields.Field{Name: "team", DataType: issuefields.DataTypeText}), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	first, second := both[len(both)-2].ID, both[len(both)-1].ID
	for _, tc := range []struct {
		method, path, body string
		status             int
	}{
		{http.MethodPatch, fieldPath(first), `{"description":"The first"}`, http.StatusOK},
		{http.MethodPatch, fieldPath(second), `{"description":"The second","visibility":"all"}`, http.StatusOK},
		{http.MethodPatch, fieldPath(second), `{"name":"team"}`, http.StatusOK},
		{http.MethodPatch, fieldPath(notesID), `{"name":"Remarks"}`, http.StatusOK},
		{http.MethodPost, orgFieldsPath, `{"name":"Due date","data_type":"date"}`, http.StatusOK},
		{http.MethodPatch, fieldPath(second), `{"name":"TEAM"}`, http.StatusUnprocessableEntity},
		{http.MethodPatch, fieldPath(notesID), `{"name":"Team"}`, http.StatusUnprocessableEntity},
		{http.MethodPost, orgFieldsPath, `{"name":"tEAM","data_type":"text"}`, http.StatusUnprocessableEntity},
	} {
		if r := do(t, h, tc.method, tc.path, fieldsAdminToken, tc.body); r.status != tc.status {
			t.Errorf("%s %s %s: %d %s, want %d", tc.method, tc.path, tc.body, r.status, r.body, tc.status)
		}
	}
	got := listedFields(t, h, fieldsAdminToken)
	i := slices.IndexFunc(got, func(f issueFieldJSON) bool { return f.ID == first })
	if i < 0 || i+1 >= len(got) || got[i].Name != "Team" || got[i+1].Name != "team" || got[i+1].ID != second {
		t.Errorf("the fields are %+v, want fields %d and %d still named Team and team", got, first, second)
	}
}

// fieldPath is the path of the field id of octo-org.
func fieldPath(id int64) string { return fmt.Sprintf("%s/%d", orgFieldsPath, id) }
