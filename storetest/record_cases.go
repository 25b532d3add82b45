package storetest

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/issuefields/issuefields"
)

// recordCases check the issue as a record: the content that UpdateIssue
// stores and Snapshot returns, and the issue's ID.
var recordCases = []testCase{
	{"UpdateIssue stores every member of the issue's content under one new version, and Snapshot returns it as given", recordRoundTrip},
	{"UpdateIssue stores a copy of the content: changing the caller's slices afterwards changes nothing", recordCopied},
	{"Every issue has an ID that is positive, below 2^31 and unique in the store; UpdateIssue keeps it, and a transferred issue keeps it with its content", recordIDs},
	{"Snapshot reads the fields of the repository's owner whatever the issue, and number 0 reads the repository alone", recordFieldsAlways},
	{"SetIssue stores a copy of every member of the content under a new version, and keeps the issue's ID", recordSetIssue},
}

// fullIssue returns an issue's content with every member set, the times in
// UTC to the second. Each call returns new slices.
func fullIssue() issuefields.Issue {
	at := time.Date(2024, 2, 29, 23, 59, 58, 0, time.UTC)
	return issuefields.Issue{
		Title:       "Crash on «start» — naïve 日本語",
		Body:        "Steps:\n1. open\n2. \"quote\" \\ back",
		State:       "closed",
		StateReason: "not_planned",
		Labels:      []string{"bug", "good first issue"},
		Assignees:   []string{"octocat", "hubot"},
		Author:      "monalisa",
		CreatedAt:   at.Add(-48 * time.Hour),
		UpdatedAt:   at,
		ClosedAt:    at.Add(-time.Hour),
		Values:      someValues(),
	}
}

// wantContent reports a failure, citing when, unless got has the content of
// want: every member but Repository, Number, ID and Version.
func (e *env) wantContent(got, want issuefields.Issue, when string) {
	e.r.Helper()
	same := got.Title == want.Title && got.Body == want.Body && got.State == want.State && got.StateReason == want.StateReason &&
		slices.Equal(got.Labels, want.Labels) && slices.Equal(got.Assignees, want.Assignees) && got.Author == want.Author &&
		sameTime(got.CreatedAt, want.CreatedAt) && sameTime(got.UpdatedAt, want.UpdatedAt) && sameTime(got.ClosedAt, want.ClosedAt) &&
		equalValues(got.Values, want.Values)
	if !same {
		e.r.Errorf("%s: the issue's content is\n\t%+v\nwant\n\t%+v", when, got, want)
	}
}

// sameTime reports whether a and b are the same instant, both zero or both
// in UTC.
func sameTime(a, b time.Time) bool {
	return a.Equal(b) && (a.IsZero() || a.Location() == time.UTC)
}

func recordRoundTrip(e *env) {
	is := e.anIssue()
	snap := e.read(is)
	next := fullIssue()
	next.ID, next.Number, next.Version = snap.Issue.ID+1000, 99, "not this one"
	version, err := e.s.UpdateIssue(e.ctx, snap, next)
	if err != nil {
		e.r.Fatalf("UpdateIssue with every member of the content: %v", err)
	}
	got := e.read(is).Issue
	e.wantContent(got, fullIssue(), "after UpdateIssue")
	if got.Version != version || version == snap.Issue.Version || got.ID != snap.Issue.ID || got.Number != is.number {
		e.r.Errorf("after UpdateIssue: ID %d, number %d, version %q (UpdateIssue returned %q, before %q); want ID %d, number %d, the new version",
			got.ID, got.Number, got.Version, version, snap.Issue.Version, snap.Issue.ID, is.number)
	}
	// A change of the title alone is a new version too.
	title := got
	title.Title = "Another title"
	version2, err := e.s.UpdateIssue(e.ctx, e.read(is), title)
	if err != nil || version2 == version {
		e.r.Errorf("UpdateIssue of the title alone: version %q, %v; want a new version", version2, err)
	}
	e.wantContent(e.read(is).Issue, title, "after UpdateIssue of the title")
	// Members back to their zero values are stored so.
	if _, err := e.s.UpdateIssue(e.ctx, e.read(is), issuefields.Issue{}); err != nil {
		e.r.Fatalf("UpdateIssue of an empty content: %v", err)
	}
	e.wantContent(e.read(is).Issue, issuefields.Issue{}, "after UpdateIssue of an empty content")
}

func recordCopied(e *env) {
	is := e.anIssue()
	next := fullIssue()
	if _, err := e.s.UpdateIssue(e.ctx, e.read(is), next); err != nil {
		e.r.Fatalf("UpdateIssue: %v", err)
	}
	next.Labels[0], next.Assignees[0], next.Values[0].OptionIDs[0] = "changed", "changed", 12345
	e.wantContent(e.read(is).Issue, fullIssue(), "after the caller changed the slices it gave UpdateIssue")
}

func recordIDs(e *env) {
	e.addOrgs("octo-org")
	e.addRepo("octo-org", "a", false)
	e.addRepo("octocat", "b", true)
	e.addIssues("octo-org", "a", 1, 2, 7)
	e.addIssues("octocat", "b", 1)
	ids := map[int64]string{}
	for _, is := range []issueAt{{"octo-org", "a", 1}, {"octo-org", "a", 2}, {"octo-org", "a", 7}, {"octocat", "b", 1}} {
		id := e.read(is).Issue.ID
		if id <= 0 || id > math.MaxInt32 {
			e.r.Errorf("issue %+v has ID %d, want one that is positive and below 2^31", is, id)
		}
		if other, ok := ids[id]; ok {
			e.r.Errorf("issue %+v has ID %d, as %s does", is, id, other)
		}
		ids[id] = fmtIssue(is)
	}
	is := issueAt{"octo-org", "a", 7}
	id := e.read(is).Issue.ID
	e.write(is, someValues())
	if got := e.read(is).Issue.ID; got != id {
		e.r.Errorf("after UpdateIssue the issue has ID %d, want %d", got, id)
	}
	if _, err := e.s.UpdateIssue(e.ctx, e.read(is), fullIssue()); err != nil {
		e.r.Fatalf("UpdateIssue: %v", err)
	}
	e.transferIssue("octo-org", "a", 7, "octocat", "b", 9)
	moved := e.read(issueAt{"octocat", "b", 9}).Issue
	if moved.ID != id {
		e.r.Errorf("the transferred issue has ID %d, want %d, the ID it had", moved.ID, id)
	}
	e.wantContent(moved, fullIssue(), "after the transfer")
}

// fmtIssue names is for a failure.
func fmtIssue(is issueAt) string {
	return is.owner + "/" + is.name + "#" + strconv.FormatInt(is.number, 10)
}

func recordFieldsAlways(e *env) {
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	e.addRepo("octo-org", "a", false)
	e.addIssues("octo-org", "a", 1, 2, 3)
	e.deleteIssue("octo-org", "a", 2)
	e.transferIssue("octo-org", "a", 3, "octo-org", "a", 4)
	for _, number := range []int64{0, 1, 2, 3, 99} {
		snap := e.snapshot("octo-org", "a", number)
		if !equalFields(snap.Fields, octoFields()) {
			e.r.Errorf("Snapshot(octo-org, a, %d) has the fields %v, want octo-org's", number, snap.Fields)
		}
	}
	snap := e.snapshot("octo-org", "a", 0)
	if snap.Repository != e.repo("octo-org", "a") || !errors.Is(snap.IssueErr, issuefields.ErrNotFound) {
		e.r.Errorf("Snapshot(octo-org, a, 0) = %+v, %v; want the repository alone, with an IssueErr that wraps ErrNotFound", snap.Repository, snap.IssueErr)
	}
}

func recordSetIssue(e *env) {
	is := e.anIssue()
	before := e.read(is).Issue
	content := fullIssue()
	content.Number, content.ID = is.number, before.ID+1000
	e.seed(e.s.SetIssue(is.owner, is.name, content), "SetIssue(%q, %q, %+v)", is.owner, is.name, content)
	content.Labels[0] = "changed"
	got := e.read(is).Issue
	e.wantContent(got, fullIssue(), "after SetIssue")
	if got.ID != before.ID || got.Version == before.Version {
		e.r.Errorf("after SetIssue: ID %d, version %q; want ID %d and a new version", got.ID, got.Version, before.ID)
	}
}
