package storetest

import (
	"errors"

	"github.com/issuefields/issuefields"
)

// issueCases check Store.Issue.
var issueCases = []testCase{
	{"Issue finds an issue of the repository", issueFound},
	{"Issue returns ErrNotFound for a number that never was an issue of the repository", issueNotFound},
	{"Issue returns ErrIssueDeleted for an issue that was deleted", issueDeleted},
	{"Issue returns a transferred issue in its new repository, with its new number", issueTransferred},
	{"Issue follows a chain of transfers to where the issue is now", issueTransferredTwice},
	{"Issue returns the issue in its repository as it is now, after a rename and a transfer", issueRepositoryMoved},
}

func issueFound(e *env) {
	e.addOrgs("octo-org")
	repo := e.addRepo("octo-org", "hello-world", false)
	e.addIssues("octo-org", "hello-world", 1, 2)
	for _, n := range []int64{1, 2} {
		want := issuefields.Issue{Repository: repo, Number: n}
		if got := e.issue(repo, n); got != want {
			e.r.Errorf("Issue(%+v, %d) = %+v, want %+v", repo, n, got, want)
		}
	}
}

func issueNotFound(e *env) {
	e.addOrgs("octo-org")
	a := e.addRepo("octo-org", "a", false)
	b := e.addRepo("octo-org", "b", false)
	e.addIssues("octo-org", "a", 1)
	e.addIssues("octo-org", "b", 2)
	for _, c := range []struct {
		repo   issuefields.Repository
		number int64
	}{{a, 2}, {a, 3}, {b, 1}, {b, 3}} {
		if got, err := e.s.Issue(e.ctx, c.repo, c.number); !errors.Is(err, issuefields.ErrNotFound) {
			e.r.Errorf("Issue(%+v, %d) = %+v, %v; want ErrNotFound", c.repo, c.number, got, err)
		}
	}
}

func issueDeleted(e *env) {
	e.addOrgs("octo-org")
	repo := e.addRepo("octo-org", "hello-world", false)
	e.addIssues("octo-org", "hello-world", 1, 2)
	e.deleteIssue("octo-org", "hello-world", 1)
	if got, err := e.s.Issue(e.ctx, repo, 1); !errors.Is(err, issuefields.ErrIssueDeleted) {
		e.r.Errorf("Issue(%+v, 1) of a deleted issue = %+v, %v; want ErrIssueDeleted", repo, got, err)
	}
	e.issue(repo, 2)
}

func issueTransferred(e *env) {
	e.addOrgs("octo-org", "other-org")
	from := e.addRepo("octo-org", "hello-world", false)
	e.addRepo("other-org", "elsewhere", true)
	e.addIssues("octo-org", "hello-world", 1)
	e.transferIssue("octo-org", "hello-world", 1, "other-org", "elsewhere", 8)
	e.wantIssue(from, 1, issuefields.Issue{Repository: e.repo("other-org", "elsewhere"), Number: 8})
}

func issueTransferredTwice(e *env) {
	e.addOrgs("octo-org", "other-org")
	a := e.addRepo("octo-org", "a", false)
	b := e.addRepo("other-org", "b", false)
	e.addRepo("octocat", "c", false)
	e.addIssues("octo-org", "a", 1)
	e.transferIssue("octo-org", "a", 1, "other-org", "b", 2)
	e.transferIssue("other-org", "b", 2, "octocat", "c", 3)
	want := issuefields.Issue{Repository: e.repo("octocat", "c"), Number: 3}
	e.wantIssue(a, 1, want)
	e.wantIssue(b, 2, want)
}

func issueRepositoryMoved(e *env) {
	e.addOrgs("octo-org", "other-org")
	before := e.addRepo("octo-org", "hello-world", false)
	e.addIssues("octo-org", "hello-world", 1)
	e.rename("octo-org", "hello-world", "renamed")
	e.transferRepo("octo-org", "renamed", "other-org")
	want := issuefields.Issue{Repository: e.repo("other-org", "renamed"), Number: 1}
	e.wantIssue(e.repo("octo-org", "hello-world"), 1, want)
	e.wantIssue(before, 1, want)
}

// wantIssue reports a failure unless Issue finds want by repo and number.
func (e *env) wantIssue(repo issuefields.Repository, number int64, want issuefields.Issue) {
	e.r.Helper()
	if got, err := e.s.Issue(e.ctx, repo, number); err != nil || got != want {
		e.r.Errorf("Issue(%+v, %d) = %+v, %v; want %+v", repo, number, got, err, want)
	}
}
