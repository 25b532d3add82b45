// Package server is the example server: it serves the Issue Field Values API
// on a local address, as a stand-in for the real API that real clients can
// talk to. The command go run ./example runs it with the data in memory, as
// does issuefields, the same command installed with go install
// ./cmd/issuefields; another program can run it over a store of its own, with
// flags of its own, through [Command].
//
// It answers browsers on other origins as GitHub's REST API does (CORS), and
// serves HTTPS and HTTP/2 with -tls-cert and -tls-key.
//
// It serves the organizations, fields, repositories, issues, values and
// tokens of a data file (docs/data-file.md describes the format, and the
// package datafile reads it), or built-in demo data. A data file that breaks
// a rule stops it at start-up with the file's name, the place in the file
// and the rule. Once it listens it prints the address, the data, the tokens
// and what each may do, and curl commands to try (the package banner writes
// them). It logs one line per request, as text or JSON (-log-format), and
// stops gracefully when its context is done: on SIGINT or SIGTERM under
// [Command.Main].
//
// A store that keeps its data between starts, such as pgstore.Store, gets the
// data file only while it is empty: from then on the server serves what the
// store holds. The tokens are not kept in a store: they come from the data
// file (or the demo data) at every start.
package server
