package storetest

import (
	"context"
	"errors"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/conformance"
)

// An env is what a case runs with: the store under test, the reporter of
// failures, and helpers that call the store and end the case when a call
// that must succeed fails.
type env struct {
	r   conformance.Reporter
	s   Store
	ctx context.Context
}

// newEnv returns the env of a case that reports to r and tests s.
func newEnv(r conformance.Reporter, s Store) *env {
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

// addRepoWithIssue adds the public repository owner/name and its issue 1,
// and returns the repository.
func (e *env) addRepoWithIssue(owner, name string) issuefields.Repository {
	e.r.Helper()
	repo := e.addRepo(owner, name, false)
	e.addIssues(owner, name, 1)
	return repo
}

// anIssue adds the organization octo-org, its repository hello-world and the
// repository's issue 1, and returns its name.
func (e *env) anIssue() issueAt {
	e.r.Helper()
	e.addOrgs("octo-org")
	return at(e.addRepoWithIssue("octo-org", "hello-world"), 1)
}

// snapshot returns the Snapshot of issue number of the repository
// owner/name.
func (e *env) snapshot(owner, name string, number int64) issuefields.Snapshot {
	e.r.Helper()
	snap, err := e.s.Snapshot(e.ctx, owner, name, number)
	if err != nil {
		e.r.Fatalf("Snapshot(%q, %q, %d): %v", owner, name, number, err)
	}
	return snap
}

// repo returns the repository that owner/name names, as Snapshot finds it
// for a number that no issue has.
func (e *env) repo(owner, name string) issuefields.Repository {
	e.r.Helper()
	return e.snapshot(owner, name, 0).Repository
}

// issue returns where issue number of repo is now, which must be a live
// issue.
func (e *env) issue(repo issuefields.Repository, number int64) issuefields.Issue {
	e.r.Helper()
	snap := e.snapshot(repo.Owner, repo.Name, number)
	if snap.IssueErr != nil {
		e.r.Fatalf("Snapshot(%q, %q, %d).IssueErr = %v, want nil", repo.Owner, repo.Name, number, snap.IssueErr)
	}
	return snap.Issue
}

// fields returns the fields that Snapshot shows for issue 1 of repo, which
// must be a live issue that was not transferred (see addRepoWithIssue).
func (e *env) fields(repo issuefields.Repository) []issuefields.Field {
	e.r.Helper()
	return e.shown(repo, 1).Fields
}

// shown returns the Snapshot of issue number of repo, which must be a live
// issue that was not transferred, so that the Snapshot describes it.
func (e *env) shown(repo issuefields.Repository, number int64) issuefields.Snapshot {
	e.r.Helper()
	return e.read(at(repo, number))
}

// An issueAt names an issue as a request does: by a name of its repository
// and its number.
type issueAt struct {
	owner, name string
	number      int64
}

// at returns the name of issue number of repo.
func at(repo issuefields.Repository, number int64) issueAt {
	return issueAt{repo.Owner, repo.Name, number}
}

// read returns the Snapshot of the issue, which must be live where it is
// asked for.
func (e *env) read(is issueAt) issuefields.Snapshot {
	e.r.Helper()
	snap := e.snapshot(is.owner, is.name, is.number)
	if snap.IssueErr != nil || snap.Issue.Key() != (issuefields.IssueKey{RepositoryID: snap.Repository.ID, Number: is.number}) {
		e.r.Fatalf("Snapshot(%q, %q, %d) = issue %+v, %v; want the issue itself", is.owner, is.name, is.number, snap.Issue, snap.IssueErr)
	}
	return snap
}

// values returns the values of the issue and their version, as Snapshot
// shows them.
func (e *env) values(is issueAt) ([]issuefields.Value, issuefields.Version) {
	e.r.Helper()
	snap := e.read(is)
	return snap.Issue.Values, snap.Issue.Version
}

// update calls UpdateIssue with snap and an Issue of values.
func (e *env) update(snap issuefields.Snapshot, values []issuefields.Value) (issuefields.Version, error) {
	return e.s.UpdateIssue(e.ctx, snap, issuefields.Issue{Values: values})
}

// write replaces the values of the issue with values through a Snapshot and
// UpdateIssue from it, and returns the new version. It ends the case unless
// UpdateIssue stores them.
func (e *env) write(is issueAt, values []issuefields.Value) issuefields.Version {
	e.r.Helper()
	v, err := e.update(e.read(is), values)
	if err != nil {
		e.r.Fatalf("UpdateIssue of %+v, from a Snapshot just read, writing %v: %v", is, values, err)
	}
	return v
}

// wantValues reports a failure, citing when, unless the issue holds want, as
// Snapshot shows it.
func (e *env) wantValues(is issueAt, want []issuefields.Value, when string) {
	e.r.Helper()
	if got, _ := e.values(is); !equalValues(got, want) {
		e.r.Errorf("%s: Snapshot(%q, %q, %d) shows the values %v, want %v", when, is.owner, is.name, is.number, got, want)
	}
}

// wantShown reports a failure, citing when, unless issue number of repo,
// which must be a live issue that was not transferred, holds want.
func (e *env) wantShown(repo issuefields.Repository, number int64, want []issuefields.Value, when string) {
	e.r.Helper()
	e.wantValues(at(repo, number), want, when)
}

// wantChanged reports a failure, citing when, unless err wraps ErrChanged.
func (e *env) wantChanged(err error, when string) {
	e.r.Helper()
	if !errors.Is(err, issuefields.ErrChanged) {
		e.r.Errorf("%s: UpdateIssue = %v, want an error that wraps ErrChanged", when, err)
	}
}

// wantHolds reports a failure, citing when, unless the issue holds values at
// version, as Snapshot shows it.
func (e *env) wantHolds(is issueAt, values []issuefields.Value, version issuefields.Version, when string) {
	e.r.Helper()
	if got, v := e.values(is); !equalValues(got, values) || v != version {
		e.r.Errorf("%s: Snapshot(%q, %q, %d) shows %v at version %q, want %v at %q", when, is.owner, is.name, is.number, got, v, values, version)
	}
}
