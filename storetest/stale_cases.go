package storetest

import (
	"errors"
	"fmt"
	"slices"

	"github.com/issuefields/issuefields"
)

// staleCases check that Store.UpdateIssue stores nothing from a Snapshot
// that the store no longer holds.
var staleCases = []testCase{
	{"A stale Snapshot (after a rename, a transfer of the repository, a change of the owner's fields, a new field, a deleted or transferred issue, another write) gives ErrChanged and stores nothing", updateStale},
}

// A storeChange is a change of the store, after which a Snapshot of issue 1
// of a repository of an organization with octoFields, taken before it, is
// stale.
type storeChange struct {
	what string
	// make changes the store for issue 1 of repo.
	make func(e *env, repo issuefields.Repository)
	// managesFields is set for a change that only a FieldManager makes.
	managesFields bool
}

// storeChanges are the changes that make a Snapshot of an issue stale.
var storeChanges = []storeChange{
	{what: "another write", make: func(e *env, repo issuefields.Repository) {
		e.write(at(repo, 1), changedValues())
	}},
	{what: "SetValues of the issue", make: func(e *env, repo issuefields.Repository) {
		e.setValues(repo.Owner, repo.Name, 1, changedValues())
	}},
	{what: "a rename of the repository", make: func(e *env, repo issuefields.Repository) {
		e.rename(repo.Owner, repo.Name, repo.Name+"-renamed")
	}},
	{what: "a transfer of the repository to another organization", make: func(e *env, repo issuefields.Repository) {
		e.transferRepo(repo.Owner, repo.Name, "other-org")
	}},
	{what: "a new field of the organization", make: func(e *env, repo issuefields.Repository) {
		e.addFields(repo.Owner, []issuefields.Field{{ID: 60, Name: "Later", DataType: issuefields.DataTypeText}})
	}},
	{what: "a change of the organization's fields", managesFields: true, make: func(e *env, repo issuefields.Repository) {
		e.change(repo.Owner, func(current []issuefields.Field) []issuefields.Field {
			next := slices.Clone(current)
			next[0].Name = "Renamed"
			return next
		})
	}},
	{what: "a deletion of the issue", make: func(e *env, repo issuefields.Repository) {
		e.deleteIssue(repo.Owner, repo.Name, 1)
	}},
	{what: "a transfer of the issue", make: func(e *env, repo issuefields.Repository) {
		e.transferIssue(repo.Owner, repo.Name, 1, repo.Owner, repo.Name, 2)
	}},
}

// updateStale writes issue 1 of a repository, reads a Snapshot of it,
// changes the store, and writes from that Snapshot: UpdateIssue must give
// ErrChanged, and the issue must hold, wherever it is now, what it held
// after the change.
func updateStale(e *env) {
	e.addOrgs("other-org")
	e.addFields("other-org", otherFields())
	for i, c := range storeChanges {
		if c.managesFields && e.manager() == nil {
			continue
		}
		org := fmt.Sprint("org-", i)
		e.addOrgs(org)
		e.addFields(org, octoFields())
		repo := e.addRepoWithIssue(org, "repo-"+org)
		is := at(repo, 1)
		e.write(is, someValues())
		stale := e.read(is)
		c.make(e, repo)
		before := e.now(is)
		_, err := e.update(stale, staleValues())
		when := "after " + c.what
		e.wantChanged(err, when)
		if after := e.now(is); !after.same(before) {
			e.r.Errorf("%s, UpdateIssue from a Snapshot taken before it changed the issue from %+v to %+v", when, before, after)
		}
	}
}

// staleValues are what a write from a stale Snapshot tries to store.
func staleValues() []issuefields.Value {
	return []issuefields.Value{{FieldID: 10, Text: "from a stale Snapshot"}}
}

// An issueState is what an issue holds, wherever it is now, or the error
// of one that is gone.
type issueState struct {
	key     issuefields.IssueKey
	values  []issuefields.Value
	version issuefields.Version
	err     error
}

// same reports whether s and t are the same state.
func (s issueState) same(t issueState) bool {
	return s.key == t.key && equalValues(s.values, t.values) && s.version == t.version &&
		(s.err == nil) == (t.err == nil) && errors.Is(s.err, issuefields.ErrIssueDeleted) == errors.Is(t.err, issuefields.ErrIssueDeleted)
}

// now returns the state of the issue that is asks for, following its
// transfers.
func (e *env) now(is issueAt) issueState {
	e.r.Helper()
	snap := e.snapshot(is.owner, is.name, is.number)
	if snap.IssueErr == nil && snap.Issue.Key() != (issuefields.IssueKey{RepositoryID: snap.Repository.ID, Number: is.number}) {
		moved := snap.Issue
		snap = e.snapshot(moved.Repository.Owner, moved.Repository.Name, moved.Number)
	}
	if snap.IssueErr != nil {
		return issueState{err: snap.IssueErr}
	}
	return issueState{key: snap.Issue.Key(), values: snap.Issue.Values, version: snap.Issue.Version}
}
