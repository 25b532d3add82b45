// Package memstore provides an in-memory [issuefields.Store], for tests and
// examples: its data lives as long as the process. It is an
// [issuefields.FieldManager] too, so the handler's field management routes
// create, change and delete its organizations' fields.
//
// A [Store] starts empty. Its seed methods, those of [seed.Seeder]
// (AddOrganization, AddField, AddRepository, RenameRepository,
// TransferRepository, AddIssue, DeleteIssue, TransferIssue and SetValues),
// fill it; each either applies completely or returns an error and changes
// nothing. AddField refuses what [issuefields.ValidateFields] refuses of the
// organization's fields with the new one; SetValues stores whatever values
// it is given, so seed data must already be valid for the organization's
// fields, as the handler would have made it.
//
// Owners and repository names match case-insensitively everywhere, and a
// repository keeps answering to every owner and name it had before, as
// [issuefields.Store.Snapshot] requires. When a repository is created or
// renamed to a name that another repository had before, the new one takes the
// name over and the old one is no longer found by it, as on GitHub.
//
// A Store is safe for concurrent use, and the cost of a call does not grow
// with the number of issues. A store-wide read-write lock guards the
// accounts, repositories and issues, which change only through the seed
// methods; each issue has its own lock for its values and version.
// [Store.Snapshot] reads under both, so what it returns is one state of the
// store. [Store.UpdateIssue] compares the Snapshot it is given with what the
// store holds under both locks (the repository, the slice of its owner's
// fields, the state and version), and stores the new values only
// when nothing changed, else it returns [issuefields.ErrChanged]: a write
// never waits for a write of another issue, and holds the locks only to
// compare and store.
//
// Snapshot and the field methods hand out the store's own slices, without
// copying them, so a Snapshot of a live issue allocates nothing: a write
// replaces a slice and never writes into one that was handed out. What a
// caller passes in is copied.
//
// [Store.ChangeFields] serializes the changes of one organization's fields
// on a lock of the organization, and calls change without holding the
// store-wide lock, which it takes only to put the new fields in place. It
// gives each new field and option an ID above every ID that a field or an
// option of the organization ever had, seeded or given, so no ID is given
// twice. It does not touch issues: the values of a removed field or option
// stay, hidden by the handler, under the same version.
//
// [Store.Hooks] returns the Store's [Hooks], a [webhook.Store]: its hooks and
// their newest deliveries, under a lock of their own, so that recording a
// delivery never waits for a request for values nor holds one up.
// [Hooks.HooksFor] takes the repository as the caller gives it: a
// repository's own hooks follow it through renames and transfers, and after
// a transfer the hooks of the organization that owns it now get its events.
//
// [Store.Empty] drops everything, hooks and deliveries too ([seed.Emptier]).
//
// A version is never given twice, by one Store or another, in this process or
// another: each is a random prefix drawn when the process starts followed by
// a count of the process's commits. So an ETag taken before a server
// restarted, or from another Store with the same data, never matches the
// values of this one: a stale If-None-Match gets the list and a stale
// If-Match gets 412.
package memstore
