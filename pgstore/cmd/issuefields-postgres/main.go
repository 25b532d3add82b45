// Command issuefields-postgres is the example server with its data in
// PostgreSQL. From the pgstore directory of the repository:
//
//	go install ./cmd/issuefields-postgres
//	issuefields-postgres -postgres postgres://user:password@localhost:5432/issuefields
//	DATABASE_URL=postgres://user:password@localhost:5432/issuefields issuefields-postgres -data data.json
//
// It takes every flag of go run ./example (the same server, from the package
// github.com/issuefields/issuefields/example/server) and -postgres, the
// database's connection string, which defaults to $DATABASE_URL. Without
// either it stops with a message that says how to give one; go run ./example,
// at the root of the repository, serves from memory without a database.
//
// At start-up it brings the database's schema up to date with
// pgstore.Migrate, and logs each field or option that breaks the rules of
// field definitions (a name that another one has, or that the rules refuse),
// which a database may hold from before the rules and which it keeps
// serving. If the database holds no data yet (pgstore.Store.IsEmpty), it
// loads the data file, or the built-in demo data, into it; otherwise it
// serves what the database holds and logs that it did not load the file, so
// the changes that clients make outlive the server. Servers that start on a
// new database together load it once between them: one loads, under an
// advisory lock, and the others wait for it, for up to twelve times
// -store-timeout; past that a server stops, saying so.
//
// POST /_issuefields/reset, which restores the state that the server
// started with, empties the database's tables and loads the data file into
// them again (pgstore.Store.Empty), for every server that shares the
// database; so it answers 501 unless the server was started with
// -allow-reset. Resets through several servers at once, and servers that
// start meanwhile, take turns under the advisory lock of the first load. A
// reset, the wait for the lock included, ends within twelve times
// -store-timeout: past that, or on a database that is down, it answers 503
// with Retry-After, and a reset that was still waiting for the lock has
// changed nothing.
//
// The tokens are not kept in the database: every start takes them from the
// data file, and a token's permissions apply to the repositories of the
// database that the file's owner/name pairs find.
//
// The secondary rate limit (-write-limit, -write-limit-hourly) is one budget
// per token for every server that shares the database, kept in it by
// pgstore.Store.WriteLimiter, so that a token's writes spread over several
// servers, or across a restart, are limited as one server would limit them.
// So are the budgets of the primary rate limit (-rate-limit,
// -rate-limit-anonymous), kept by pgstore.Store.RequestCounter, within the
// slack that it states.
//
// issuefields-postgres -h lists its flags, and issuefields-postgres -version
// says which module, version and revision it was built from. It is a module
// of its own, not a command of the pgstore module, so that neither the core
// module nor pgstore depends on the example server and what it imports.
package main

func main() {
	command().Main()
}
