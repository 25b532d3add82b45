// Package memstore provides an in-memory [issuefields.Store], for tests and
// examples: its data lives as long as the process.
//
// A [Store] starts empty. Its seed methods, those of storetest.Seeder
// (AddOrganization, AddField, AddRepository, RenameRepository,
// TransferRepository, AddIssue, DeleteIssue, TransferIssue and SetValues),
// fill it; each either applies completely or returns an error and changes
// nothing. The seed methods check the shape of
// what they are given (unique IDs and names, known data types, options only
// on select fields) but not field values: SetValues stores whatever it is
// given, so seed data must already be valid for the organization's fields,
// as the handler would have made it.
//
// Owners and repository names match case-insensitively everywhere, and a
// repository keeps answering to every owner and name it had before, as
// [issuefields.Store.Repository] requires. When a repository is created or
// renamed to a name that another repository had before, the new one takes the
// name over and the old one is no longer found by it, as on GitHub.
//
// A Store is safe for concurrent use. A store-wide lock guards the
// organizations, repositories and issues, which change only through the seed
// methods; each issue has its own lock for its values and version, so reads
// and writes of different issues do not wait for each other, and the cost of
// a call does not grow with the number of issues.
//
// A Store is also an [issuefields.FieldManager]: the handler's field management
// routes create, change and delete its organizations' fields.
//
// Fields and Values hand out the store's own slices, without copying them:
// a change replaces a slice and never writes into one that was handed out, as
// the Store contract requires of shared snapshots.
//
// A version is never given twice, by one Store or another, in this process or
// another: each is a random prefix drawn when the process starts followed by
// a count of the process's commits. So an ETag taken before a server
// restarted, or from another Store with the same data, never matches the
// values of this one: a stale If-None-Match gets the list and a stale
// If-Match gets 412.
package memstore
