// Package graphql serves the part of GitHub's GraphQL API that issue fields
// need (CONTRACT §17): POST /graphql under the API's prefix, through the
// issuefields handler's pipeline as a Route, so that it gets the request id,
// authentication, the journal and everything else every API route gets.
//
// It is schema-first: schema.graphql is the schema, in GitHub's names, and
// github.com/vektah/gqlparser parses it and every document and validates
// each document against it, so the rules of the GraphQL specification are
// the library's, not ours. Execution is this package's own small executor
// over the library's AST: it appends the answer's JSON straight into one
// buffer, field by field, with the resolvers written out by type (no result
// tree of maps, no reflection), and parsed and validated documents are kept
// by their text, so that a client that sends the same query again (as every
// client does) pays for neither. That keeps a GraphQL read or write within
// reach of its REST twin (bench/graphql.sh measures it).
//
// Everything a resolver reads or writes goes through the issuefields.Call of
// the request: ReadIssue reads an issue or a repository with the values
// list's access rules, OrganizationFields the organization's fields with
// those of GET /orgs/{org}/issue-fields, and UpdateIssue makes the
// mutations' writes with the values routes' write sequence, refusals,
// webhooks and versions.
package graphql
