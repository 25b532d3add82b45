// Package issuefields serves the Issue Field Values REST API: list, add,
// replace and delete the values of organization-level custom fields (text,
// single_select, number, date, multi_select) on the issues of a repository,
// under a token permission model.
//
// # Mounting
//
// New returns one http.Handler for the four operations:
//
//	GET    /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values
//	POST   /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values
//	PUT    /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values
//	DELETE /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values/{issue_field_id}
//
// When the Store is also a FieldManager, the same handler serves the
// organization's field management routes:
//
//	GET    /orgs/{org}/issue-fields
//	POST   /orgs/{org}/issue-fields
//	PATCH  /orgs/{org}/issue-fields/{issue_field_id}
//	DELETE /orgs/{org}/issue-fields/{issue_field_id}
//
// It takes a Store, which keeps the data, a TokenVerifier, which turns bearer
// tokens into principals, and optionally a Notifier, which hears of every
// write. A host application mounts it under any path:
//
//	mux.Handle("/api/", http.StripPrefix("/api", h))
//
// Every URL the handler writes (Link, Location, the url of a redirect's body)
// keeps the prefix the host stripped, and is absolute, built from the
// request's Host and whether it came over TLS.
//
// A host serves routes of its own beside the API's through Config.Routes,
// such as the webhook package's: each Route goes through the same pipeline
// (the version header, authentication, the error answers, panic recovery,
// MaxInFlight, the log), and its Serve answers through a Call, which reads
// the body, writes JSON and gives the refusals of the API's error table.
//
// # Errors and their statuses
//
// A Store, a TokenVerifier or a Principal's permission functions report what
// happened with sentinel errors, wrapped or not, that the handler turns into
// statuses:
//
//	ErrBadCredentials   401 Bad credentials
//	ErrNotFound         404 Not Found
//	ErrIssueDeleted     410 Gone for a list, 404 for a write
//	ErrUnavailable      503 with Retry-After
//	ErrChanged          never shown: the write is decided again on a new Snapshot
//	                    (at most 4 of them, then 503)
//	any other error     500, with the cause logged and never shown
//
// Every error body is JSON: {"message", "documentation_url", "status"}, with
// "errors" for 422 and "code" for 503.
//
// # Writing a store
//
// A Store has two methods. Snapshot reads, in one step, everything a request
// for one issue needs. UpdateIssue is a compare-and-set: it stores the issue
// that the handler decided on a Snapshot only if the store still holds what
// that Snapshot showed, and otherwise returns ErrChanged, after which the
// handler reads a new Snapshot and decides again. The handler decides
// everything else (what add, set and delete mean, validation, who may), so a
// store only stores; the storetest package checks a Store against the
// contract written beside the interface. The memstore package is the
// in-memory Store. A FieldManager's ChangeFields takes the handler's change
// as a function instead, because the new IDs are given inside the store's
// atomic step and that change reads no request body.
//
// # Security
//
// There is no anonymous write: a Handler cannot be built without a
// TokenVerifier, and every write needs a principal with write permission and
// push access. Access is decided by one function for the values routes and one
// for the field management routes, before the request body is read and
// before anything about an issue or a field is told, so a caller without
// access learns nothing about them; a private repository the caller may not
// see is answered exactly as one that does not exist. Tokens are never
// logged.
package issuefields
