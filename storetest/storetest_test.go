package storetest_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/storetest"
)

func TestMemstorePasses(t *testing.T) {
	if err := storetest.TestStore(func() (storetest.Store, error) { return memstore.New(), nil }); err != nil {
		t.Fatal(err)
	}
}

func TestBrokenStoresFail(t *testing.T) {
	tests := []struct {
		name  string
		store func(*memstore.Store) storetest.Store
		want  []string // cases that must fail, among others
	}{
		{"case-sensitive lookup",
			func(s *memstore.Store) storetest.Store { return caseSensitive{s} },
			[]string{"Repository matches owner and name case-insensitively"}},
		{"no former names",
			func(s *memstore.Store) storetest.Store { return currentNamesOnly{s} },
			[]string{
				"Repository finds a renamed repository by every former name, under its current name",
				"Repository finds a transferred repository by every former owner and name, under its current owner and name",
			}},
		{"not found without ErrNotFound",
			func(s *memstore.Store) storetest.Store { return opaqueNotFound{s} },
			[]string{"Repository returns ErrNotFound when no repository has or had that name"}},
		{"every repository public",
			func(s *memstore.Store) storetest.Store {
				return repositoryEdit{s, func(r *issuefields.Repository) { r.Private = false }}
			},
			[]string{"Repository reports whether the repository is private"}},
		{"every owner an organization",
			func(s *memstore.Store) storetest.Store {
				return repositoryEdit{s, func(r *issuefields.Repository) { r.OwnedByOrganization = true }}
			},
			[]string{"Repository reports whether an organization owns the repository"}},
		{"Issue not following transfers",
			func(s *memstore.Store) storetest.Store {
				return issueEdit{s, func(repo issuefields.Repository, number int64, is issuefields.Issue, err error) (issuefields.Issue, error) {
					if err == nil && (is.Repository.ID != repo.ID || is.Number != number) {
						return issuefields.Issue{}, issuefields.ErrNotFound
					}
					return is, err
				}}
			},
			[]string{
				"Issue returns a transferred issue in its new repository, with its new number",
				"Issue follows a chain of transfers to where the issue is now",
			}},
		{"deleted issue not found",
			func(s *memstore.Store) storetest.Store {
				return issueEdit{s, func(_ issuefields.Repository, _ int64, is issuefields.Issue, err error) (issuefields.Issue, error) {
					if errors.Is(err, issuefields.ErrIssueDeleted) {
						return is, issuefields.ErrNotFound
					}
					return is, err
				}}
			},
			[]string{"Issue returns ErrIssueDeleted for an issue that was deleted"}},
		{"Issue echoing the repository it is given",
			func(s *memstore.Store) storetest.Store {
				return issueEdit{s, func(repo issuefields.Repository, _ int64, is issuefields.Issue, err error) (issuefields.Issue, error) {
					if is.Repository.ID == repo.ID {
						is.Repository = repo
					}
					return is, err
				}}
			},
			[]string{"Issue returns the issue in its repository as it is now, after a rename and a transfer"}},
		{"fields in ID order",
			func(s *memstore.Store) storetest.Store { return fieldsEdit{s, fieldsByID} },
			[]string{"Fields returns the organization's fields in the organization's order, with their options in order"}},
		{"options in ID order",
			func(s *memstore.Store) storetest.Store { return fieldsEdit{s, optionsByID} },
			[]string{"Fields returns the organization's fields in the organization's order, with their options in order"}},
		{"user's repository an error",
			func(s *memstore.Store) storetest.Store {
				return fieldsEdit{s, func(repo issuefields.Repository, fields []issuefields.Field) ([]issuefields.Field, error) {
					if !repo.OwnedByOrganization {
						return nil, issuefields.ErrNotFound
					}
					return fields, nil
				}}
			},
			[]string{"Fields returns an empty slice and no error for a repository owned by a user"}},
		{"fields of the first owner",
			func(s *memstore.Store) storetest.Store {
				return &cachedFields{Store: s, cache: make(map[int64][]issuefields.Field)}
			},
			[]string{"Fields returns the new organization's fields for a transferred repository"}},
		{"one buffer for every Fields answer",
			func(s *memstore.Store) storetest.Store { return &oneFieldsBuffer{Store: s} },
			[]string{"Fields returns a snapshot that later calls and AddField leave as it was"}},
		{"SetValues writing into values handed out",
			func(s *memstore.Store) storetest.Store {
				return &valuesOverwritten{Store: s, handedOut: make(map[issuefields.IssueKey][]issuefields.Value)}
			},
			[]string{"Values returns a snapshot that later calls and writes leave as it was"}},
		{"values in field order",
			func(s *memstore.Store) storetest.Store {
				return valuesEdit{s, func(values []issuefields.Value) {
					slices.SortFunc(values, func(a, b issuefields.Value) int { return int(a.FieldID - b.FieldID) })
				}}
			},
			[]string{"Values returns the values exactly as they were written, in the order they were written"}},
		{"option IDs sorted",
			func(s *memstore.Store) storetest.Store {
				return valuesEdit{s, func(values []issuefields.Value) {
					for _, v := range values {
						slices.Sort(v.OptionIDs)
					}
				}}
			},
			[]string{"Values returns the values exactly as they were written, in the order they were written"}},
		{"numbers as float32",
			func(s *memstore.Store) storetest.Store {
				return valuesEdit{s, func(values []issuefields.Value) {
					for i := range values {
						if n := float32(values[i].Number); !math.IsInf(float64(n), 0) {
							values[i].Number = float64(n)
						}
					}
				}}
			},
			[]string{"Values returns the values exactly as they were written, in the order they were written"}},
		{"the caller's slice kept",
			func(s *memstore.Store) storetest.Store {
				return &aliasing{Store: s, in: same[[]issuefields.Value], out: deep, kept: make(map[issuefields.IssueKey][]issuefields.Value)}
			},
			[]string{"CompareAndSwap copies the values it is given"}},
		{"shallow copies",
			func(s *memstore.Store) storetest.Store {
				return &aliasing{Store: s, in: shallow, out: shallow, kept: make(map[issuefields.IssueKey][]issuefields.Value)}
			},
			[]string{"CompareAndSwap copies the values it is given"}},
		{"CompareAndSwap ignoring the version",
			func(s *memstore.Store) storetest.Store { return swapEdit{s, ignoreVersion} },
			[]string{
				"CompareAndSwap with a stale version returns ErrVersionConflict and changes nothing",
				"CompareAndSwap lets exactly one of many concurrent writers with the same expected version win",
			}},
		{"CompareAndSwap not atomic",
			func(s *memstore.Store) storetest.Store { return swapEdit{s, checkThenWrite} },
			[]string{
				"CompareAndSwap is atomic: concurrent read-modify-write loops on one issue lose no value",
				"CompareAndSwap lets exactly one of many concurrent writers with the same expected version win",
			}},
		{"CompareAndSwap validating values",
			func(s *memstore.Store) storetest.Store { return swapEdit{s, knownFieldsOnly} },
			[]string{"CompareAndSwap stores values as they are given, without validating them"}},
		{"versions named by content",
			func(s *memstore.Store) storetest.Store { return &renamedVersions{Store: s, name: byContent} },
			[]string{"CompareAndSwap returns a version that differs from every version the issue had before"}},
		{"versions that repeat",
			func(s *memstore.Store) storetest.Store { return &renamedVersions{Store: s, name: modulo3} },
			[]string{"CompareAndSwap returns a version that differs from every version the issue had before"}},
		{"one version for the whole store",
			func(s *memstore.Store) storetest.Store { return &globalVersion{Store: s} },
			[]string{
				"CompareAndSwap on one issue changes no other issue's values or version",
				"CompareAndSwap on different issues at the same time never conflicts",
			}},
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
				"Repository finds a renamed repository by every former name, under its current name",
				"RenameRepository takes over a former name of another repository, which keeps its other names",
			}},
		{"Fields panicking",
			func(s *memstore.Store) storetest.Store {
				return fieldsEdit{s, func(issuefields.Repository, []issuefields.Field) ([]issuefields.Field, error) { panic("boom") }}
			},
			[]string{"Fields returns an empty slice and no error for a repository owned by a user:\n\tpanic: boom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := storetest.TestStore(func() (storetest.Store, error) { return tt.store(memstore.New()), nil })
			if err == nil {
				t.Fatal("TestStore passed a broken store")
			}
			for _, c := range tt.want {
				if !strings.Contains(err.Error(), c) {
					t.Errorf("TestStore did not fail %q; it failed:\n%v", c, err)
				}
			}
		})
	}
}

func TestNewStoreError(t *testing.T) {
	err := storetest.TestStore(func() (storetest.Store, error) { return nil, errors.New("no database") })
	want := "Repository finds a repository by its owner and name:\n\tnew store: no database"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("TestStore = %v, want an error containing %q", err, want)
	}
}
