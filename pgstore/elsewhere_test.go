package pgstore_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
)

// TestWriteAfterChangesElsewhere has a handler write an issue, so that its
// store keeps the issue's values and the organization's fields in memory,
// then changes the database through another store, as another server would,
// and writes again through the handler: the write must answer as the
// database is now, never as this server last saw it, and the database must
// hold what the answer says.
func TestWriteAfterChangesElsewhere(t *testing.T) {
	path := valuesPath("octo-org", "hello-world", 1)
	tests := []struct {
		name string
		// elsewhere changes the database through other, with its handler.
		elsewhere func(t *testing.T, other *pgstore.Store, h http.Handler) (etag string)
		// ifMatch sends the ETag of elsewhere's answer in If-Match.
		ifMatch bool
		body    string
		status  int
		// want is the issue's values afterwards, by field ID, or nil when
		// the issue is not live.
		want map[int64]any
		// renamed is whether the issue's repository is octo-org/renamed
		// afterwards, and no longer found by octo-org/hello-world.
		renamed bool
		// fieldName is the name the answer's list gives field 2, if any.
		fieldName string
	}{
		{
			name:      "a write through another server, then an If-Match with its ETag",
			elsewhere: postElsewhere(path, textBody(2, "other")),
			ifMatch:   true,
			body:      textBody(1, "mine"),
			status:    http.StatusOK,
			want:      map[int64]any{1: "mine", 2: "other"},
		},
		{
			name:      "a write through another server",
			elsewhere: postElsewhere(path, textBody(2, "other")),
			body:      textBody(1, "mine"),
			status:    http.StatusOK,
			want:      map[int64]any{1: "mine", 2: "other"},
		},
		{
			name:      "the value kept in memory, changed through another server",
			elsewhere: postElsewhere(path, textBody(1, "other")),
			body:      textBody(1, "first"),
			status:    http.StatusOK,
			want:      map[int64]any{1: "first"},
		},
		{
			name: "the repository renamed",
			elsewhere: seedElsewhere(func(other *pgstore.Store) error {
				return other.RenameRepository("octo-org", "hello-world", "renamed")
			}),
			body:   textBody(1, "mine"),
			status: http.StatusTemporaryRedirect,
			want:   map[int64]any{1: "first"},
		},
		{
			name: "the repository transferred",
			elsewhere: seedElsewhere(func(other *pgstore.Store) error {
				return other.TransferRepository("octo-org", "hello-world", "new-owner")
			}),
			body:   textBody(1, "mine"),
			status: http.StatusTemporaryRedirect,
			want:   map[int64]any{1: "first"},
		},
		{
			// The write goes to issue 1 of the repository that has the
			// name now.
			name: "the repository renamed and its name taken over by a new one",
			elsewhere: seedElsewhere(func(other *pgstore.Store) error {
				if err := other.RenameRepository("octo-org", "hello-world", "renamed"); err != nil {
					return err
				}
				if _, err := other.AddRepository("octo-org", "hello-world", false); err != nil {
					return err
				}
				return other.AddIssue("octo-org", "hello-world", 1)
			}),
			body:    textBody(1, "mine"),
			status:  http.StatusOK,
			want:    map[int64]any{1: "first"},
			renamed: true,
		},
		{
			name: "the issue deleted",
			elsewhere: seedElsewhere(func(other *pgstore.Store) error {
				return other.DeleteIssue("octo-org", "hello-world", 1)
			}),
			body:   textBody(1, "mine"),
			status: http.StatusNotFound,
		},
		{
			name: "a field renamed",
			elsewhere: func(t *testing.T, other *pgstore.Store, _ http.Handler) string {
				changeFields(t, other, func(fields []issuefields.Field) []issuefields.Field {
					fields[1].Name = "Renamed elsewhere"
					return fields
				})
				return ""
			},
			body:      textBody(2, "mine"),
			status:    http.StatusOK,
			want:      map[int64]any{1: "first", 2: "mine"},
			fieldName: "Renamed elsewhere",
		},
		{
			name: "the field written deleted",
			elsewhere: func(t *testing.T, other *pgstore.Store, _ http.Handler) string {
				changeFields(t, other, func(fields []issuefields.Field) []issuefields.Field { return fields[:1] })
				return ""
			},
			body:   textBody(2, "mine"),
			status: http.StatusUnprocessableEntity,
			want:   map[int64]any{1: "first"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, other := newBoundedStore(t, 2, 1)
			h := newHandler(t, openStore(t, cfg))
			if rec := serve(h, "POST", path, textBody(1, "first")); rec.Code != http.StatusOK {
				t.Fatalf("first POST: status %d: %s", rec.Code, rec.Body)
			}
			var header []string
			if etag := tt.elsewhere(t, other, newHandler(t, other)); tt.ifMatch {
				header = []string{"If-Match", etag}
			}
			rec := serve(h, "POST", path, tt.body, header...)
			if rec.Code != tt.status {
				t.Fatalf("POST after %s: status %d, want %d: %s", tt.name, rec.Code, tt.status, rec.Body)
			}
			if tt.fieldName != "" && !strings.Contains(rec.Body.String(), `"`+tt.fieldName+`"`) {
				t.Errorf("the answer %s does not name field 2 %q", rec.Body, tt.fieldName)
			}
			if tt.want == nil {
				snap, err := other.Snapshot(context.Background(), "octo-org", "hello-world", 1)
				if err != nil || !errors.Is(snap.IssueErr, issuefields.ErrIssueDeleted) {
					t.Errorf("a Snapshot of the issue = %v, %v; want it deleted", snap.IssueErr, err)
				}
				return
			}
			repo := "hello-world"
			if tt.renamed {
				repo = "renamed"
			}
			values, _ := storedValues(t, other, "octo-org", repo, 1)
			got := map[int64]any{}
			for _, v := range values {
				got[v.FieldID] = v.Text
			}
			if len(got) != len(tt.want) {
				t.Errorf("the issue holds %v, want %v", got, tt.want)
			}
			for id, v := range tt.want {
				if got[id] != v {
					t.Errorf("the issue holds %v, want %v", got, tt.want)
					break
				}
			}
		})
	}
}

// postElsewhere returns an elsewhere of TestWriteAfterChangesElsewhere that POSTs
// body to path through the other server's handler, and returns the answer's
// ETag.
func postElsewhere(path, body string) func(*testing.T, *pgstore.Store, http.Handler) string {
	return func(t *testing.T, _ *pgstore.Store, h http.Handler) string {
		rec := serve(h, "POST", path, body)
		if rec.Code != http.StatusOK {
			t.Fatalf("POST through the other server: status %d: %s", rec.Code, rec.Body)
		}
		return rec.Header().Get("ETag")
	}
}

// seedElsewhere returns an elsewhere of TestWriteAfterChangesElsewhere that
// changes the database with seed methods of the other server's store.
func seedElsewhere(change func(other *pgstore.Store) error) func(*testing.T, *pgstore.Store, http.Handler) string {
	return func(t *testing.T, other *pgstore.Store, _ http.Handler) string {
		if err := change(other); err != nil {
			t.Fatal(err)
		}
		return ""
	}
}

// changeFields replaces the fields of octo-org with what change makes of a
// copy of them, through s.
func changeFields(t *testing.T, s *pgstore.Store, change func([]issuefields.Field) []issuefields.Field) {
	t.Helper()
	_, err := s.ChangeFields(context.Background(), "octo-org", func(current []issuefields.Field) ([]issuefields.Field, error) {
		return change(slices.Clone(current)), nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
