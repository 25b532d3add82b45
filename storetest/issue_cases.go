package storetest

import (
	"errors"

	"github.com/issuefields/issuefields"
)

// issueCases check how Store.Snapshot finds an issue: Issue and IssueErr.
var issueCases = []testCase{
	{"Snapshot finds an issue of the repository", issueFound},
	{"Snapshot's IssueErr wraps ErrNotFound for a number that never was an issue of the repository", issueNotFound},
	{"Snapshot's IssueErr wraps ErrIssueDeleted for an issue that was deleted", issueDeleted},
	{"Snapshot returns a transferred issue in its new repository, with its new number", issueTransferred},
	{"Snapshot follows a chain of transfers to where the issue is now", issueTransferredTwice},
	{"Snapshot returns the issue in its repository as it is now, after a rename and a transfer", issueRepositoryMoved},
}

func issueFound(e *env) {
	e.addOrgs("octo-org")
	repo := e.addRepo("octo-org", "hello-world", false)
	e.addIssues("octo-org", "hello-world", 1, 2)
	for _, n := range []int64{1, 2} {
		e.wantIssue("octo-org", "hello-world", n, issuefields.Issue{Repository: repo, Number: n})
	}
}

func issueNotFound(e *env) {
	e.addOrgs("octo-org")
	e.addRepo("octo-org", "a", false)
	e.addRepo("octo-org", "b", false)
	e.addIssues("octo-org", "a", 1)
	e.addIssues("octo-org", "b", 2)
	for _, c := range []struct {
		repo   string
		number int64
	}{{"a", 2}, {"a", 3}, {"b", 1}, {"b", 3}, {"a", 0}, {"a", -1}} {
		if snap := e.snapshot("octo-org", c.repo, c.number); !errors.Is(snap.IssueErr, issuefields.ErrNotFound) {
			e.r.Errorf("Snapshot(%q, %q, %d) = issue %+v, %v; want IssueErr wrapping ErrNotFound", "octo-org", c.repo, c.number, snap.Issue, snap.IssueErr)
		}
	}
}

func issueDeleted(e *env) {
	e.addOrgs("octo-org")
	repo := e.addRepo("octo-org", "hello-world", false)
	e.addIssues("octo-org", "hello-world", 1, 2)
	e.deleteIssue("octo-org", "hello-world", 1)
	if snap := e.snapshot("octo-org", "hello-world", 1); !errors.Is(snap.IssueErr, issuefields.ErrIssueDeleted) {
		e.r.Errorf("Snapshot(%q, %q, 1) of a deleted issue = issue %+v, %v; want IssueErr wrapping ErrIssueDeleted", "octo-org", "hello-world", snap.Issue, snap.IssueErr)
	}
	e.wantIssue("octo-org", "hello-world", 2, issuefields.Issue{Repository: repo, Number: 2})
}

func issueTransferred(e *env) {
	e.addOrgs("octo-org", "other-org")
	e.addRepo("octo-org", "hello-world", false)
	e.addRepo("other-org", "elsewhere", true)
	e.addIssues("octo-org", "hello-world", 1)
	e.transferIssue("octo-org", "hello-world", 1, "other-org", "elsewhere", 8)
	e.wantIssue("octo-org", "hello-world", 1, issuefields.Issue{Repository: e.repo("other-org", "elsewhere"), Number: 8})
}

func issueTransferredTwice(e *env) {
	e.addOrgs("octo-org", "other-org")
	e.addRepo("octo-org", "a", false)
	e.addRepo("other-org", "b", false)
	e.addRepo("octocat", "c", false)
	e.addIssues("octo-org", "a", 1)
	e.transferIssue("octo-org", "a", 1, "other-org", "b", 2)
	e.transferIssue("other-org", "b", 2, "octocat", "c", 3)
	want := issuefields.Issue{Repository: e.repo("octocat", "c"), Number: 3}
	e.wantIssue("octo-org", "a", 1, want)
	e.wantIssue("other-org", "b", 2, want)
}

func issueRepositoryMoved(e *env) {
	e.addOrgs("octo-org", "other-org")
	e.addRepo("octo-org", "hello-world", false)
	e.addIssues("octo-org", "hello-world", 1)
	e.rename("octo-org", "hello-world", "renamed")
	e.transferRepo("octo-org", "renamed", "other-org")
	want := issuefields.Issue{Repository: e.repo("other-org", "renamed"), Number: 1}
	e.wantIssue("octo-org", "hello-world", 1, want)
	e.wantIssue("OTHER-ORG", "Renamed", 1, want)
}

// wantIssue reports a failure unless Snapshot finds want as issue number of
// the repository owner/name.
func (e *env) wantIssue(owner, name string, number int64, want issuefields.Issue) {
	e.r.Helper()
	if snap := e.snapshot(owner, name, number); snap.IssueErr != nil || snap.Issue.Repository != want.Repository || snap.Issue.Number != want.Number {
		e.r.Errorf("Snapshot(%q, %q, %d) = issue %+v, %v; want %+v", owner, name, number, snap.Issue, snap.IssueErr, want)
	}
}
