package pgstore_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
)

// errRefused is what the change functions of TestUpdateValuesAfterChangesElsewhere
// return when they refuse the values they are given.
var errRefused = errors.New("refused")

// TestUpdateValuesAfterChangesElsewhere has a Store keep the values of an
// issue by reading them, then changes the issue through another Store on the
// database, as another server would, and writes through the first Store: the
// write must start from what the database holds, not from the values kept,
// and return an error of change only when change refuses the current values.
func TestUpdateValuesAfterChangesElsewhere(t *testing.T) {
	other := []issuefields.Value{{FieldID: 2, Text: "other"}}
	mine := issuefields.Value{FieldID: 1, Text: "mine"}
	tests := []struct {
		name string
		// elsewhere changes the issue through the other Store, and returns
		// the version it wrote, if any.
		elsewhere func(t *testing.T, s *pgstore.Store) issuefields.Version
		// expect is whether change refuses every version but the one
		// elsewhere wrote, as a write with If-Match does; refuse is whether
		// it refuses values that hold a value.
		expect, refuse bool
		wantErr        error
		want           []issuefields.Value
	}{
		{name: "a write elsewhere", elsewhere: writeElsewhere(other), want: append(other, mine)},
		{name: "a write elsewhere that the change expects", elsewhere: writeElsewhere(other), expect: true, want: append(other, mine)},
		{name: "a write elsewhere that the change refuses", elsewhere: writeElsewhere(other), refuse: true, wantErr: errRefused, want: other},
		{name: "the issue deleted elsewhere", elsewhere: func(t *testing.T, s *pgstore.Store) issuefields.Version {
			must(t, s.DeleteIssue("octo-org", "hello-world", 1))
			return ""
		}, wantErr: issuefields.ErrIssueDeleted},
		{name: "the issue transferred elsewhere", elsewhere: func(t *testing.T, s *pgstore.Store) issuefields.Version {
			must(t, s.TransferIssue("octo-org", "hello-world", 1, "octo-org", "hello-world", 2))
			return ""
		}, wantErr: issuefields.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			cfg, elsewhere := newBoundedStore(t, 2, 1)
			s := openStore(t, cfg)
			_, err := s.Snapshot(ctx, "octo-org", "hello-world", 1)
			must(t, err)
			wrote := tt.elsewhere(t, elsewhere)
			var versions []issuefields.Version
			version, err := s.UpdateValues(ctx, "octo-org", "hello-world", 1, func(snap issuefields.Snapshot) ([]issuefields.Value, error) {
				versions = append(versions, snap.Version)
				switch {
				case tt.refuse && len(snap.Values) > 0:
					return nil, errRefused
				case tt.expect && snap.Version != wrote:
					return nil, errRefused
				}
				return append(append([]issuefields.Value(nil), snap.Values...), mine), nil
			})
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("UpdateValues = %q, %v; want an error that wraps %v", version, err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatalf("UpdateValues = %v, after change was called with the versions %q", err, versions)
			}
			if tt.want == nil {
				return
			}
			got, stored := storedValues(t, elsewhere, "octo-org", "hello-world", 1)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("the database holds %v, want %v", got, tt.want)
			}
			if tt.wantErr == nil && stored != version {
				t.Errorf("UpdateValues returned version %q, but the database holds version %q", version, stored)
			}
			if tt.wantErr == nil && version == wrote {
				t.Errorf("UpdateValues returned version %q, which the other Store wrote", version)
			}
		})
	}
}

// TestUpdateValuesAfterRepositoryMadePrivate has a Store keep a Snapshot of
// an issue, makes its repository private in SQL, as another server would,
// and writes through the first Store: the write must be decided on a
// Snapshot that shows the repository private, so that the handler refuses a
// caller who may no longer see it.
func TestUpdateValuesAfterRepositoryMadePrivate(t *testing.T) {
	ctx := context.Background()
	cfg, elsewhere := newBoundedStore(t, 2, 1)
	s := openStore(t, cfg)
	_, err := s.Snapshot(ctx, "octo-org", "hello-world", 1)
	must(t, err)
	_, err = elsewhere.Pool().Exec(ctx, "UPDATE repositories SET private = true")
	must(t, err)
	var last issuefields.Snapshot
	_, err = s.UpdateValues(ctx, "octo-org", "hello-world", 1, func(snap issuefields.Snapshot) ([]issuefields.Value, error) {
		last = snap
		if !snap.Repository.Private {
			return []issuefields.Value{{FieldID: 1, Text: "seen public"}}, nil
		}
		return nil, errRefused
	})
	if !errors.Is(err, errRefused) || !last.Repository.Private {
		t.Errorf("UpdateValues = %v, last given the repository %+v; want the error of a change given it private", err, last.Repository)
	}
	if got, _ := storedValues(t, elsewhere, "octo-org", "hello-world", 1); len(got) != 0 {
		t.Errorf("the database holds %v, want no values", got)
	}
}

// writeElsewhere returns an elsewhere of TestUpdateValuesAfterChangesElsewhere
// that sets the issue's values through the other Store's UpdateValues.
func writeElsewhere(values []issuefields.Value) func(*testing.T, *pgstore.Store) issuefields.Version {
	return func(t *testing.T, s *pgstore.Store) issuefields.Version {
		v, err := s.UpdateValues(context.Background(), "octo-org", "hello-world", 1, func(issuefields.Snapshot) ([]issuefields.Value, error) {
			return values, nil
		})
		must(t, err)
		return v
	}
}

// must fails t at once when err is not nil.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
