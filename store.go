package issuefields

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"time"
)

// Sentinel errors that a Store, a TokenVerifier or a Principal's Permissions
// function returns, wrapped or not, to tell the handler what happened. The
// handler tests them with errors.Is and turns each into one HTTP status; the
// table is in errors.go and in the package documentation.
var (
	// ErrNotFound reports that a repository or an issue does not exist.
	// It becomes 404 Not Found.
	ErrNotFound = errors.New("issuefields: not found")

	// ErrIssueDeleted reports that an issue existed and was deleted. A list
	// of its values becomes 410 Gone; a write to it becomes 404 Not Found.
	ErrIssueDeleted = errors.New("issuefields: issue deleted")

	// ErrVersionConflict reports that CompareAndSwap found a version other
	// than the expected one. The handler reads the values again and retries a
	// bounded number of times, then answers 503 Service Unavailable.
	ErrVersionConflict = errors.New("issuefields: version conflict")

	// ErrUnavailable reports that the store (or verifier) cannot serve the
	// request now, but may later: a database that is down or overloaded. It
	// becomes 503 Service Unavailable with a Retry-After header.
	ErrUnavailable = errors.New("issuefields: service unavailable")
)

// DataType is the data type of an organization's issue field.
type DataType string

// The data types of issue fields.
const (
	Text         DataType = "text"
	SingleSelect DataType = "single_select"
	MultiSelect  DataType = "multi_select"
	Number       DataType = "number"
	Date         DataType = "date"
)

// Valid reports whether t is one of the five data types.
func (t DataType) Valid() bool {
	return rulesOf(t) != nil
}

// Visibility says who may see a field and its values.
type Visibility string

// The visibilities of issue fields. The zero Visibility means
// VisibleToMembers.
const (
	VisibleToMembers Visibility = "organization_members_only"
	VisibleToAll     Visibility = "all"
)

// Option is one choice of a single_select or multi_select field.
type Option struct {
	ID    int64
	Name  string
	Color string
	// Description says what the option means; empty for none.
	Description string
	// Priority orders the options of a field managed through the API: the
	// handler keeps Field.Options sorted by it.
	Priority int
}

// Field is the definition of an organization-level issue field.
type Field struct {
	// ID identifies the field; it is positive and unique within the
	// organization.
	ID int64
	// Name is the field's human-readable name.
	Name string
	// DataType is the field's data type.
	DataType DataType
	// Options lists the choices of a single_select or multi_select field, in
	// the order the organization gave them. Option names are unique within a
	// field. Other data types have no options.
	Options []Option
	// Description says what the field is for; empty for none.
	Description string
	// Visibility says who may see the field.
	Visibility Visibility
	// CreatedAt and UpdatedAt are when the field was created and last
	// changed through the API, in UTC to the second; zero for fields that
	// seed data made.
	CreatedAt, UpdatedAt time.Time
}

// NodeID returns the field's node_id: "IF_" and the base64url encoding of its
// ID. It is opaque, URL-safe and the same wherever the field appears (the
// field management routes, webhook deliveries).
func (f Field) NodeID() string {
	var raw [binary.MaxVarintLen64]byte
	return "IF_" + base64.RawURLEncoding.EncodeToString(binary.AppendUvarint(raw[:0], uint64(f.ID)))
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

// Issue is an issue as the store currently knows it.
type Issue struct {
	// Repository is the repository that holds the issue now.
	Repository Repository
	// Number is the issue's number in Repository.
	Number int64
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

// Version is an opaque token that identifies one state of an issue's values.
// Two Values calls return the same version exactly when no CompareAndSwap
// committed in between. Only a store gives it a meaning; the handler compares
// versions for equality and hands them back to CompareAndSwap.
type Version string

// Store keeps organizations' field definitions, repositories, issues and the
// issues' field values. The handler implements every rule of the API (what
// add, set and delete mean, validation, authorization) on top of it, so a store
// only stores: it never validates a value, and it must not change a value it
// was given.
//
// The handler calls a Store from many goroutines at once, with the request's
// context; an implementation must be safe for concurrent use.
//
// Slices: those passed in belong to the caller, so a store copies what it
// keeps. Those returned are snapshots that the caller only reads: the handler
// never modifies them, and a store must never change one afterwards. A store
// that hands out one slice while nothing changes replaces it when something
// does, instead of writing into it; a store that returns a new copy on every
// call meets this too.
//
// Errors: a method returns ErrNotFound or ErrIssueDeleted as documented below,
// ErrVersionConflict from CompareAndSwap, ErrUnavailable (wrapped, with the
// cause) when it cannot serve now, and any other error for a fault. The
// handler never shows a store's error text to a client; it logs it.
//
// The storetest package checks an implementation against this contract.
type Store interface {
	// Repository finds the repository that owner/name names now or named
	// before. owner and name match case-insensitively. A repository that was
	// renamed or transferred is found by any of its former owner/name pairs
	// and returned under its current owner and name; the handler answers
	// such a request with a redirect. It returns ErrNotFound when no
	// repository has or had that name.
	Repository(ctx context.Context, owner, name string) (Repository, error)

	// Issue finds issue number in repo, a Repository returned by Repository;
	// a store may rely on repo.ID alone.
	// An issue transferred to another repository is returned as it is now:
	// its new repository and number, which the handler answers with a
	// redirect. It returns ErrIssueDeleted for an issue that was deleted,
	// and ErrNotFound for a number that never was an issue of repo.
	Issue(ctx context.Context, repo Repository, number int64) (Issue, error)

	// Fields returns the issue fields of the organization that owns repo, in
	// the organization's order, which is the order of the API's responses.
	// A repository owned by a user has no fields: Fields returns an empty (or
	// nil) slice and no error. A store may rely on repo.ID alone.
	Fields(ctx context.Context, repo Repository) ([]Field, error)

	// Values returns the values stored on the issue and their version. An
	// issue that has no values gives an empty (or nil) slice and a version
	// all the same. Values are returned in the order they were last written.
	// For a key whose issue was deleted or transferred away since the
	// handler found it, Values and CompareAndSwap return ErrIssueDeleted or
	// ErrNotFound.
	Values(ctx context.Context, issue IssueKey) ([]Value, Version, error)

	// CompareAndSwap replaces the issue's values with values, if and only if
	// the issue's version is still expected, and returns the new version,
	// which differs from every version the issue had before. When the
	// version is no longer expected, it changes nothing and returns
	// ErrVersionConflict. The check and the replacement are one atomic step
	// with respect to every other call on the same issue; calls on
	// different issues should not wait for each other.
	CompareAndSwap(ctx context.Context, issue IssueKey, expected Version, values []Value) (Version, error)
}

// FieldManager is the capability of a Store to change organizations' fields,
// which the handler's field management routes need: a Handler whose Store is
// not a FieldManager answers them with 404. It is optional; the handler
// finds it with a type assertion on Config.Store.
//
// The handler calls it from many goroutines at once, with the request's
// context. It decides what a change means (validation, the order of options,
// timestamps); a FieldManager stores the result in one atomic step and keeps
// the values of issues consistent with it, using [PlanFieldChange] and
// [PruneValues] so that every store does the same.
//
// The storetest package checks a Store that implements FieldManager against
// this contract too.
type FieldManager interface {
	// OrganizationFields returns the fields of the organization org, in the
	// organization's order, as Fields returns them for its repositories.
	// org matches case-insensitively. It returns ErrNotFound when org is not
	// an organization of the store: unknown, or a user.
	OrganizationFields(ctx context.Context, org string) ([]Field, error)

	// ChangeFields replaces the fields of the organization org with those
	// that change returns, given the current ones, and returns the fields as
	// stored. change may be called more than once (a store that retries a
	// transaction calls it again with the fields it then finds); it must
	// not modify current. When change returns an error, ChangeFields changes
	// nothing and returns that error, wrapped or not. It returns ErrNotFound
	// as OrganizationFields does.
	//
	// The store passes the current fields and change's result to
	// PlanFieldChange, which gives fields and options with ID 0 new IDs that
	// no field or option of the organization had before, and refuses a
	// result that is not a valid set of fields; then it stores the planned
	// fields. When the change removes a field or an option, in the same
	// atomic step, the store removes the values that used them from every
	// issue of the organization's repositories (PruneValues) and gives every
	// live issue of those repositories a new version, so that a
	// CompareAndSwap prepared with the former fields fails with
	// ErrVersionConflict and the handler validates the write again. Every
	// call of Fields, OrganizationFields and Values that begins after
	// ChangeFields returns sees the change, on every server that shares the
	// store.
	ChangeFields(ctx context.Context, org string, change func(current []Field) ([]Field, error)) ([]Field, error)
}

// Snapshot is what the handler needs to serve a request for one issue's
// values, read in one step from one state of the store.
type Snapshot struct {
	// Repository is the repository that the request's owner/name names, as
	// Store.Repository returns it.
	Repository Repository
	// Issue and IssueErr are what Store.Issue returns for Repository and the
	// request's issue number.
	Issue Issue
	// IssueErr wraps ErrNotFound or ErrIssueDeleted, or is nil.
	IssueErr error
	// Fields, Values and Version are what Store.Fields and Store.Values
	// return for Issue, when IssueErr is nil and Issue is the one asked for
	// (it was not transferred). Otherwise the handler does not read them.
	Fields  []Field
	Values  []Value
	Version Version
}

// Snapshotter is an optional interface of a Store: it reads all that a request
// needs in one call, which a store over a database answers with one query
// instead of four. The handler uses it in place of Repository, Issue, Fields
// and Values when the store implements it, and decides what the caller may
// learn in the same order as without it.
type Snapshotter interface {
	// Snapshot finds the repository that owner/name names as Repository
	// does, and returns Repository's error when there is none. Otherwise it
	// finds issue number in it, and the issue's fields, values and version,
	// as Snapshot documents.
	Snapshot(ctx context.Context, owner, name string, number int64) (Snapshot, error)
}

// Updater is an optional interface of a Store: it changes an issue's values
// with the issue locked against other writers, so that concurrent writers of
// one issue take turns instead of retrying a compare-and-set. When a store
// implements it, the handler uses it for a write whose CompareAndSwap lost to
// another write, and never retries.
type Updater interface {
	// Update reads the issue's values and version, calls change with them,
	// and replaces the values with the ones change returns, as one atomic
	// step with respect to every other write to the issue: other writers of
	// the issue wait meanwhile, within the store's time bound. It returns
	// the new version. change may be called more than once, with values the
	// store holds and then with the ones it finds under the lock; it must
	// not modify current. When the last call of change returns an error,
	// Update changes nothing and returns an error that wraps it. For an issue that was deleted or
	// transferred away, it returns ErrIssueDeleted or ErrNotFound as Values
	// does, without calling change.
	//
	// A store that is also a FieldManager must not store, through Update,
	// a value of a field or an option that the organization deleted: the
	// handler validated the write against the fields it read before, which
	// a change of the fields may have outdated since. It passes change's
	// result through PruneValues with the fields it reads once the issue is
	// locked.
	Update(ctx context.Context, issue IssueKey, change func(current []Value, version Version) ([]Value, error)) (Version, error)
}

// SnapshotKeeper is an optional interface of a Snapshotter: it answers a
// write's Snapshot from memory, and checks, in the step that stores the
// write, that the store still holds what that Snapshot showed, so that a
// store over a database writes with one round trip instead of two. The
// handler uses it for add, set and delete. It answers a write from a kept
// Snapshot only when SwapIfCurrent stored the write; any other outcome (a
// refusal, a redirect, a write that changes nothing, a check that failed) is
// decided again from a Snapshot of the store, as without a SnapshotKeeper, so
// a stale Snapshot is never shown to a client.
type SnapshotKeeper interface {
	// KeptSnapshot returns, from memory and without waiting, a Snapshot of
	// the request for issue number of owner/name that the store read or
	// wrote before, and a check that stands for the state of the store that
	// it shows. It returns ok false when it keeps none, or none of a live
	// issue. The Snapshot may be stale.
	KeptSnapshot(owner, name string, number int64) (snapshot Snapshot, check any, ok bool)

	// SwapIfCurrent replaces the values of the Snapshot's issue with values,
	// if and only if the store still holds exactly what the Snapshot that
	// check came with shows (the repository that owner/name names, the
	// issue, its version, the organization's fields), and returns the new
	// version. Otherwise it changes nothing and returns ErrVersionConflict.
	// The check and the replacement are one atomic step, as those of
	// CompareAndSwap.
	SwapIfCurrent(ctx context.Context, check any, values []Value) (Version, error)
}
