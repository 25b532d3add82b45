package storetest

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/issuefields/issuefields"
)

// issueStoreCases check issuefields.IssueStore, for a store that implements
// it; for another store each case passes without a call.
var issueStoreCases = []testCase{
	{"CreateIssue stores a copy of the content as a new live issue with the repository's next number, a new ID and a new version", createIssueNext},
	{"CreateIssue numbers above every number the repository has had: live, deleted or transferred", createIssueAfterGone},
	{"CreateIssue from a Snapshot that the store no longer holds returns ErrChanged, stores nothing and uses no number", createIssueStale},
	{"Creates at once get distinct consecutive numbers and distinct IDs below 2^31", createIssueConcurrent},
	{"Issues returns the live issues of the repositories and of the IDs it is given, ordered by repository and number", issuesByQuery},
	{"Repositories returns every repository, by ID, as Snapshot finds it", repositoriesAll},
}

// issueStore returns the store as an IssueStore, or nil if it is not one.
func (e *env) issueStore() issuefields.IssueStore {
	s, _ := e.s.(issuefields.IssueStore)
	return s
}

// create creates an issue with content in the repository owner/name, from
// a Snapshot just read, and ends the case if it fails.
func (e *env) create(owner, name string, content issuefields.Issue) issuefields.Issue {
	e.r.Helper()
	created, err := e.issueStore().CreateIssue(e.ctx, e.snapshot(owner, name, 0), content)
	if err != nil {
		e.r.Fatalf("CreateIssue in %s/%s from a Snapshot just read: %v", owner, name, err)
	}
	return created
}

func createIssueNext(e *env) {
	if e.issueStore() == nil {
		return
	}
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	repo := e.addRepo("octo-org", "a", false)
	e.addIssues("octo-org", "a", 1, 2)
	content := fullIssue()
	content.ID, content.Number, content.Version = 77, 77, "not this one"
	created := e.create("octo-org", "a", content)
	content.Labels[0], content.Values[0].OptionIDs[0] = "changed", 12345
	if created.Number != 3 || created.Repository != repo || created.ID <= 0 || created.Version == "" {
		e.r.Errorf("CreateIssue = number %d in %+v, ID %d, version %q; want number 3 in %+v with an ID and a version", created.Number, created.Repository, created.ID, created.Version, repo)
	}
	e.wantContent(created, fullIssue(), "the issue CreateIssue returned")
	got := e.read(issueAt{"octo-org", "a", 3}).Issue
	e.wantContent(got, fullIssue(), "Snapshot of the created issue, after the caller changed the slices it gave")
	if got.ID != created.ID || got.Version != created.Version {
		e.r.Errorf("Snapshot of the created issue: ID %d, version %q; want %d, %q as CreateIssue returned", got.ID, got.Version, created.ID, created.Version)
	}
	for _, n := range []int64{1, 2} {
		if id := e.read(issueAt{"octo-org", "a", n}).Issue.ID; id == created.ID {
			e.r.Errorf("the created issue has the ID %d of issue %d", id, n)
		}
	}
	if _, err := e.s.UpdateIssue(e.ctx, e.read(issueAt{"octo-org", "a", 3}), issuefields.Issue{Title: "changed"}); err != nil {
		e.r.Errorf("UpdateIssue of the created issue: %v", err)
	}
}

func createIssueAfterGone(e *env) {
	if e.issueStore() == nil {
		return
	}
	e.addOrgs("octo-org")
	e.addRepo("octo-org", "a", false)
	e.addRepo("octo-org", "b", false)
	e.addRepo("octo-org", "c", false)
	e.addIssues("octo-org", "a", 3, 5)
	e.deleteIssue("octo-org", "a", 5)
	e.addIssues("octo-org", "b", 1, 2)
	e.transferIssue("octo-org", "b", 2, "octo-org", "c", 1)
	e.addIssues("octo-org", "c", 8)
	e.transferIssue("octo-org", "c", 8, "octo-org", "a", 9)
	for _, c := range []struct {
		repo string
		want int64
	}{{"a", 10}, {"b", 3}, {"c", 9}, {"a", 11}} {
		if got := e.create("octo-org", c.repo, issuefields.Issue{Title: "new"}); got.Number != c.want {
			e.r.Errorf("CreateIssue in %s: number %d, want %d", c.repo, got.Number, c.want)
		}
	}
}

func createIssueStale(e *env) {
	if e.issueStore() == nil {
		return
	}
	e.addOrgs("octo-org")
	e.addRepo("octo-org", "a", false)
	e.addIssues("octo-org", "a", 1)
	changes := []struct {
		name   string
		change func()
	}{
		{"a field added to the owner", func() { e.addFields("octo-org", octoFields()[:1]) }},
		{"the repository renamed", func() { e.rename("octo-org", "a", "b") }},
	}
	owner, name := "octo-org", "a"
	for _, c := range changes {
		stale := e.snapshot(owner, name, 0)
		c.change()
		_, err := e.issueStore().CreateIssue(e.ctx, stale, issuefields.Issue{Title: "stale"})
		if !errors.Is(err, issuefields.ErrChanged) {
			e.r.Errorf("CreateIssue from a Snapshot before %s: %v, want an error that wraps ErrChanged", c.name, err)
		}
		name = e.snapshot(owner, name, 0).Repository.Name
	}
	if got, err := e.s.Snapshot(e.ctx, owner, name, 2); err != nil || !errors.Is(got.IssueErr, issuefields.ErrNotFound) {
		e.r.Errorf("after refused creates, Snapshot of issue 2 = %+v, %v; want no such issue", got.Issue, got.IssueErr)
	}
	if got := e.create(owner, name, issuefields.Issue{Title: "fresh"}); got.Number != 2 {
		e.r.Errorf("CreateIssue after refused creates: number %d, want 2: a refused create uses no number", got.Number)
	}
}

func createIssueConcurrent(e *env) {
	if e.issueStore() == nil {
		return
	}
	e.addOrgs("octo-org")
	e.addRepo("octo-org", "a", false)
	e.addIssues("octo-org", "a", 1)
	numbers := make([]int64, writers)
	ids := make([]int64, writers)
	errs := parallel(func(i int) error {
		for range maxRetries {
			snap, err := e.s.Snapshot(e.ctx, "octo-org", "a", 0)
			if err != nil {
				return err
			}
			created, err := e.issueStore().CreateIssue(e.ctx, snap, issuefields.Issue{Title: fmt.Sprint("writer ", i)})
			if errors.Is(err, issuefields.ErrChanged) {
				continue
			}
			numbers[i], ids[i] = created.Number, created.ID
			return err
		}
		return fmt.Errorf("CreateIssue gave ErrChanged %d times in a row", maxRetries)
	})
	for i, err := range errs {
		if err != nil {
			e.r.Errorf("writer %d: %v", i, err)
		}
	}
	slices.Sort(numbers)
	for i, n := range numbers {
		if n != int64(2+i) {
			e.r.Fatalf("the creates got the numbers %v, want 2 to %d, each once", numbers, writers+1)
		}
	}
	seen := map[int64]bool{e.read(issueAt{"octo-org", "a", 1}).Issue.ID: true}
	for _, id := range ids {
		if seen[id] || id <= 0 || id > math.MaxInt32 {
			e.r.Errorf("the creates got the IDs %v: want each positive, below 2^31, and other than each other and issue 1's", ids)
			break
		}
		seen[id] = true
	}
}

func issuesByQuery(e *env) {
	if e.issueStore() == nil {
		return
	}
	e.addOrgs("octo-org")
	a := e.addRepo("octo-org", "a", false)
	b := e.addRepo("octocat", "b", true)
	c := e.addRepo("octo-org", "c", false)
	e.addIssues("octo-org", "c", 2, 1)
	e.addIssues("octo-org", "a", 9, 3, 4, 5)
	e.addIssues("octocat", "b", 1)
	e.deleteIssue("octo-org", "a", 4)
	e.transferIssue("octo-org", "a", 5, "octo-org", "c", 7)
	if _, err := e.s.UpdateIssue(e.ctx, e.read(issueAt{"octo-org", "a", 3}), fullIssue()); err != nil {
		e.r.Fatalf("UpdateIssue: %v", err)
	}
	query := func(q issuefields.IssueQuery) []issuefields.Issue {
		e.r.Helper()
		got, err := e.issueStore().Issues(e.ctx, q)
		if err != nil {
			e.r.Fatalf("Issues(%+v): %v", q, err)
		}
		return got
	}
	want := func(q issuefields.IssueQuery, keys ...issuefields.IssueKey) {
		e.r.Helper()
		got := query(q)
		var gotKeys []issuefields.IssueKey
		for _, is := range got {
			gotKeys = append(gotKeys, is.Key())
			if snap := e.read(issueAt{is.Repository.Owner, is.Repository.Name, is.Number}); is.Repository != snap.Repository ||
				is.ID != snap.Issue.ID || is.Version != snap.Issue.Version {
				e.r.Errorf("Issues(%+v) gave %+v, want the issue as Snapshot shows it: %+v", q, is, snap.Issue)
			}
		}
		if !slices.Equal(gotKeys, keys) {
			e.r.Errorf("Issues(%+v) = %v, want %v", q, gotKeys, keys)
		}
	}
	key := func(r issuefields.Repository, n int64) issuefields.IssueKey {
		return issuefields.IssueKey{RepositoryID: r.ID, Number: n}
	}
	want(issuefields.IssueQuery{})
	want(issuefields.IssueQuery{Repositories: []int64{c.ID, a.ID}}, key(a, 3), key(a, 9), key(c, 1), key(c, 2), key(c, 7))
	want(issuefields.IssueQuery{Repositories: []int64{b.ID, 999}}, key(b, 1))
	idOf := func(r issuefields.Repository, n int64) int64 { return e.read(issueAt{r.Owner, r.Name, n}).Issue.ID }
	want(issuefields.IssueQuery{IDs: []int64{idOf(c, 7), idOf(b, 1), idOf(a, 3), 0, -1, math.MaxInt32}}, key(a, 3), key(b, 1), key(c, 7))
	want(issuefields.IssueQuery{Repositories: []int64{a.ID}, IDs: []int64{idOf(a, 3), idOf(b, 1)}}, key(a, 3), key(a, 9), key(b, 1))
	for _, is := range query(issuefields.IssueQuery{Repositories: []int64{a.ID}}) {
		if is.Number == 3 {
			e.wantContent(is, fullIssue(), "Issues of the issue that UpdateIssue wrote")
		}
	}
}

func repositoriesAll(e *env) {
	if e.issueStore() == nil {
		return
	}
	e.addOrgs("octo-org")
	var want []issuefields.Repository
	for _, r := range []struct {
		owner, name string
		private     bool
	}{{"octo-org", "a", false}, {"octocat", "b", true}, {"octo-org", "c", false}} {
		want = append(want, e.addRepo(r.owner, r.name, r.private))
	}
	e.rename("octo-org", "c", "d")
	want[2].Name = "d"
	got, err := e.issueStore().Repositories(e.ctx)
	if err != nil {
		e.r.Fatalf("Repositories: %v", err)
	}
	if !slices.Equal(got, want) {
		e.r.Errorf("Repositories = %+v, want %+v", got, want)
	}
}
