package datafile

import (
	"fmt"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/issuefields/issuefields"
)

// started is when the process started, in UTC to the second: the time of
// the file's issues that give no created_at, the same at every reset.
var started = time.Now().UTC().Truncate(time.Second)

// GitHub's bounds of an issue's title and body, in characters.
const (
	maxTitle = 256
	maxBody  = 65536
)

// stateReasons are the state_reason values an issue may have, "" for none.
var stateReasons = []string{"", "completed", "not_planned", "duplicate", "reopened"}

// content returns the record of is, an issue of repo at the place at of the
// file, with the defaults for what the file leaves out: the title "Issue
// #<number>", no body, open, no reason, no labels or assignees, the
// repository's owner as the author, and the process's start as the time it
// was created, last updated and, if closed, closed.
func (l *loader) content(repo issuefields.Repository, is Issue, at string) (issuefields.Issue, error) {
	c := issuefields.Issue{Number: is.Number, Title: is.Title, Body: is.Body, State: is.State, StateReason: is.StateReason,
		Labels: is.Labels, Assignees: is.Assignees, Author: is.Author, CreatedAt: started}
	switch {
	case utf8.RuneCountInString(is.Title) > maxTitle:
		return c, fmt.Errorf("%s.title: a title has at most %d characters (GitHub's limit)", at, maxTitle)
	case utf8.RuneCountInString(is.Body) > maxBody:
		return c, fmt.Errorf("%s.body: a body has at most %d characters (GitHub's limit)", at, maxBody)
	case is.State != "" && is.State != "open" && is.State != "closed":
		return c, fmt.Errorf("%s.state: %q is not open or closed", at, is.State)
	case !slices.Contains(stateReasons, is.StateReason):
		return c, fmt.Errorf("%s.state_reason: %q is not completed, not_planned, duplicate or reopened", at, is.StateReason)
	case slices.Contains(is.Labels, ""):
		return c, fmt.Errorf("%s.labels: a label needs a name", at)
	case slices.Contains(is.Assignees, ""):
		return c, fmt.Errorf("%s.assignees: an assignee needs a login", at)
	}
	if is.CreatedAt != "" {
		t, err := time.Parse(time.RFC3339, is.CreatedAt)
		if err != nil {
			return c, fmt.Errorf("%s.created_at: %q is not an RFC 3339 time such as 2030-01-31T12:00:00Z", at, is.CreatedAt)
		}
		c.CreatedAt = t.UTC().Truncate(time.Second)
	}
	if c.Title == "" {
		c.Title = "Issue #" + strconv.FormatInt(is.Number, 10)
	}
	if c.State == "" {
		c.State = "open"
	}
	if c.Author == "" {
		c.Author = repo.Owner
	}
	c.UpdatedAt = c.CreatedAt
	if c.State == "closed" {
		c.ClosedAt = c.CreatedAt
	}
	return c, nil
}
