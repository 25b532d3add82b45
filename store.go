package issuefields

import (
	"context"
	"errors"
	"time"
)

// Sentinel errors that a Store, a FieldManager, a TokenVerifier or a
// Principal's permission functions return, wrapped or not, to tell the
// handler what happened. The handler tests them with errors.Is and turns each
// into one HTTP status (the table is in the package documentation).
var (
	// ErrNotFound reports that a repository, an issue or an organization
	// does not exist. It becomes 404 Not Found.
	ErrNotFound = errors.New("issuefields: not found")

	// ErrIssueDeleted reports that an issue existed and was deleted. A list
	// of its values becomes 410 Gone; a write to it becomes 404 Not Found.
	ErrIssueDeleted = errors.New("issuefields: issue deleted")

	// ErrUnavailable reports that the store (or verifier) cannot serve the
	// request now, but may later: a database that is down, overloaded or
	// slower than the store's time bound. It becomes 503 Service
	// Unavailable with a Retry-After header.
	ErrUnavailable = errors.New("issuefields: service unavailable")

	// ErrChanged reports that a store no longer holds what a Snapshot
	// showed, so Store.UpdateIssue stored nothing. The handler reads a new
	// Snapshot and decides the write again; a client never sees it.
	ErrChanged = errors.New("issuefields: changed since the snapshot")
)

// Store keeps repositories, issues, their organizations' field definitions
// and the issues' field values. The handler implements every rule of the API
// (what add, set and delete mean, validation, authorization) on top of it;
// a store only stores. It never validates a value, and never changes one it
// was given.
//
// A write is a compare-and-set: the handler reads a Snapshot, decides the
// write on it, and asks UpdateIssue to store the result only if the store
// still holds what the Snapshot showed. When it does not, the handler reads
// a new Snapshot and decides again, so no concurrent change is lost.
//
// The handler calls a Store from many goroutines at once, with the request's
// context, which carries the caller's Principal (see PrincipalFromContext).
// An implementation must be safe for concurrent use, and should bound each
// call in time, returning an error that wraps ErrUnavailable when it runs
// out: a caller never waits for a store without bound.
//
// Slices: those passed in belong to the caller, so a store copies what it
// keeps. Those returned are read, never modified, by the handler, and a store
// must never change one afterwards: a store that hands out the same slice
// while nothing changes replaces it when something does.
//
// Errors: the methods return ErrNotFound, ErrIssueDeleted and ErrChanged as
// documented below, an error that wraps ErrUnavailable (with the cause) when
// the store cannot serve now, and any other error for a fault. The handler
// never shows a store's error text to a client; it logs it.
//
// The storetest package checks an implementation against this contract.
type Store interface {
	// Snapshot reads, as one state of the store, what a request for issue
	// number of the repository owner/name needs (see Snapshot for what each
	// member holds); number 0, which no issue has, asks for the repository
	// alone. owner and name match case-insensitively, and a repository is
	// found by its current owner and name and by every pair it had before
	// it was renamed or transferred. Snapshot returns an error that wraps
	// ErrNotFound when no repository has or had that name; what it finds of
	// the issue is the Snapshot's, not an error.
	Snapshot(ctx context.Context, owner, name string, number int64) (Snapshot, error)

	// UpdateIssue stores the content of next as the issue that snap shows
	// live in snap.Repository, under a new version, which it returns, if
	// the store still holds what snap showed: that issue live there at
	// snap.Issue.Version, the repository (its ID, owner, name, privacy and
	// whether an organization owns it) and the fields of its owner.
	// Otherwise it stores nothing and returns an error that wraps
	// ErrChanged. It ignores next's Repository, Number, ID and Version. snap
	// is a Snapshot of this store, passed back as it was, and may be old:
	// the handler keeps Snapshots. Writes to different issues should not
	// wait for each other.
	UpdateIssue(ctx context.Context, snap Snapshot, next Issue) (Version, error)
}

// Snapshot is what Store.Snapshot reads for a request for one issue, as one
// state of the store; Store.UpdateIssue checks it against the state the
// store holds when it stores.
type Snapshot struct {
	// Repository is the repository that the request's owner/name names,
	// under its current owner and name.
	Repository Repository

	// Issue is the issue asked for, where it is now: in Repository with the
	// same number, or, for an issue that was transferred (perhaps more than
	// once), in the repository and with the number it has now. IssueErr is
	// nil when there is such an issue, and otherwise wraps ErrNotFound (no
	// issue ever had that number in Repository) or ErrIssueDeleted. The
	// issue's ID, content and Version are read only when it is still in
	// Repository under its number; otherwise the handler does not read them.
	Issue    Issue
	IssueErr error

	// Fields are the fields of the organization that owns Repository, in
	// the organization's order (none for a repository owned by a user),
	// read whenever Repository is found, whatever Issue is.
	Fields []Field

	// Revision is the store's own record of what the Snapshot shows besides
	// the issue (the repository, its owner and the owner's fields), which
	// UpdateIssue checks; the handler passes it back untouched. A store that
	// checks those otherwise leaves it empty.
	Revision string
}

// Repository is a repository as the store currently knows it.
type Repository struct {
	// ID identifies the repository. It is positive, unique in the store and
	// stays the same when the repository is renamed or transferred, so values
	// stored under it survive both.
	ID int64
	// Owner is the login of the account that owns the repository now, spelt
	// as the store keeps it.
	Owner string
	// Name is the repository's current name, spelt as the store keeps it.
	Name string
	// Private reports whether the repository is private. Anyone may list the
	// values of a public repository's issues; a private repository is
	// invisible (404) to callers without access to it.
	Private bool
	// OwnedByOrganization reports whether Owner is an organization. Issue
	// fields are defined by organizations, so a repository owned by a user
	// has none.
	OwnedByOrganization bool
}

// Issue is the record of one issue: where it is, its ID, what it holds and
// its version. Its content is everything but Repository, Number, ID and
// Version: its own fields and its Values, which Store.UpdateIssue stores as
// one, so that any change of it gives the issue a new Version.
//
// A store stores the content as it is given and returns it so (slices that
// are nil or empty alike); the handler and the host decide what it holds.
// The strings are GitHub's: State is "open" or "closed", StateReason ""
// (none), "completed", "not_planned", "duplicate" or "reopened"; a Title
// has at most 256 characters.
type Issue struct {
	// Repository is the repository that holds the issue now.
	Repository Repository
	// Number is the issue's number in Repository.
	Number int64
	// ID identifies the issue: it is positive, below 2^31 (GraphQL's
	// databaseId is a 32-bit Int) and unique among the store's issues, and
	// it stays the same when the issue is transferred. The store gives it
	// when the issue is added or created.
	ID int64
	// Title is the issue's title.
	Title string
	// Body is the issue's description; "" for none.
	Body string
	// State is "open" or "closed", and StateReason why it is so, or "".
	State, StateReason string
	// Labels are the names of the issue's labels, and Assignees the logins
	// of its assignees.
	Labels, Assignees []string
	// Author is the login of the account that opened the issue.
	Author string
	// CreatedAt, UpdatedAt and ClosedAt are when the issue was opened, last
	// changed and closed, in UTC to the second; ClosedAt is zero for an
	// issue that is open.
	CreatedAt, UpdatedAt, ClosedAt time.Time
	// Values are the values of the issue's fields, in the order they were
	// last written.
	Values []Value
	// Version names the state of the issue: every change that a store
	// stores gives the issue a version it never had before.
	Version Version
}

// Key returns the key under which the issue's values are stored.
func (i Issue) Key() IssueKey {
	return IssueKey{RepositoryID: i.Repository.ID, Number: i.Number}
}

// IssueKey identifies one issue's values in a store: the repository's stable
// ID and the issue's number in it.
type IssueKey struct {
	RepositoryID int64
	Number       int64
}

// Value is the value of one field on one issue, in the store's form. Exactly
// the member that belongs to the field's data type is meaningful; the handler
// validates values before it stores them and ignores the other members.
type Value struct {
	// FieldID is the ID of the field the value belongs to.
	FieldID int64
	// Text is the value of a text field: 1 to 1,024 characters of UTF-8.
	Text string
	// Number is the value of a number field: a finite float64.
	Number float64
	// Date is the value of a date field, as "YYYY-MM-DD".
	Date string
	// OptionIDs holds the selected option of a single_select field (exactly
	// one) or the selected options of a multi_select field (one or more, in
	// the field's option order).
	OptionIDs []int64
}

// Version is an opaque token that identifies one state of an issue. A store
// gives every change of an issue that it stores a version that the issue
// never had before, so two Snapshots show the same version exactly when
// nothing was stored for the issue in between. The handler only compares
// versions for equality: the ETag of a list names the issue, its version and
// the definitions of its organization's fields.
type Version string

// FieldManager is the capability of a Store to change organizations' field
// definitions, which the handler's field management routes need: a Handler
// whose Store is not a FieldManager answers them with 404 (401 to a caller
// without a token, as over any store). It is optional;
// the handler finds it with a type assertion on Config.Store.
//
// The handler calls it from many goroutines at once, with the request's
// context, and decides everything about a change (validation, the order of
// options, names, times); a FieldManager stores what it is given.
//
// The values that issues hold for a field or an option that a change removes
// stay in the store, hidden: the handler shows and keeps only the values that
// the current fields define, and IDs are never given twice, so no such value
// ever shows again. A store need not touch the issues when fields change.
//
// The storetest package checks a Store that implements FieldManager against
// this contract too.
type FieldManager interface {
	// OrganizationFields returns the fields of the organization org, in the
	// organization's order, as Snapshot returns them for its repositories.
	// org matches case-insensitively. It returns an error that wraps
	// ErrNotFound when org is not an organization of the store: unknown, or
	// a user.
	OrganizationFields(ctx context.Context, org string) ([]Field, error)

	// ChangeFields replaces the fields of the organization org with those
	// that change returns, given the current ones, and returns the fields as
	// stored, as one atomic step with respect to every other ChangeFields
	// of org. It gives each field and each option that has ID 0 an ID that
	// no field or option of the organization has had before (the other IDs
	// are kept), and stores everything else as given. change may be called
	// more than once and must not modify current; when it returns an error,
	// ChangeFields changes nothing and returns an error that wraps it. It
	// returns an error that wraps ErrNotFound as OrganizationFields does.
	// Every Snapshot and OrganizationFields that begins after ChangeFields
	// returns sees the change, on every server that shares the store.
	//
	// ChangeFields takes a function, where UpdateIssue takes a result,
	// because the new IDs are given inside the store's atomic step, from
	// the organization's counter that only the store holds, and because
	// the handler's change is pure: it reads no request body and calls
	// nothing, so the store may call it under its lock, or again.
	//
	// The handler's change gives no new or renamed field or option a name
	// that another one has (as ValidateFields compares names), and names
	// that it leaves as they were are never its concern: an organization
	// whose fields got such names by other means keeps them.
	ChangeFields(ctx context.Context, org string, change func(current []Field) ([]Field, error)) ([]Field, error)
}

// IssueStore is the capability of a Store to create issues and to list
// them, which a host's issue routes need (the handler's own routes do not):
// a Store that is not an IssueStore cannot create issues through
// Call.CreateIssue, which answers 404. It is optional; the handler finds it
// with a type assertion on Config.Store. It is called from many goroutines
// at once, with the request's context.
//
// A store only stores: filtering, sorting and paging issues are the
// caller's, so a list reads every issue of the repositories it names.
//
// The storetest package checks a Store that implements IssueStore against
// this contract too.
type IssueStore interface {
	// CreateIssue stores the content of issue (see Issue) as a new live
	// issue of snap.Repository, with the repository's next number (one
	// above every number it has had, for a live, deleted or transferred
	// issue), an ID that no issue of the store has and a new version, and
	// returns the issue as stored, if the store still holds what snap shows
	// of the repository and of its owner's fields (as UpdateIssue checks
	// them). Otherwise it stores nothing and returns an error that wraps
	// ErrChanged. It ignores issue's Repository, Number, ID and Version.
	// Creates that run at once get distinct numbers, one after the other,
	// on every server that shares the store, and a create that fails uses
	// no number. snap is a Snapshot of the repository (number 0 asks for
	// it alone), passed back as it was.
	CreateIssue(ctx context.Context, snap Snapshot, issue Issue) (Issue, error)

	// Issues returns the live issues that q names, ordered by repository
	// ID and number, as Snapshot returns an issue (its Repository as the
	// store knows it now).
	Issues(ctx context.Context, q IssueQuery) ([]Issue, error)

	// Repositories returns every repository of the store, by ID.
	Repositories(ctx context.Context) ([]Repository, error)
}

// IssueQuery names the issues that IssueStore.Issues returns: those of the
// repositories whose IDs are Repositories, and those whose IDs are IDs. The
// zero IssueQuery names none.
type IssueQuery struct {
	Repositories []int64
	IDs          []int64
}

// Field is the definition of an organization-level issue field.
type Field struct {
	// ID identifies the field; it is positive and unique among the
	// organization's fields.
	ID int64
	// Name is the field's human-readable name.
	Name string
	// DataType is the field's data type.
	DataType DataType
	// Options lists the choices of a single_select or multi_select field, in
	// the organization's order. Other data types have no options.
	Options []FieldOption
	// Description says what the field is for; empty for none.
	Description string
	// Visibility says who may see the field; the zero Visibility means
	// VisibleToMembers.
	Visibility Visibility
	// CreatedAt and UpdatedAt are when the field was created and last
	// changed through the API, in UTC to the second; zero for fields that
	// seed data made.
	CreatedAt, UpdatedAt time.Time
}

// FieldOption is one choice of a single_select or multi_select field.
type FieldOption struct {
	// ID identifies the option; it is positive and unique among the options
	// of its field. (The IDs that a FieldManager gives are unique in the
	// organization, among its fields and options.)
	ID int64
	// Name is the option's name, unique within its field. A request selects
	// the option by it.
	Name string
	// Color is one of gray, blue, green, yellow, orange, red, pink and
	// purple.
	Color string
	// Description says what the option means; empty for none.
	Description string
	// Priority orders the options of a field managed through the API: the
	// handler keeps Field.Options sorted by it.
	Priority int
}

// DataType is the data type of an organization's issue field.
type DataType string

// The data types of issue fields.
const (
	DataTypeText         DataType = "text"
	DataTypeSingleSelect DataType = "single_select"
	DataTypeMultiSelect  DataType = "multi_select"
	DataTypeNumber       DataType = "number"
	DataTypeDate         DataType = "date"
)

// Visibility says who may see a field and its values.
type Visibility string

// The visibilities of issue fields.
const (
	VisibleToMembers Visibility = "organization_members_only"
	VisibleToAll     Visibility = "all"
)
