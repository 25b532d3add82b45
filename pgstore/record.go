package pgstore

import (
	_ "embed"
	"strconv"
	"time"

	"github.com/issuefields/issuefields"
)

// issueRecordsSQL is schema step 11: issues' IDs and their own fields, and
// each repository's last issue number.
//
//go:embed migrations/011_issue_records.sql
var issueRecordsSQL string

// contentColumns are the columns of the issues table (as i) that hold an
// issue's ID and its own fields, in the order of record's targets; each is
// read as NULL's zero for a row that the query did not find.
const contentColumns = `coalesce(i.id, 0), coalesce(i.title, ''), coalesce(i.body, ''), coalesce(i.issue_state, ''),
	coalesce(i.state_reason, ''), coalesce(i.labels, '{}'), coalesce(i.assignees, '{}'), coalesce(i.author, ''),
	i.created_at, i.updated_at, i.closed_at`

// contentNames are the columns of the issues table that hold an issue's ID
// and its own fields, and takeContent the SET list of an INSERT's ON
// CONFLICT that gives the row those of the row it would have inserted.
const (
	contentNames = `id, title, body, issue_state, state_reason, labels, assignees, author, created_at, updated_at, closed_at`
	takeContent  = `id = excluded.id, title = excluded.title, body = excluded.body, issue_state = excluded.issue_state,
		state_reason = excluded.state_reason, labels = excluded.labels, assignees = excluded.assignees,
		author = excluded.author, created_at = excluded.created_at, updated_at = excluded.updated_at,
		closed_at = excluded.closed_at`
)

// A record is what a query reads of an issue's ID and own fields: the
// members of an Issue, and its times, which may be NULL.
type record struct {
	issue                          *issuefields.Issue
	createdAt, updatedAt, closedAt *time.Time
}

// targets returns the scan targets of contentColumns, which fill is.
func (r *record) targets(is *issuefields.Issue) []any {
	r.issue = is
	return []any{&is.ID, &is.Title, &is.Body, &is.State, &is.StateReason, &is.Labels, &is.Assignees, &is.Author,
		&r.createdAt, &r.updatedAt, &r.closedAt}
}

// finish sets the times of the issue that targets filled, in UTC.
func (r *record) finish() {
	r.issue.CreatedAt, r.issue.UpdatedAt, r.issue.ClosedAt = utc(r.createdAt), utc(r.updatedAt), utc(r.closedAt)
}

// utc returns *t in UTC, or the zero time for nil.
func utc(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// contentArgs returns the arguments that store the own fields of is, in the
// order of the columns title to closed_at, a zero time as NULL.
func contentArgs(is *issuefields.Issue) []any {
	return []any{is.Title, is.Body, is.State, is.StateReason, nonNil(is.Labels), nonNil(is.Assignees), is.Author,
		nullTime(is.CreatedAt), nullTime(is.UpdatedAt), nullTime(is.ClosedAt)}
}

// nonNil returns s, or an empty slice for nil, which PostgreSQL would take
// for NULL.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// nullTime returns t, or nil for the zero time.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// setContent is the SET list of an UPDATE of issues that stores an issue's
// own fields from the parameters $n to $n+9, in the order of contentArgs.
func setContent(n int) string {
	p := func(i int) string { return "$" + strconv.Itoa(n+i) }
	return `title = ` + p(0) + `, body = ` + p(1) + `, issue_state = ` + p(2) + `, state_reason = ` + p(3) +
		`, labels = ` + p(4) + `, assignees = ` + p(5) + `, author = ` + p(6) +
		`, created_at = ` + p(7) + `, updated_at = ` + p(8) + `, closed_at = ` + p(9)
}
