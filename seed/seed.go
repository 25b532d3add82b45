// Package seed is how initial data gets into a store: the organizations,
// fields, repositories and issues that the API reads but cannot create, and
// the values that seed data gives them. A [Seeder] has the seed methods that
// put them in; an [Emptier] drops everything, so that they put it in again.
//
// memstore.Store and pgstore.Store are both. The conformance suite
// (storetest) fills each store it tests through the seed methods, and the
// example server loads its data file through them and empties its store for
// a reset. The handler never calls them. The package imports no test code,
// so that a program that loads data links none.
package seed

import (
	"context"

	"github.com/issuefields/issuefields"
)

// Seeder puts organizations, fields, repositories, issues and values into a
// store. The conformance suite calls its methods to set up each case, and a
// program that starts a server may call them to load initial data.
//
// Every method either applies completely or returns an error and changes
// nothing. The methods take no context: they are meant for start-up and
// tests, not for the request path. A Seeder that is also a Store must be safe
// for the handler to use while a seed method runs.
//
// Owners and repository names match case-insensitively, as
// [issuefields.Store.Snapshot] matches them: every owner/name argument
// names a repository by its current owner and name or by any it had before.
// An account (the owner of repositories) is an organization if
// AddOrganization added it, and a user otherwise; the store creates a user
// the first time a repository is given to it, spelt as it is first given.
// Only organizations have fields.
//
// Errors: a method that is given a repository that is not found by its
// owner/name (or, for AddField, an organization that the store does not have)
// returns an error that wraps [issuefields.ErrNotFound]; one that is given an
// issue that was deleted returns an error that wraps
// [issuefields.ErrIssueDeleted], and one that was never added or was
// transferred away, ErrNotFound. The conformance suite checks these, and that
// a refused call changes nothing.
//
// Issue numbers are never reused: a number that a repository has used, for a
// live, deleted or transferred issue, cannot be added again, so a version
// the handler saw for one issue never belongs to another.
type Seeder interface {
	// AddOrganization adds the organization login, which has no fields yet.
	// It returns an error if login is empty or already names an account of
	// the store, an organization or a user that owns a repository.
	AddOrganization(login string) error

	// AddField appends f to the fields of the organization org, after the
	// fields it has; Store.Snapshot lists them in that order. The store
	// keeps a copy of f. It returns an error if org is not an organization
	// of the store, or if issuefields.ValidateFields refuses the
	// organization's fields with f appended. The IDs of f and its options
	// count among those that the organization has had, which
	// FieldManager.ChangeFields never gives to a new field or option.
	AddField(org string, f issuefields.Field) error

	// AddRepository adds the repository owner/name and returns it as
	// Store.Snapshot would, with an ID that no other repository of the
	// store has. If another repository had the name owner/name before, the
	// new one takes it over and the old one is no longer found by it. It
	// returns an error if owner or name is empty or contains a slash, or if a
	// repository is called owner/name now.
	AddRepository(owner, name string, private bool) (issuefields.Repository, error)

	// RenameRepository renames the repository owner/name to newName under
	// the same owner. The repository keeps its ID, its issues and their
	// values, and is still found by every name it had. It returns an error if
	// there is no such repository, if newName is empty or contains a slash,
	// or if another repository of the owner is called newName now.
	RenameRepository(owner, name, newName string) error

	// TransferRepository gives the repository owner/name to the account
	// newOwner. The repository keeps its ID, its name, its issues and their
	// values, and is still found by every owner and name it had; its fields
	// are now those of the new owner. It returns an error if there is no
	// such repository, if newOwner is empty or contains a slash, or if
	// newOwner has a repository of the same name now.
	TransferRepository(owner, name, newOwner string) error

	// AddIssue adds issue number, live and with no content (see
	// issuefields.Issue) but an ID that no issue of the store has, to the
	// repository owner/repo. Issues added in the same order to a new or
	// emptied store get the same IDs. It returns an error if there is no
	// such repository, if number is not positive, or if the repository has
	// or had an issue with that number.
	AddIssue(owner, repo string, number int64) error

	// SetIssue replaces the content of the live issue issue.Number of
	// owner/repo with a copy of issue's (everything but its Repository,
	// Number, ID and Version) and gives the issue a new version, as an
	// UpdateIssue would. It stores the content as given. It returns an
	// error if there is no such live issue.
	SetIssue(owner, repo string, issue issuefields.Issue) error

	// DeleteIssue deletes the live issue number of the repository
	// owner/repo, and its values. Afterwards the IssueErr of its
	// Store.Snapshot wraps ErrIssueDeleted. It returns an error if there is
	// no such live issue.
	DeleteIssue(owner, repo string, number int64) error

	// TransferIssue moves the live issue number of owner/repo to issue
	// toNumber of toOwner/toRepo, which it creates if it does not exist. The
	// issue's ID and content move with it and replace those the destination
	// had, under a new version of the destination. Afterwards Store.Snapshot finds the
	// old issue at its new place, following chains of transfers. It returns an
	// error if the source is not a live issue, if toNumber is not positive,
	// or if the destination is the source or an issue that was deleted or
	// transferred.
	TransferIssue(owner, repo string, number int64, toOwner, toRepo string, toNumber int64) error

	// SetValues replaces the values of the live issue number of owner/repo
	// with a copy of values and gives the issue a new version, as an
	// UpdateIssue would. It stores values as given, in their order, without
	// checking them against the organization's fields: seed data must be
	// valid, as the handler would have written it. It returns an error if
	// there is no such live issue.
	SetValues(owner, repo string, number int64, values []issuefields.Value) error
}

// Emptier is a store that drops everything it holds, so that its seed
// methods fill it again, as a test suite's reset does.
type Emptier interface {
	// Empty drops everything the store holds, whoever put it there (the
	// seed methods, the handler's writes and field changes), and what the
	// store keeps beside the API's data, such as memstore's and pgstore's
	// hooks and deliveries. Afterwards Snapshot finds no repository, and
	// the seed methods fill the store as a new one: the names and issue
	// numbers it held may be added again. A version is still never given
	// twice: an issue seeded after Empty gets versions that no issue had
	// before, so an ETag taken before Empty never matches after it. Each
	// call that runs while Empty does sees the store before Empty or after
	// it, never a part of each. An error means that Empty changed nothing.
	Empty(ctx context.Context) error
}
