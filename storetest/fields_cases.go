package storetest

import "github.com/issuefields/issuefields"

// fieldsCases check Store.Fields.
var fieldsCases = []testCase{
	{"Fields returns the organization's fields in the organization's order, with their options in order", fieldsInOrder},
	{"Fields returns the fields of the organization that owns the repository", fieldsOfOwner},
	{"Fields returns an empty slice and no error for a repository owned by a user", fieldsOfUser},
	{"Fields returns the new organization's fields for a transferred repository", fieldsAfterTransfer},
}

func fieldsInOrder(e *env) {
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	e.wantFields(e.addRepo("octo-org", "hello-world", false), octoFields())
}

func fieldsOfOwner(e *env) {
	e.addOrgs("octo-org", "other-org", "empty-org")
	e.addFields("octo-org", octoFields())
	e.addFields("other-org", otherFields())
	e.wantFields(e.addRepo("octo-org", "hello-world", false), octoFields())
	e.wantFields(e.addRepo("other-org", "hello-world", false), otherFields())
	e.wantFields(e.addRepo("empty-org", "hello-world", false), nil)
}

func fieldsOfUser(e *env) {
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	e.wantFields(e.addRepo("octocat", "hello-world", false), nil)
}

func fieldsAfterTransfer(e *env) {
	e.addOrgs("octo-org", "other-org")
	e.addFields("octo-org", octoFields())
	e.addFields("other-org", otherFields())
	e.addRepo("octo-org", "hello-world", false)
	e.transferRepo("octo-org", "hello-world", "other-org")
	e.wantFields(e.repo("other-org", "hello-world"), otherFields())
	e.transferRepo("other-org", "hello-world", "octocat")
	e.wantFields(e.repo("octocat", "hello-world"), nil)
}

// wantFields reports a failure unless Fields returns want for repo.
func (e *env) wantFields(repo issuefields.Repository, want []issuefields.Field) {
	e.r.Helper()
	if got := e.fields(repo); !equalFields(got, want) {
		e.r.Errorf("Fields(%+v) = %+v, want %+v", repo, got, want)
	}
}
