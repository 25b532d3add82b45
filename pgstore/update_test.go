package pgstore_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
)

// TestUpdateIssueAfterChangesElsewhere has a Store read a Snapshot of an
// issue, then changes the store through another Store on the database, or
// in SQL, as another server would, and writes from the Snapshot through the
// first Store: the write must give ErrChanged and leave the database as the
// change left it. Without a change, it stores.
func TestUpdateIssueAfterChangesElsewhere(t *testing.T) {
	mine := []issuefields.Value{{FieldID: 1, Text: "mine"}}
	tests := []struct {
		name string
		// elsewhere changes the store through the other Store.
		elsewhere func(t *testing.T, s *pgstore.Store)
	}{
		{"nothing", func(*testing.T, *pgstore.Store) {}},
		{"a write elsewhere", func(t *testing.T, s *pgstore.Store) {
			write(t, s, []issuefields.Value{{FieldID: 2, Text: "other"}})
		}},
		{"the issue deleted elsewhere", func(t *testing.T, s *pgstore.Store) {
			must(t, s.DeleteIssue("octo-org", "hello-world", 1))
		}},
		{"the issue transferred elsewhere", func(t *testing.T, s *pgstore.Store) {
			must(t, s.TransferIssue("octo-org", "hello-world", 1, "octo-org", "hello-world", 2))
		}},
		{"a field added elsewhere", func(t *testing.T, s *pgstore.Store) {
			must(t, s.AddField("octo-org", issuefields.Field{ID: 9, Name: "Later", DataType: issuefields.DataTypeText}))
		}},
		{"the repository renamed elsewhere", func(t *testing.T, s *pgstore.Store) {
			must(t, s.RenameRepository("octo-org", "hello-world", "renamed"))
		}},
		{"the repository made private in SQL", func(t *testing.T, s *pgstore.Store) {
			_, err := s.Pool().Exec(context.Background(), "UPDATE repositories SET private = true")
			must(t, err)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			cfg, elsewhere := newBoundedStore(t, 2, 1)
			s := openStore(t, cfg)
			snap, err := s.Snapshot(ctx, "octo-org", "hello-world", 1)
			must(t, err)
			tt.elsewhere(t, elsewhere)
			before := dump(t, elsewhere)
			version, err := s.UpdateIssue(ctx, snap, issuefields.Issue{Values: mine})
			if tt.name == "nothing" {
				if err != nil {
					t.Fatalf("UpdateIssue from a current Snapshot: %v", err)
				}
				got, stored := storedValues(t, elsewhere, "octo-org", "hello-world", 1)
				if !reflect.DeepEqual(got, mine) || stored != version || version == snap.Issue.Version {
					t.Errorf("UpdateIssue returned version %q (from %q); the database holds %v at %q, want %v at it", version, snap.Issue.Version, got, stored, mine)
				}
				return
			}
			if !errors.Is(err, issuefields.ErrChanged) {
				t.Errorf("UpdateIssue = %q, %v; want an error that wraps ErrChanged", version, err)
			}
			if after := dump(t, elsewhere); after != before {
				t.Errorf("UpdateIssue from a stale Snapshot changed the issues from\n%s\nto\n%s", before, after)
			}
		})
	}
}

// write replaces the values of issue 1 of octo-org/hello-world through s.
func write(t *testing.T, s *pgstore.Store, values []issuefields.Value) issuefields.Version {
	t.Helper()
	ctx := context.Background()
	snap, err := s.Snapshot(ctx, "octo-org", "hello-world", 1)
	must(t, err)
	v, err := s.UpdateIssue(ctx, snap, issuefields.Issue{Values: values})
	must(t, err)
	return v
}

// dump returns every row of the issues table as text.
func dump(t *testing.T, s *pgstore.Store) string {
	t.Helper()
	var rows string
	err := s.Pool().QueryRow(context.Background(),
		`SELECT coalesce(string_agg(format('%s %s %s %s %s', repository_id, number, state, version, field_values), E'\n' ORDER BY repository_id, number), '') FROM issues`).Scan(&rows)
	must(t, err)
	return rows
}

// must fails t at once when err is not nil.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
