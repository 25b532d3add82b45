package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/issuefields/issuefields"
)

// staleCases check that Store.UpdateValues stores only what change computed
// from a Snapshot that the store still holds.
var staleCases = []testCase{
	{"UpdateValues calls change again with the current Snapshot after a change of the values, the repository, its fields or the issue, and stores only what that call returns", updateAfterChanges},
}

// staleValues are what a change returns for a Snapshot that is not current,
// when it does not refuse it.
func staleValues() []issuefields.Value {
	return []issuefields.Value{{FieldID: 10, Text: "from a stale Snapshot"}}
}

// A storeChange is a change of the store made through the Seeder, after
// which issue 1 of a repository of an organization with octoFields is to be
// written.
type storeChange struct {
	what string
	// make changes the store for issue 1 of repo.
	make func(e *env, repo issuefields.Repository)
	// shows reports whether a Snapshot of the issue shows the change.
	shows func(snap issuefields.Snapshot) bool
	// live is set when the issue is still there to be written.
	live bool
}

// storeChanges are the changes that make what a store may keep of an issue
// stale.
var storeChanges = []storeChange{
	{"SetValues of the issue",
		func(e *env, repo issuefields.Repository) { e.setValues(repo.Owner, repo.Name, 1, changedValues()) },
		func(snap issuefields.Snapshot) bool { return equalValues(snap.Values, changedValues()) }, true},
	{"a rename of the repository",
		func(e *env, repo issuefields.Repository) { e.rename(repo.Owner, repo.Name, repo.Name+"-renamed") },
		func(snap issuefields.Snapshot) bool { return strings.HasSuffix(snap.Repository.Name, "-renamed") }, true},
	{"a transfer of the repository to another organization",
		func(e *env, repo issuefields.Repository) { e.transferRepo(repo.Owner, repo.Name, "other-org") },
		func(snap issuefields.Snapshot) bool {
			return strings.EqualFold(snap.Repository.Owner, "other-org") && equalFields(snap.Fields, otherFields())
		}, true},
	{"a new field of the organization",
		func(e *env, repo issuefields.Repository) {
			e.addFields(repo.Owner, []issuefields.Field{{ID: 60, Name: "Later", DataType: issuefields.DataTypeText}})
		},
		func(snap issuefields.Snapshot) bool {
			return slices.ContainsFunc(snap.Fields, func(f issuefields.Field) bool { return f.ID == 60 })
		}, true},
	{"a deletion of the issue",
		func(e *env, repo issuefields.Repository) { e.deleteIssue(repo.Owner, repo.Name, 1) },
		func(snap issuefields.Snapshot) bool { return errors.Is(snap.IssueErr, issuefields.ErrIssueDeleted) }, false},
	{"a transfer of the issue",
		func(e *env, repo issuefields.Repository) {
			e.transferIssue(repo.Owner, repo.Name, 1, repo.Owner, repo.Name, 2)
		},
		func(snap issuefields.Snapshot) bool { return snap.IssueErr == nil && snap.Issue.Number == 2 }, false},
}

// updateAfterChanges writes issue 1 of a repository, reads it, changes the
// store, and writes it again with a change that either refuses or answers
// differently a Snapshot that does not show the store's change: a store may
// call change with what it kept from the first write and read, but must call
// it again with the current Snapshot, and store only what that call returns.
func updateAfterChanges(e *env) {
	e.addOrgs("other-org")
	e.addFields("other-org", otherFields())
	for i, c := range storeChanges {
		for _, refuse := range []bool{true, false} {
			org := fmt.Sprintf("org-%d-%t", i, refuse)
			e.addOrgs(org)
			e.addFields(org, octoFields())
			repo := e.addRepoWithIssue(org, "repo-"+org)
			is := at(repo, 1)
			e.swap(is, someValues())
			e.shown(repo, 1)
			c.make(e, repo)
			var last issuefields.Snapshot
			_, err := e.s.UpdateValues(e.ctx, is.owner, is.name, is.number, func(snap issuefields.Snapshot) ([]issuefields.Value, error) {
				last = snap
				switch {
				case !c.shows(snap) && refuse:
					return nil, errStale
				case !c.shows(snap):
					return staleValues(), nil
				case !c.live:
					return nil, errGone
				}
				return changedValues(), nil
			})
			when := fmt.Sprintf("after %s, UpdateValues with a change that %s a stale Snapshot", c.what, map[bool]string{true: "refuses", false: "answers"}[refuse])
			if !c.shows(last) {
				e.r.Errorf("%s last gave change a Snapshot without it: %+v", when, last)
			}
			if c.live {
				if err != nil {
					e.r.Errorf("%s: %v", when, err)
				}
				e.wantValues(is, changedValues(), when)
				continue
			}
			if !errors.Is(err, errGone) {
				e.r.Errorf("%s = %v, want an error that wraps the error of the last call of change", when, err)
			}
			if got := e.read(issueAt{is.owner, is.name, 2}); got.IssueErr == nil && !equalValues(got.Values, someValues()) {
				e.r.Errorf("%s: the issue holds %v at its new place, want %v", when, got.Values, someValues())
			}
		}
	}
}
