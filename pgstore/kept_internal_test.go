package pgstore

import (
	"testing"

	"github.com/issuefields/issuefields"
)

// TestKeptSnapshotNeedsFieldsOfItsVersion checks that KeptSnapshot answers
// only with the owner's fields at the version that was read with the owner's
// snapshot version, which stands for those fields alone: two requests that
// read the fields while they change may leave another version in memory.
func TestKeptSnapshotNeedsFieldsOfItsVersion(t *testing.T) {
	repo := issuefields.Repository{ID: 1, Owner: "octo-org", Name: "hello-world", OwnedByOrganization: true}
	for _, tt := range []struct {
		name                      string
		keptFields, readWithOwner int64
		wantOK                    bool
	}{
		{"the version read with the owner", 6, 6, true},
		{"an older version", 5, 6, false},
		{"a newer version", 7, 6, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := &Store{}
			s.repos.put([2]string{"octo-org", "hello-world"},
				keptRepository{repo: repo, ownerID: 10, snapshotVersion: 100, fieldsVersion: tt.readWithOwner})
			s.fields.accounts = map[int64]cachedFields{
				10: {version: tt.keptFields, fields: []issuefields.Field{{ID: 1, Name: "Field 1", DataType: issuefields.Text}}},
			}
			s.recent.put(issuefields.IssueKey{RepositoryID: 1, Number: 1}, 3, []issuefields.Value{{FieldID: 1, Text: "kept"}})
			snap, check, ok := s.KeptSnapshot("Octo-Org", "hello-world", 1)
			if ok != tt.wantOK {
				t.Fatalf("KeptSnapshot with fields kept at version %d, read at %d: ok %t, want %t",
					tt.keptFields, tt.readWithOwner, ok, tt.wantOK)
			}
			if !ok {
				return
			}
			want := keptCheck{ownerID: 10, snapshotVersion: 100, key: issuefields.IssueKey{RepositoryID: 1, Number: 1}, version: 3}
			if c, _ := check.(*keptCheck); c == nil || *c != want {
				t.Errorf("KeptSnapshot's check = %+v, want %+v", check, want)
			}
			if snap.Repository != repo || snap.Version != "3" || len(snap.Fields) != 1 || len(snap.Values) != 1 {
				t.Errorf("KeptSnapshot = %+v, want repository %+v, its fields and the kept values at version 3", snap, repo)
			}
		})
	}
}
