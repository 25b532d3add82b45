// Package pgstore provides an [issuefields.Store] that keeps its data in
// PostgreSQL, so that it outlives the process and several servers can share
// it.
//
// A server opens a Store with [Open], which creates the pool of connections,
// brings the schema up to date with [Migrate], and hands the Store to the
// handler:
//
//	cfg, err := pgxpool.ParseConfig(os.Getenv("DATABASE_URL"))
//	...
//	store, err := pgstore.Open(ctx, cfg, pgstore.Timeout(3*time.Second))
//	...
//	defer store.Close()
//	if err := pgstore.Migrate(ctx, store.Pool()); err != nil { ... }
//	h, err := issuefields.New(issuefields.Config{Store: store, Verifier: verifier})
//
// [New] makes a Store over a pool of the caller's own.
//
// # Round trips
//
// A list costs one query, [Store.Snapshot], that finds the repository, the
// issue (following transfers), its values and version, and the version of
// the organization's field definitions. The Store keeps each organization's
// fields in memory under that version, which triggers replace on every
// change to the fields or their options, so the next request after a change
// made through any server sees a new version, and reads the fields with a
// second query.
//
// A write costs one: [Store.UpdateIssue] is one UPDATE that stores the
// values the handler decided on a Snapshot only if the database still holds
// what the Snapshot shows: the issue live there at the same version, and the
// owner's account at the snapshot version that the Snapshot's Revision
// records, which triggers replace on every change to the account, its
// fields, its repositories and their names (schema step 10). Otherwise it
// stores nothing and returns [issuefields.ErrChanged], and the handler reads
// a Snapshot and decides again. The handler keeps the Snapshot of its last
// write of each issue and starts the next write from it, so a write after a
// write is one round trip, and a first write two.
//
// # Bounded waits
//
// Every operation is bounded by the [Timeout] option ([DefaultTimeout]): a
// wait for a connection, for a row lock, for a database that does not answer.
// Past it the operation fails with an error that wraps
// [issuefields.ErrUnavailable], which the handler answers with 503 and
// Retry-After. The pool of [Open] also gives the bound to the database as
// the connections' statement_timeout and lock_timeout. The handler's writers
// of one issue take turns before they call the Store, so an issue whose row
// is locked elsewhere holds one connection, not the pool; its writes answer
// 503 after the bound while every other request is served. [PoolSize]
// sets the pool's size ([DefaultMaxConns]); no operation holds more than one
// connection, so the pool cannot deadlock against itself.
//
// The Store is a [seed.Seeder] too: it has the seed methods of
// memstore.Store (AddOrganization, AddField, AddRepository, RenameRepository,
// TransferRepository, AddIssue, DeleteIssue, TransferIssue and SetValues),
// with the same rules and error messages, for the program that loads
// organizations, repositories and issues into the database. [Store.IsEmpty]
// tells a server that starts on a new database that it may load initial data,
// and [Store.LoadIfEmpty] checks and loads in one transaction, all or
// nothing: a load that fails, or a process killed while it loads, leaves the
// database empty.
//
// # Schema
//
// The tables live in the first schema of the connections' search_path, so a
// database can hold several stores, each in a schema of its own:
//
//	accounts          organizations and users; login as first spelt, a
//	                  lower-cased key for lookups, the last ID that a
//	                  field or an option of the organization got, and the
//	                  snapshot version of the account, its fields and
//	                  its repositories
//	fields            each organization's fields, with their position,
//	                  description, visibility and times, and the key of
//	                  the name, unique in the organization
//	field_options     each select field's options, with their position,
//	                  description and priority, and the key of the name,
//	                  unique in the field
//	repositories      ID, current owner and name, private
//	repository_names  every owner/name, current or former, that finds a
//	                  repository; a new repository takes a former name over
//	issues            one row per issue number used since the last
//	                  Store.Empty: state (live, deleted or transferred),
//	                  where a transferred issue went, version, and the
//	                  values
//	hooks             webhooks: the organization (login as first spelt and
//	                  lower-cased key) or the repository ID whose hook it is,
//	                  active, events, configuration and times
//	hook_deliveries   the newest deliveries of each hook, deleted with it:
//	                  outcome and timing, and the request and the response,
//	                  headers as JSON and bodies as bytea
//	write_budgets     the budgets of the shared secondary rate limit
//	                  ([WriteLimiter]): per principal that wrote lately, the
//	                  writes left of each limit, as of when, and when the
//	                  budget is full again and the row may go
//	resets            how many times [Store.Empty] or [Store.Reload] emptied the store
//
// Owners and names are matched by keys that the store lower-cases in Go, as
// memstore does, so matching does not depend on the database's collation.
// The keys of the names of fields and options are those by which the
// handler compares them (NFKC, case folded, without invisible characters),
// computed in Go with the handler's own function; [Store.ChangeFields]
// writes them, and the unique indexes on them refuse a name that another
// field of the organization, or option of the field, has. A name written
// before schema step 6 that an earlier one has keeps no key, and is served
// as it is.
//
// Issue rows are deleted only by [Store.Empty]: a deleted or transferred
// issue keeps its row, so no other issue of its repository takes its number
// before Empty, after which AddIssue may add the same numbers again.
// An issue's version is never one that an issue of its number had before,
// Empty or not (see below). A Snapshot of a transferred issue follows its
// chain of transfers with one recursive query. The only triggers are those on fields and field_options that give
// the organization's fields a new version.
//
// [Store.Hooks] returns the [webhook.Store] of the Store, a [Hooks], over the
// same database. A hook's scope is not a foreign key: it keeps hooks of any
// organization login or repository ID, and the routes check that the scope
// exists. Hook and delivery IDs come from the tables' identities, so no ID is
// given twice, even after a delete or [Store.Empty]. Creating a hook takes an
// advisory lock on its scope, so the limit of hooks per scope holds across
// servers; recording a delivery locks the hook's row and, in the same round
// trip, deletes the deliveries of the hook older than its newest
// [webhook.KeptDeliveries]. A header value that is not valid UTF-8 is
// kept as encoding/json encodes it, with U+FFFD for each bad byte; bodies
// are kept byte for byte.
//
// An issue's values are one JSON array in a json column, in the order they
// were written, and its version is a bigint that every write increments,
// handed out as its decimal string; a new issue takes its first version from
// the sequence issue_versions, which [Store.Empty] moves past every version
// that an issue had. The values are always read and written whole, so a
// write changes one column of one row, whose version the UPDATE checks under
// the row's lock. The column is json, not jsonb: jsonb refuses
// the NUL character, which a text value may hold, and rewrites numbers (-0
// becomes 0); json keeps the text that the store wrote, and an ad hoc query
// can cast it to jsonb.
//
// # Migrations
//
// [Migrate] applies the steps of the schema that the database lacks, each in a
// transaction that also records its version number in schema_migrations, and
// under an advisory lock on the schema: servers that start together apply
// each step once between them. It refuses a database whose schema is newer
// than the package.
//
// # Several servers
//
// Any number of servers may share one database. The UPDATE that stores a
// write checks the version under the row's lock, so of concurrent
// writers that read the same version exactly one succeeds, on one server or
// on several, and the others get ErrChanged and decide again; writes to
// different issues lock different rows and do not wait for each other.
// Versions come from the database, so every server hands out the same ETag
// for the same state of an issue.
//
// A Store is an [issuefields.FieldManager]. [Store.ChangeFields] is one
// transaction that locks the organization's row, reads its fields, gives each
// new field and option the next ID of the organization's counter (fields and
// options share it, and no ID is given twice), and stores the fields as the
// handler made them; so changes of one organization apply one at a time
// whichever server makes them, and every request after one, on any server,
// sees it. It leaves the issues alone: the values of a field or an option
// that a change removes stay in the database, and the handler, which shows
// and keeps only what the current fields define, no longer shows them.
//
// The seed methods take a lock that makes them apply one at a time; the
// handler's reads and writes do not wait for it, and a write waits only for a
// seed call that changes the same issue.
//
// The secondary rate limit is shared when the handler's
// Config.WriteLimiter is [Store.WriteLimiter]: one budget per principal for
// every server on the database, taken from it in small leases, so that a
// write rarely costs a round trip for it (see [WriteLimiter]). The handler's
// default, the in-process limiter, counts the writes of one server process,
// so a client that spreads its writes over n servers may make up to n times
// the configured number. Config.MaxInFlight always counts the requests of
// one server process.
//
// # Emptying
//
// [Store.Empty] empties every table but the schema's for every server on the
// database, so that a test suite can load the same data again (the example
// server's reset); [Store.Reload] empties and loads again in one
// transaction, so that no server sees a part of the data. They keep the
// counters that a server could take old data for new by: an ETag from before
// them never matches after them, and no server serves what it kept in memory
// from before them. [Store.Epoch] counts them; every write returns the count
// it was made under, and records it for the webhook.Notifier
// (webhook.MarkEpoch), so that a Notifier given the Store as
// webhook.Options.Epochs delivers nothing of the data before a reset through
// any server.
//
// # Failures
//
// An error that says the database cannot serve now (it cannot be reached,
// the connection broke, the server is starting or shutting down, too many
// connections, a pool's acquire or a query ran out of time) wraps
// [issuefields.ErrUnavailable], which the handler answers with 503 and
// Retry-After; any other error is a fault, answered with 500. The pool drops
// broken connections and opens new ones, so the server serves again once the
// database is back, without a restart.
//
// The Store uses the pool's default query mode, which prepares statements on
// each connection. Behind a connection pooler in transaction mode that does
// not track prepared statements, set the pool's
// ConnConfig.DefaultQueryExecMode to pgx.QueryExecModeExec.
package pgstore
