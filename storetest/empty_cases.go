package storetest

import (
	"errors"
	"slices"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/seed"
)

// emptyCases check seed.Emptier, for a store that implements it; for
// another store each case passes without a call.
var emptyCases = []testCase{
	{"Empty drops every organization, repository and issue: Snapshot then finds no repository by any name it had", emptyDrops},
	{"After Empty, the seed methods fill the store as a new one, with the organizations, names and issue numbers it held", emptySeedsAgain},
	{"After Empty, an issue seeded again has a version that no issue had before, and a Snapshot from before Empty gives ErrChanged", emptyNewVersions},
	{"After Empty, created issues are gone, and after the same seeding a create gets the number and the ID that the first one got", emptyRestoresCreates},
}

// emptier returns the store as a seed.Emptier, or nil if it is not one.
func (e *env) emptier() seed.Emptier {
	m, _ := e.s.(seed.Emptier)
	return m
}

// empty empties the store, and ends the case if Empty fails.
func (e *env) empty() {
	e.r.Helper()
	if err := e.emptier().Empty(e.ctx); err != nil {
		e.r.Fatalf("Empty: %v", err)
	}
}

// seedForEmpty gives the store the organization octo-org with its fields,
// the repository hello-world, which was called former, and its issue 1 with
// some values, which it returns.
func (e *env) seedForEmpty() issueAt {
	e.r.Helper()
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	e.addRepoWithIssue("octo-org", "former")
	e.rename("octo-org", "former", "hello-world")
	e.setValues("octo-org", "hello-world", 1, someValues())
	return issueAt{"octo-org", "hello-world", 1}
}

func emptyDrops(e *env) {
	if e.emptier() == nil {
		return
	}
	e.seedForEmpty()
	e.addRepo("octocat", "hello-world", false)
	e.empty()
	for _, name := range [][2]string{{"octo-org", "hello-world"}, {"octo-org", "former"}, {"octocat", "hello-world"}} {
		if snap, err := e.s.Snapshot(e.ctx, name[0], name[1], 1); !errors.Is(err, issuefields.ErrNotFound) {
			e.r.Errorf("after Empty, Snapshot(%q, %q, 1) = %+v, %v; want ErrNotFound", name[0], name[1], snap, err)
		}
	}
}

func emptySeedsAgain(e *env) {
	if e.emptier() == nil {
		return
	}
	e.seedForEmpty()
	e.empty()
	is := e.seedForEmpty()
	repo := e.repo("octo-org", "former")
	if repo.Name != "hello-world" {
		e.r.Errorf("after Empty and the same seeding, Snapshot finds octo-org/former as %+v, want octo-org/hello-world", repo)
	}
	e.wantFields(repo, octoFields())
	e.wantValues(is, someValues(), "after Empty and the same seeding")
}

func emptyNewVersions(e *env) {
	if e.emptier() == nil {
		return
	}
	is := e.seedForEmpty()
	before := e.read(is)
	had := []issuefields.Version{before.Issue.Version, e.write(is, changedValues())}
	e.empty()
	e.seedForEmpty()
	if _, v := e.values(is); slices.Contains(had, v) {
		e.r.Errorf("after Empty, the issue seeded again has the version %q, which it had before Empty (%q)", v, had)
	}
	_, err := e.update(before, changedValues())
	e.wantChanged(err, "UpdateIssue from a Snapshot taken before Empty, after the issue was seeded again")
	e.wantValues(is, someValues(), "after UpdateIssue from a Snapshot taken before Empty")
	if v := e.write(is, changedValues()); slices.Contains(had, v) {
		e.r.Errorf("after Empty, a write of the issue seeded again gave the version %q, which it had before Empty (%q)", v, had)
	}
}

func emptyRestoresCreates(e *env) {
	if e.emptier() == nil || e.issueStore() == nil {
		return
	}
	is := e.seedForEmpty()
	first := e.create(is.owner, is.name, issuefields.Issue{Title: "created before Empty"})
	e.create(is.owner, is.name, issuefields.Issue{Title: "created second"})
	e.empty()
	e.seedForEmpty()
	if snap, err := e.s.Snapshot(e.ctx, is.owner, is.name, first.Number); err != nil || !errors.Is(snap.IssueErr, issuefields.ErrNotFound) {
		e.r.Errorf("after Empty and the same seeding, Snapshot of the created issue %d = %+v, %v; want no such issue", first.Number, snap.Issue, snap.IssueErr)
	}
	again := e.create(is.owner, is.name, issuefields.Issue{Title: "created after Empty"})
	if again.Number != first.Number || again.ID != first.ID {
		e.r.Errorf("after Empty and the same seeding, a create got number %d and ID %d; want %d and %d, those of the first create before Empty",
			again.Number, again.ID, first.Number, first.ID)
	}
}
