package storetest

import (
	"errors"
	"strings"

	"github.com/issuefields/issuefields"
)

// repositoryCases check how Store.Snapshot finds a repository, and the
// Repository it returns.
var repositoryCases = []testCase{
	{"Snapshot finds a repository by its owner and name", repositoryFound},
	{"Snapshot matches owner and name case-insensitively", repositoryCaseInsensitive},
	{"Snapshot returns ErrNotFound when no repository has or had that name", repositoryNotFound},
	{"Snapshot finds a renamed repository by every former name, under its current name", repositoryRenamed},
	{"Snapshot finds a transferred repository by every former owner and name, under its current owner and name", repositoryTransferred},
	{"Snapshot reports whether an organization owns the repository", repositoryOwnedByOrganization},
	{"Snapshot reports whether the repository is private", repositoryPrivate},
	{"Repository IDs are positive and unique in the store", repositoryIDs},
	{"Snapshot spells an owner as its account was first given, and a name as it was last given", repositorySpelling},
	{"AddRepository takes over a former name of another repository, which keeps its other names", repositoryNameTakenByNew},
	{"RenameRepository takes over a former name of another repository, which keeps its other names", repositoryNameTakenByRename},
}

func repositoryFound(e *env) {
	e.addOrgs("octo-org")
	added := e.addRepo("octo-org", "hello-world", false)
	if added.ID <= 0 || !strings.EqualFold(added.Owner, "octo-org") || !strings.EqualFold(added.Name, "hello-world") {
		e.r.Errorf("AddRepository(%q, %q, false) = %+v, want a positive ID, that owner and that name", "octo-org", "hello-world", added)
	}
	e.wantRepo("octo-org", "hello-world", added)
}

func repositoryCaseInsensitive(e *env) {
	e.addOrgs("Octo-Org")
	orgs := e.addRepo("Octo-Org", "Hello-World", false)
	users := e.addRepo("OctoCat", "Spoon-Knife", false)
	for _, name := range [][2]string{{"Octo-Org", "Hello-World"}, {"octo-org", "hello-world"}, {"OCTO-ORG", "HELLO-WORLD"}, {"oCTO-oRG", "hELLO-wORLD"}} {
		e.wantRepo(name[0], name[1], orgs)
	}
	for _, name := range [][2]string{{"OctoCat", "Spoon-Knife"}, {"octocat", "spoon-knife"}, {"OCTOCAT", "SPOON-KNIFE"}} {
		e.wantRepo(name[0], name[1], users)
	}
}

func repositoryNotFound(e *env) {
	e.addOrgs("octo-org")
	e.addRepo("octo-org", "hello-world", false)
	e.addRepo("octocat", "spoon-knife", false)
	for _, name := range [][2]string{
		{"octo-org", "spoon-knife"},
		{"octocat", "hello-world"},
		{"nobody", "hello-world"},
		{"octo-org", "hello-worl"},
		{"octo-org", "hello-world.git"},
		{"octo-org", ""},
		{"", ""},
	} {
		if snap, err := e.s.Snapshot(e.ctx, name[0], name[1], 1); !errors.Is(err, issuefields.ErrNotFound) {
			e.r.Errorf("Snapshot(%q, %q, 1) = %+v, %v; want ErrNotFound", name[0], name[1], snap, err)
		}
	}
}

func repositoryRenamed(e *env) {
	e.addOrgs("octo-org")
	added := e.addRepo("octo-org", "first", false)
	e.rename("octo-org", "first", "second")
	e.rename("octo-org", "second", "Third")
	want := e.repo("octo-org", "third")
	if want.ID != added.ID || !strings.EqualFold(want.Name, "third") {
		e.r.Errorf("after two renames, Snapshot(%q, %q, 0).Repository = %+v, want ID %d and that name", "octo-org", "third", want, added.ID)
	}
	for _, name := range []string{"first", "FIRST", "second", "Second", "third"} {
		e.wantRepo("octo-org", name, want)
	}
}

func repositoryTransferred(e *env) {
	e.addOrgs("octo-org", "other-org")
	added := e.addRepo("octo-org", "first", false)
	e.transferRepo("octo-org", "first", "other-org")
	e.rename("other-org", "first", "second")
	e.transferRepo("other-org", "second", "octocat")
	want := e.repo("octocat", "second")
	if want.ID != added.ID || !strings.EqualFold(want.Owner, "octocat") || !strings.EqualFold(want.Name, "second") {
		e.r.Errorf("after two transfers and a rename, Snapshot(%q, %q, 0).Repository = %+v, want ID %d, that owner and that name", "octocat", "second", want, added.ID)
	}
	for _, name := range [][2]string{{"octo-org", "first"}, {"OCTO-ORG", "First"}, {"other-org", "first"}, {"other-org", "second"}, {"OctoCat", "SECOND"}} {
		e.wantRepo(name[0], name[1], want)
	}
}

func repositoryOwnedByOrganization(e *env) {
	e.addOrgs("octo-org")
	e.addRepo("octo-org", "org-repo", false)
	e.addRepo("octocat", "user-repo", false)
	e.wantOwnedByOrganization("octo-org", "org-repo", true)
	e.wantOwnedByOrganization("octocat", "user-repo", false)
	e.transferRepo("octo-org", "org-repo", "octocat")
	e.transferRepo("octocat", "user-repo", "octo-org")
	e.wantOwnedByOrganization("octocat", "org-repo", false)
	e.wantOwnedByOrganization("octo-org", "user-repo", true)
}

func repositoryPrivate(e *env) {
	e.addOrgs("octo-org")
	for _, owner := range []string{"octo-org", "octocat"} {
		for _, private := range []bool{false, true} {
			name := "public"
			if private {
				name = "private"
			}
			e.addRepo(owner, name, private)
			if r := e.repo(owner, name); r.Private != private {
				e.r.Errorf("Snapshot(%q, %q, 0).Repository.Private = %t, want %t", owner, name, r.Private, private)
			}
		}
	}
}

func repositoryIDs(e *env) {
	e.addOrgs("octo-org")
	names := [][2]string{{"octo-org", "a"}, {"octo-org", "b"}, {"octocat", "a"}, {"octocat", "c"}, {"hubot", "a"}}
	seen := make(map[int64][2]string)
	for _, name := range names {
		id := e.addRepo(name[0], name[1], false).ID
		if other, ok := seen[id]; ok || id <= 0 {
			e.r.Errorf("AddRepository(%q, %q, false) gave ID %d, want a positive ID unlike that of %v", name[0], name[1], id, other)
		}
		seen[id] = name
	}
	for id, name := range seen {
		if r := e.repo(name[0], name[1]); r.ID != id {
			e.r.Errorf("Snapshot(%q, %q, 0).Repository.ID = %d, want %d", name[0], name[1], r.ID, id)
		}
	}
}

func repositorySpelling(e *env) {
	e.addOrgs("Octo-Org")
	e.addRepo("octo-org", "Hello-World", false)
	e.addRepo("OctoCat", "a", false)
	e.addRepo("OCTOCAT", "b", false)
	e.addRepo("hubot", "c", false)
	e.rename("OCTO-ORG", "hello-world", "HELLO-world")
	e.transferRepo("octocat", "b", "HUBOT")
	e.transferRepo("HUBOT", "C", "octocat")
	for _, want := range [][2]string{{"Octo-Org", "HELLO-world"}, {"OctoCat", "a"}, {"hubot", "b"}, {"OctoCat", "c"}} {
		if r := e.repo(want[0], want[1]); r.Owner != want[0] || r.Name != want[1] {
			e.r.Errorf("Snapshot(%q, %q, 0).Repository = %+v, want owner %q and name %q spelt so", want[0], want[1], r, want[0], want[1])
		}
	}
}

func repositoryNameTakenByNew(e *env) {
	old := e.addRepo("octocat", "hello", false)
	e.rename("octocat", "hello", "renamed")
	added := e.addRepo("octocat", "Hello", true)
	e.wantRepo("octocat", "hello", added)
	e.wantRepo("octocat", "HELLO", added)
	if r := e.repo("octocat", "renamed"); r.ID != old.ID {
		e.r.Errorf("Snapshot(%q, %q, 0).Repository = %+v, want the repository that was called hello before, ID %d", "octocat", "renamed", r, old.ID)
	}
}

func repositoryNameTakenByRename(e *env) {
	a := e.addRepo("octocat", "a", false)
	b := e.addRepo("octocat", "b", false)
	e.rename("octocat", "a", "c")
	e.rename("octocat", "b", "a")
	e.rename("octocat", "a", "b")
	// a is now c; b is now b again, having been a in between.
	for name, want := range map[string]int64{"a": b.ID, "b": b.ID, "c": a.ID} {
		if r := e.repo("octocat", name); r.ID != want {
			e.r.Errorf("after renames of a to c, b to a and back to b, Snapshot(%q, %q, 0).Repository = %+v, want ID %d", "octocat", name, r, want)
		}
	}
}

// wantRepo reports a failure unless Snapshot finds want by owner and name.
func (e *env) wantRepo(owner, name string, want issuefields.Repository) {
	e.r.Helper()
	if snap, err := e.s.Snapshot(e.ctx, owner, name, 0); err != nil || snap.Repository != want {
		e.r.Errorf("Snapshot(%q, %q, 0) = repository %+v, %v; want %+v", owner, name, snap.Repository, err, want)
	}
}

// wantOwnedByOrganization reports a failure unless the repository owner/name
// is owned by an organization exactly when org is true.
func (e *env) wantOwnedByOrganization(owner, name string, org bool) {
	e.r.Helper()
	if r := e.repo(owner, name); r.OwnedByOrganization != org {
		e.r.Errorf("Snapshot(%q, %q, 0).Repository.OwnedByOrganization = %t, want %t", owner, name, r.OwnedByOrganization, org)
	}
}
