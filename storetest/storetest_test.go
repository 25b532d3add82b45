package storetest_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/conformance"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/storetest"
)

func TestMemstorePasses(t *testing.T) {
	if err := storetest.TestStore(func() (storetest.Store, error) { return memstore.New(), nil }); err != nil {
		t.Fatal(err)
	}
}

// snapshotEditing returns a function that makes a snapshotEdit of edit.
func snapshotEditing(edit func(owner, name string, number int64, snap *issuefields.Snapshot) error) func(*memstore.Store) storetest.Store {
	return func(s *memstore.Store) storetest.Store { return snapshotEdit{s, edit} }
}

// valuesEditing returns a function that makes a valuesEdit of edit.
func valuesEditing(edit func([]issuefields.Value)) func(*memstore.Store) storetest.Store {
	return func(s *memstore.Store) storetest.Store { return valuesEdit{s, edit} }
}

func TestBrokenStoresFail(t *testing.T) {
	tests := []struct {
		name  string
		store func(*memstore.Store) storetest.Store
		want  []string // cases that must fail, among others
	}{
		{"case-sensitive lookup",
			func(s *memstore.Store) storetest.Store { return caseSensitive{s} },
			[]string{"Snapshot matches owner and name case-insensitively"}},
		{"no former names",
			func(s *memstore.Store) storetest.Store { return currentNamesOnly{s} },
			[]string{
				"Snapshot finds a renamed repository by every former name, under its current name",
				"Snapshot finds a transferred repository by every former owner and name, under its current owner and name",
			}},
		{"not found without ErrNotFound",
			func(s *memstore.Store) storetest.Store { return opaqueNotFound{s} },
			[]string{"Snapshot returns ErrNotFound when no repository has or had that name"}},
		{"every repository public",
			snapshotEditing(func(_, _ string, _ int64, snap *issuefields.Snapshot) error {
				snap.Repository.Private = false
				return nil
			}),
			[]string{"Snapshot reports whether the repository is private"}},
		{"every owner an organization",
			snapshotEditing(func(_, _ string, _ int64, snap *issuefields.Snapshot) error {
				snap.Repository.OwnedByOrganization = true
				return nil
			}),
			[]string{"Snapshot reports whether an organization owns the repository"}},
		{"transfers not followed",
			snapshotEditing(func(_, _ string, number int64, snap *issuefields.Snapshot) error {
				if moved(snap, number) {
					snap.Issue, snap.IssueErr = issuefields.Issue{}, issuefields.ErrNotFound
				}
				return nil
			}),
			[]string{
				"Snapshot returns a transferred issue in its new repository, with its new number",
				"Snapshot follows a chain of transfers to where the issue is now",
			}},
		{"deleted issue not found",
			snapshotEditing(func(_, _ string, _ int64, snap *issuefields.Snapshot) error {
				if errors.Is(snap.IssueErr, issuefields.ErrIssueDeleted) {
					snap.IssueErr = issuefields.ErrNotFound
				}
				return nil
			}),
			[]string{"Snapshot's IssueErr wraps ErrIssueDeleted for an issue that was deleted"}},
		{"issue under the name asked for",
			snapshotEditing(func(owner, name string, _ int64, snap *issuefields.Snapshot) error {
				if snap.Issue.Repository.ID == snap.Repository.ID {
					snap.Issue.Repository.Owner, snap.Issue.Repository.Name = owner, name
				}
				return nil
			}),
			[]string{"Snapshot returns the issue in its repository as it is now, after a rename and a transfer"}},
		{"fields in ID order",
			snapshotEditing(func(_, _ string, _ int64, snap *issuefields.Snapshot) error {
				fieldsByID(snap.Fields)
				return nil
			}),
			[]string{"Snapshot returns the organization's fields in the organization's order, with their options in order"}},
		{"options in ID order",
			snapshotEditing(func(_, _ string, _ int64, snap *issuefields.Snapshot) error {
				optionsByID(snap.Fields)
				return nil
			}),
			[]string{"Snapshot returns the organization's fields in the organization's order, with their options in order"}},
		{"user's repository with an organization's fields",
			func(s *memstore.Store) storetest.Store {
				return snapshotEdit{s, func(_, _ string, _ int64, snap *issuefields.Snapshot) error {
					if !snap.Repository.OwnedByOrganization {
						snap.Fields, _ = s.OrganizationFields(context.Background(), "octo-org")
					}
					return nil
				}}
			},
			[]string{"Snapshot returns no fields for a repository owned by a user"}},
		{"fields of the first owner",
			func(s *memstore.Store) storetest.Store {
				return &cachedFields{Store: s, cache: make(map[int64][]issuefields.Field)}
			},
			[]string{"Snapshot returns the new organization's fields for a transferred repository"}},
		{"one buffer for every Snapshot's fields",
			func(s *memstore.Store) storetest.Store { return &oneFieldsBuffer{Store: s} },
			[]string{"Snapshot hands out fields that later calls and AddField leave as they were"}},
		{"SetValues writing into values handed out",
			func(s *memstore.Store) storetest.Store {
				return &valuesOverwritten{Store: s, handedOut: make(map[issuefields.IssueKey][]issuefields.Value)}
			},
			[]string{"Snapshot hands out values that later calls and writes leave as they were"}},
		{"values in field order",
			valuesEditing(func(values []issuefields.Value) {
				slices.SortFunc(values, func(a, b issuefields.Value) int { return int(a.FieldID - b.FieldID) })
			}),
			[]string{"Snapshot shows the values exactly as they were written, in the order they were written"}},
		{"option IDs sorted",
			valuesEditing(func(values []issuefields.Value) {
				for _, v := range values {
					slices.Sort(v.OptionIDs)
				}
			}),
			[]string{"Snapshot shows the values exactly as they were written, in the order they were written"}},
		{"numbers as float32",
			valuesEditing(func(values []issuefields.Value) {
				for i := range values {
					if n := float32(values[i].Number); !math.IsInf(float64(n), 0) {
						values[i].Number = float64(n)
					}
				}
			}),
			[]string{"Snapshot shows the values exactly as they were written, in the order they were written"}},
		{"the caller's slice kept",
			func(s *memstore.Store) storetest.Store {
				return &aliasing{Store: s, in: same[[]issuefields.Value], out: deep, kept: make(map[issuefields.IssueKey][]issuefields.Value)}
			},
			[]string{"UpdateIssue copies the values it is given"}},
		{"shallow copies",
			func(s *memstore.Store) storetest.Store {
				return &aliasing{Store: s, in: shallow, out: shallow, kept: make(map[issuefields.IssueKey][]issuefields.Value)}
			},
			[]string{"UpdateIssue copies the values it is given"}},
		{"UpdateIssue ignoring the version",
			func(s *memstore.Store) storetest.Store { return versionIgnored{s} },
			[]string{
				"Of many writers that UpdateIssue from the same Snapshot, exactly one wins and the others get ErrChanged",
				"A stale Snapshot (after a rename, a transfer of the repository, a change of the owner's fields, a new field, a deleted or transferred issue, another write) gives ErrChanged and stores nothing",
			}},
		{"UpdateIssue checking the version alone",
			func(s *memstore.Store) storetest.Store { return versionOnly{s} },
			[]string{"A stale Snapshot (after a rename, a transfer of the repository, a change of the owner's fields, a new field, a deleted or transferred issue, another write) gives ErrChanged and stores nothing"}},
		{"UpdateIssue writing a transferred issue at its new place",
			func(s *memstore.Store) storetest.Store { return followsTransfers{s} },
			[]string{"UpdateIssue from a Snapshot that shows no live issue in its repository gives ErrChanged and stores nothing"}},
		{"UpdateIssue clearing the values when it cannot store",
			func(s *memstore.Store) storetest.Store { return clearedOnError{s} },
			[]string{"A stale Snapshot (after a rename, a transfer of the repository, a change of the owner's fields, a new field, a deleted or transferred issue, another write) gives ErrChanged and stores nothing"}},
		{"UpdateIssue validating values",
			func(s *memstore.Store) storetest.Store { return oneFieldOnce{s} },
			[]string{"UpdateIssue stores the values it is given as they are, without validating them"}},
		{"versions named by content",
			func(s *memstore.Store) storetest.Store { return renamedVersions{s, byContent} },
			[]string{"UpdateIssue stores next and returns a version the issue never had"}},
		{"versions that repeat",
			func(s *memstore.Store) storetest.Store { return renamedVersions{s, modulo3} },
			[]string{"UpdateIssue stores next and returns a version the issue never had"}},
		{"one version for the whole store",
			func(s *memstore.Store) storetest.Store { return &globalVersion{Store: s} },
			[]string{
				"UpdateIssue on one issue changes no other issue's values or version",
				"UpdateIssue on different issues at the same time never conflicts",
			}},
		{"ChangeFields reusing the IDs of deleted fields",
			func(s *memstore.Store) storetest.Store { return reusedIDs{s} },
			[]string{"ChangeFields never gives an ID that a field or an option of the organization had before, even a deleted one"}},
		{"ChangeFields not atomic",
			func(s *memstore.Store) storetest.Store { return fieldsNotAtomic{s} },
			[]string{"ChangeFields is atomic: concurrent changes of one organization lose no field and give no ID twice"}},
		{"ChangeFields validating fields",
			func(s *memstore.Store) storetest.Store { return optionsRequired{s} },
			[]string{"ChangeFields stores the fields that change returns as given, without validating them"}},
		{"ChangeFields refusing names that a change keeps",
			func(s *memstore.Store) storetest.Store { return namesRefusedWhenKept{s} },
			[]string{"ChangeFields stores a field or an option with another one's name, or refuses it and changes nothing; names a change keeps are never refused"}},
		{"ChangeFields keeping the change's slice",
			func(s *memstore.Store) storetest.Store {
				return &keptFields{Store: s, kept: make(map[string][]issuefields.Field)}
			},
			[]string{"ChangeFields copies the fields that change returns"}},
		{"ChangeFields writing into fields handed out",
			func(s *memstore.Store) storetest.Store {
				return &fieldsOverwritten{Store: s, handedOut: make(map[string][]issuefields.Field)}
			},
			[]string{"OrganizationFields, Snapshot and ChangeFields hand out fields that later changes leave as they were"}},
		{"AddField accepting a duplicate option name",
			func(s *memstore.Store) storetest.Store { return duplicateOptionNames{s} },
			[]string{"AddField refuses a field with a duplicate option name and changes nothing"}},
		{"AddIssue clearing values before it refuses a number",
			func(s *memstore.Store) storetest.Store { return clearBeforeAddIssue{s} },
			[]string{"AddIssue refuses a number that the repository has or had, live, deleted or transferred, and changes nothing"}},
		{"TransferIssue leaving the values behind",
			func(s *memstore.Store) storetest.Store { return valuesLeftBehind{s} },
			[]string{"TransferIssue moves the issue's values to its new place, replacing the values there under a new version"}},
		{"RenameRepository forgetting the former name",
			func(s *memstore.Store) storetest.Store {
				return &forgetfulRename{Store: s, forgotten: make(map[[2]string]bool)}
			},
			[]string{
				"Snapshot finds a renamed repository by every former name, under its current name",
				"RenameRepository takes over a former name of another repository, which keeps its other names",
			}},
		{"Empty leaving everything as it was",
			func(s *memstore.Store) storetest.Store { return emptyDoesNothing{s} },
			[]string{
				"Empty drops every organization, repository and issue: Snapshot then finds no repository by any name it had",
				"After Empty, the seed methods fill the store as a new one, with the organizations, names and issue numbers it held",
			}},
		{"Snapshot panicking",
			snapshotEditing(func(string, string, int64, *issuefields.Snapshot) error { panic("boom") }),
			[]string{"Snapshot returns no fields for a repository owned by a user:\n\tpanic: boom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			conformance.ExpectFailures(t, storetest.TestStore(func() (storetest.Store, error) { return tt.store(memstore.New()), nil }), tt.want)
		})
	}
}

func TestNewStoreError(t *testing.T) {
	err := storetest.TestStore(func() (storetest.Store, error) { return nil, errors.New("no database") })
	want := "Snapshot finds a repository by its owner and name:\n\tnew store: no database"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("TestStore = %v, want an error containing %q", err, want)
	}
}
