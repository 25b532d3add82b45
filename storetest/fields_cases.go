package storetest

import "github.com/issuefields/issuefields"

// fieldsCases check the fields that Store.Snapshot returns.
var fieldsCases = []testCase{
	{"Snapshot returns the organization's fields in the organization's order, with their options in order", fieldsInOrder},
	{"Snapshot returns the fields of the organization that owns the repository", fieldsOfOwner},
	{"Snapshot returns no fields for a repository owned by a user", fieldsOfUser},
	{"Snapshot returns the new organization's fields for a transferred repository", fieldsAfterTransfer},
}

func fieldsInOrder(e *env) {
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	e.wantFields(e.addRepoWithIssue("octo-org", "hello-world"), octoFields())
}

func fieldsOfOwner(e *env) {
	e.addOrgs("octo-org", "other-org", "empty-org")
	e.addFields("octo-org", octoFields())
	e.addFields("other-org", otherFields())
	e.wantFields(e.addRepoWithIssue("octo-org", "hello-world"), octoFields())
	e.wantFields(e.addRepoWithIssue("other-org", "hello-world"), otherFields())
	e.wantFields(e.addRepoWithIssue("empty-org", "hello-world"), nil)
}

func fieldsOfUser(e *env) {
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	e.wantFields(e.addRepoWithIssue("octocat", "hello-world"), nil)
}

func fieldsAfterTransfer(e *env) {
	e.addOrgs("octo-org", "other-org")
	e.addFields("octo-org", octoFields())
	e.addFields("other-org", otherFields())
	e.addRepoWithIssue("octo-org", "hello-world")
	e.transferRepo("octo-org", "hello-world", "other-org")
	e.wantFields(e.repo("other-org", "hello-world"), otherFields())
	e.transferRepo("other-org", "hello-world", "octocat")
	e.wantFields(e.repo("octocat", "hello-world"), nil)
}

// wantFields reports a failure unless Snapshot shows want as the fields of
// issue 1 of repo.
func (e *env) wantFields(repo issuefields.Repository, want []issuefields.Field) {
	e.r.Helper()
	if got := e.fields(repo); !equalFields(got, want) {
		e.r.Errorf("Snapshot(%q, %q, 1).Fields = %+v, want %+v", repo.Owner, repo.Name, got, want)
	}
}
