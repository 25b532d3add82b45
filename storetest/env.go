package storetest

import (
	"context"
	"fmt"

	"github.com/issuefields/issuefields"
)

// An env is what a case runs with: the store under test, the reporter of
// failures, and helpers that call the store and end the case when a call
// that must succeed fails.
type env struct {
	r   reporter
	s   Store
	ctx context.Context
}

// newEnv returns the env of a case that reports to r and tests s.
func newEnv(r reporter, s Store) *env {
	return &env{r: r, s: s, ctx: context.Background()}
}

// seed ends the case if err, the result of the seed call described by call,
// is not nil.
func (e *env) seed(err error, call string, args ...any) {
	e.r.Helper()
	if err != nil {
		e.r.Fatalf("%s: %v", fmt.Sprintf(call, args...), err)
	}
}

// addRepo adds the repository owner/name and returns it.
func (e *env) addRepo(owner, name string, private bool) issuefields.Repository {
	e.r.Helper()
	r, err := e.s.AddRepository(owner, name, private)
	e.seed(err, "AddRepository(%q, %q, %t)", owner, name, private)
	return r
}

// addOrgs adds the organizations logins.
func (e *env) addOrgs(logins ...string) {
	e.r.Helper()
	for _, login := range logins {
		e.seed(e.s.AddOrganization(login), "AddOrganization(%q)", login)
	}
}

// addFields appends fields to the fields of the organization org.
func (e *env) addFields(org string, fields []issuefields.Field) {
	e.r.Helper()
	for _, f := range fields {
		e.seed(e.s.AddField(org, f), "AddField(%q, %+v)", org, f)
	}
}

// rename renames the repository owner/name to newName.
func (e *env) rename(owner, name, newName string) {
	e.r.Helper()
	e.seed(e.s.RenameRepository(owner, name, newName), "RenameRepository(%q, %q, %q)", owner, name, newName)
}

// transferRepo gives the repository owner/name to newOwner.
func (e *env) transferRepo(owner, name, newOwner string) {
	e.r.Helper()
	e.seed(e.s.TransferRepository(owner, name, newOwner), "TransferRepository(%q, %q, %q)", owner, name, newOwner)
}

// addIssues adds the issues numbers to the repository owner/repo.
func (e *env) addIssues(owner, repo string, numbers ...int64) {
	e.r.Helper()
	for _, n := range numbers {
		e.seed(e.s.AddIssue(owner, repo, n), "AddIssue(%q, %q, %d)", owner, repo, n)
	}
}

// deleteIssue deletes issue number of owner/repo.
func (e *env) deleteIssue(owner, repo string, number int64) {
	e.r.Helper()
	e.seed(e.s.DeleteIssue(owner, repo, number), "DeleteIssue(%q, %q, %d)", owner, repo, number)
}

// transferIssue moves issue number of owner/repo to issue toNumber of
// toOwner/toRepo.
func (e *env) transferIssue(owner, repo string, number int64, toOwner, toRepo string, toNumber int64) {
	e.r.Helper()
	e.seed(e.s.TransferIssue(owner, repo, number, toOwner, toRepo, toNumber),
		"TransferIssue(%q, %q, %d, %q, %q, %d)", owner, repo, number, toOwner, toRepo, toNumber)
}

// setValues replaces the values of issue number of owner/repo.
func (e *env) setValues(owner, repo string, number int64, values []issuefields.Value) {
	e.r.Helper()
	e.seed(e.s.SetValues(owner, repo, number, values), "SetValues(%q, %q, %d, %v)", owner, repo, number, values)
}

// anIssue adds the organization octo-org, its repository hello-world and the
// repository's issue 1, and returns the issue's key.
func (e *env) anIssue() issuefields.IssueKey {
	e.r.Helper()
	e.addOrgs("octo-org")
	repo := e.addRepo("octo-org", "hello-world", false)
	e.addIssues("octo-org", "hello-world", 1)
	return e.issue(repo, 1).Key()
}

// repo returns the repository that owner/name names.
func (e *env) repo(owner, name string) issuefields.Repository {
	e.r.Helper()
	r, err := e.s.Repository(e.ctx, owner, name)
	if err != nil {
		e.r.Fatalf("Repository(%q, %q): %v", owner, name, err)
	}
	return r
}

// issue returns issue number of repo.
func (e *env) issue(repo issuefields.Repository, number int64) issuefields.Issue {
	e.r.Helper()
	is, err := e.s.Issue(e.ctx, repo, number)
	if err != nil {
		e.r.Fatalf("Issue(%+v, %d): %v", repo, number, err)
	}
	return is
}

// fields returns the fields of repo.
func (e *env) fields(repo issuefields.Repository) []issuefields.Field {
	e.r.Helper()
	fs, err := e.s.Fields(e.ctx, repo)
	if err != nil {
		e.r.Fatalf("Fields(%+v): %v", repo, err)
	}
	return fs
}

// values returns the values of the issue and their version.
func (e *env) values(key issuefields.IssueKey) ([]issuefields.Value, issuefields.Version) {
	e.r.Helper()
	vs, v, err := e.s.Values(e.ctx, key)
	if err != nil {
		e.r.Fatalf("Values(%+v): %v", key, err)
	}
	return vs, v
}

// swap replaces the values of the issue, whose version must be expected, and
// returns the new version.
func (e *env) swap(key issuefields.IssueKey, expected issuefields.Version, values []issuefields.Value) issuefields.Version {
	e.r.Helper()
	v, err := e.s.CompareAndSwap(e.ctx, key, expected, values)
	if err != nil {
		e.r.Fatalf("CompareAndSwap(%+v, %q, %v): %v", key, expected, values, err)
	}
	return v
}

// wantValues reports a failure, citing when, unless the issue holds want.
func (e *env) wantValues(key issuefields.IssueKey, want []issuefields.Value, when string) {
	e.r.Helper()
	if got, _ := e.values(key); !equalValues(got, want) {
		e.r.Errorf("%s: Values = %v, want %v", when, got, want)
	}
}
