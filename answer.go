package issuefields

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Every answer other than a success is decided here: code that refuses a
// request returns an error, and statusTable turns it into the status, the
// message and the headers that the client gets.

// Conditions the handler decides itself. Code returns one of them, wrapped or
// inside a *requestError, and statusTable decides the answer; no other code
// chooses a status.
var (
	errUnsupportedVersion  = errors.New("unsupported API version")
	errConflictingVersions = errors.New("API version headers with different values")
	errMethodNotAllowed    = errors.New("method not allowed")
	errBadRequest          = errors.New("bad request")
	errBodyTooLarge        = errors.New("request body too large")
	errBodyUnreadable      = errors.New("request body unreadable")
	errBodyNotJSON         = errors.New("request body is not JSON")
	errBodyNotObject       = errors.New("request body is not a JSON object")
	errDuplicateKey        = errors.New("request body repeats a key")
	errValidationFailed    = errors.New("validation failed")
	errSecondaryRateLimit  = errors.New("secondary rate limit exceeded")
	errPreconditionFailed  = errors.New("If-Match does not match")
	errOverloaded          = errors.New("too many requests in flight")
	errMoved               = errors.New("moved")
)

// serviceUnavailable is the "code" member of every 503 answer.
const serviceUnavailable = "service_unavailable"

// statusTable decides the answer to every error: the first row whose err the
// error is (errors.Is), and whose route matches, gives the status, the
// message and the code. An error that matches no row is a 500 whose cause is
// logged. A *requestError's own message replaces the row's.
var statusTable = []struct {
	err error
	// writesOnly restricts the row to add, set and delete; the row after
	// it answers the same condition for a list and for an unmatched path.
	writesOnly bool
	status     int
	message    string
	code       string
}{
	{err: ErrBadCredentials, status: http.StatusUnauthorized, message: "Bad credentials"},
	{err: errRequiresAuthentication, status: http.StatusUnauthorized, message: "Requires authentication"},
	{err: errTokenKindNotAccepted, status: http.StatusForbidden, message: "This endpoint accepts only app user access tokens, app installation access tokens and fine-grained personal access tokens."},
	{err: errNotAccessible, status: http.StatusForbidden, message: "Resource not accessible"},
	{err: errNoPushAccess, status: http.StatusForbidden, message: "Must have push access to this repository"},
	{err: ErrNotFound, status: http.StatusNotFound, message: "Not Found"},
	// Only a list tells that an issue was deleted.
	{err: ErrIssueDeleted, writesOnly: true, status: http.StatusNotFound, message: "Not Found"},
	{err: ErrIssueDeleted, status: http.StatusGone, message: "This issue was deleted"},
	// A write is redirected with 307, so that clients repeat the method
	// and the body.
	{err: errMoved, writesOnly: true, status: http.StatusTemporaryRedirect, message: "Temporary Redirect"},
	{err: errMoved, status: http.StatusMovedPermanently, message: "Moved Permanently"},
	{err: errUnsupportedVersion, status: http.StatusBadRequest, message: "The API version is not supported"},
	{err: errConflictingVersions, status: http.StatusBadRequest, message: "The API version header was sent more than once with different values."},
	{err: errMethodNotAllowed, status: http.StatusMethodNotAllowed, message: "Method Not Allowed"},
	{err: errBadRequest, status: http.StatusBadRequest, message: "Bad Request"},
	{err: errBodyTooLarge, status: http.StatusRequestEntityTooLarge, message: "The request body is too large."},
	{err: errBodyUnreadable, status: http.StatusBadRequest, message: "Problems reading the request body"},
	{err: errBodyNotJSON, status: http.StatusBadRequest, message: "Problems parsing JSON"},
	{err: errBodyNotObject, status: http.StatusBadRequest, message: "Body should be a JSON object"},
	{err: errDuplicateKey, status: http.StatusBadRequest, message: "A key appears more than once in one object of the body."},
	{err: errValidationFailed, status: http.StatusUnprocessableEntity, message: "Validation Failed"},
	{err: errSecondaryRateLimit, status: http.StatusUnprocessableEntity, message: "You have exceeded a secondary rate limit for writes."},
	{err: errPreconditionFailed, status: http.StatusPreconditionFailed, message: "Precondition Failed: the issue's field values changed since the ETag in If-Match was issued. Read them again and retry."},
	{err: errOverloaded, status: http.StatusServiceUnavailable, code: serviceUnavailable, message: "The server is handling too many requests at once. Please retry later."},
	{err: ErrUnavailable, status: http.StatusServiceUnavailable, code: serviceUnavailable, message: "The service is temporarily unavailable. Please retry later."},
}

// requestError is a condition of statusTable with what its answer says about
// this request in particular.
type requestError struct {
	// condition is the sentinel that selects the row of statusTable.
	condition error
	// message replaces the row's message when it is not empty.
	message string
	// errors lists the invalid parts of a request body, each an object
	// (GitHub's validation-error) or, for the field management routes, a
	// string (validation-error-simple).
	errors []any
	// retryAfter is the Retry-After header in seconds.
	retryAfter string
	// location is the Location of a redirect, repeated in the body's url.
	location string
}

func (e *requestError) Error() string {
	if e.message != "" {
		return e.condition.Error() + ": " + e.message
	}
	return e.condition.Error()
}

func (e *requestError) Unwrap() error { return e.condition }

// unsupportedVersion is the 400 of a request for an API version the handler
// does not serve; header is the name of the version header.
func unsupportedVersion(header, version string) error {
	return &requestError{condition: errUnsupportedVersion,
		message: fmt.Sprintf("%s %q is not supported. Supported versions are %s (the default) and %s.",
			header, version, APIVersion, legacyAPIVersion)}
}

// methodNotAllowed is the 405 of a path that accepts only the methods allow
// lists.
func methodNotAllowed(allow string) error {
	return &requestError{condition: errMethodNotAllowed, message: "Method Not Allowed. This path accepts " + allow + "."}
}

// bodyTooLarge is the 413 of a request body larger than limit bytes.
func bodyTooLarge(limit int64) error {
	return &requestError{condition: errBodyTooLarge, message: fmt.Sprintf("The request body is larger than %d bytes.", limit)}
}

// duplicateKey is the 400 of a body in which key appears twice in one
// object.
func duplicateKey(key string) error {
	return &requestError{condition: errDuplicateKey,
		message: fmt.Sprintf("The key %q appears more than once in one object of the body; send each key once.", key)}
}

// validationFailed is the 422 that lists the invalid parts of a body: each a
// *fieldError, or a string.
func validationFailed(errs ...any) error {
	return &requestError{condition: errValidationFailed, errors: errs}
}

// secondaryRateLimited is the 422 of a write over the secondary rate limit,
// which may be retried after wait.
func secondaryRateLimited(wait time.Duration) error {
	seconds := retryAfterSeconds(wait)
	return &requestError{condition: errSecondaryRateLimit, retryAfter: seconds,
		message: "You have exceeded a secondary rate limit for writes. Please wait " + seconds + " seconds before you try again."}
}

// conflictingVersions is the 400 of a request whose version header, name,
// came more than once with different values: which one the client meant
// cannot be told, so neither is served.
func conflictingVersions(name string, values []string) error {
	return &requestError{condition: errConflictingVersions,
		message: fmt.Sprintf("%s was sent %d times with different values (%s); send it once.", name, len(values), strings.Join(quoteAll(values), ", "))}
}

// quoteAll returns each of values quoted as Go would.
func quoteAll(values []string) []string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = strconv.Quote(v)
	}
	return quoted
}

// notAccessibleBy is the 403 for a token whose permissions do not cover the
// operation, worded by the token's kind.
func notAccessibleBy(kind TokenKind) error {
	return &requestError{condition: errNotAccessible, message: "Resource not accessible by " + kind.actor()}
}

// lacksPermission is the 403 for a token that sees an organization but lacks
// needed, the permission or scope that the operation needs.
func lacksPermission(kind TokenKind, needed string) error {
	return &requestError{condition: errNotAccessible, message: "Resource not accessible by " + kind.actor() + ": it needs " + needed + "."}
}

// movedTo is the redirect of a moved repository or a transferred issue to
// location, an absolute URL.
func movedTo(location string) error {
	return &requestError{condition: errMoved, location: location}
}

// errorAnswer is what the client gets for an error.
type errorAnswer struct {
	status                         int
	message, code, retryAfter, url string
	errors                         []any
	// cause is the error itself, logged for a status of 500 and over and
	// never shown.
	cause error
}

// answerTo decides the answer to err on rt, the route the request matched or
// nil, from statusTable.
func answerTo(err error, rt *route) errorAnswer {
	a := errorAnswer{status: http.StatusInternalServerError,
		message: "Internal server error. The failure was logged with this request's id.", cause: err}
	for _, row := range statusTable {
		if errors.Is(err, row.err) && (!row.writesOnly || rt != nil && rt.op.writes()) {
			a.status, a.message, a.code = row.status, row.message, row.code
			break
		}
	}
	var re *requestError
	if errors.As(err, &re) {
		if re.message != "" {
			a.message = re.message
		}
		a.errors, a.retryAfter, a.url = re.errors, re.retryAfter, re.location
	}
	if a.retryAfter == "" && a.status == http.StatusServiceUnavailable {
		a.retryAfter = "1"
	}
	return a
}

// fieldError describes one invalid part of a request body to the values
// routes, as an item of the "errors" member of a 422 answer.
type fieldError struct {
	// Resource is "IssueFieldValue".
	Resource string `json:"resource"`
	// Field is the request member at fault: "field_id", "value", or
	// "issue_field_values" for the array itself.
	Field string `json:"field"`
	// Code is "missing_field", "invalid" or "already_exists".
	Code string `json:"code"`
	// Message says what is wrong and what is accepted.
	Message string `json:"message"`
	// Index is the position of the item in issue_field_values; nil for an
	// error about the array itself.
	Index *int `json:"index,omitempty"`
}

// errorBody is the JSON body of every answer other than 200 and 204.
type errorBody struct {
	Message          string `json:"message"`
	DocumentationURL string `json:"documentation_url"`
	Status           string `json:"status"`
	Code             string `json:"code,omitempty"`
	URL              string `json:"url,omitempty"`
	Errors           []any  `json:"errors,omitempty"`
}

// body returns the JSON body of a.
func (a *errorAnswer) body(documentationURL string) errorBody {
	return errorBody{
		Message:          a.message,
		DocumentationURL: documentationURL,
		Status:           strconv.Itoa(a.status),
		Code:             a.code,
		URL:              a.url,
		Errors:           a.errors,
	}
}

// writeJSON answers with status and v as JSON, followed by a newline as
// every JSON body the handler writes, so that a body printed by curl ends its
// line. v is encoded before anything is sent, so a failure to encode is a
// clean 500, never half an answer. Text is written as it is, without
// escaping <, > and &.
func (h *Handler) writeJSON(w http.ResponseWriter, status int, v any) error {
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	writeBody(w, status, body.Bytes())
	return nil
}

// autoContentLengthBytes is the size up to which net/http's server adds the
// Content-Length of a response written in one go itself, from its buffer; it
// would send a larger one in chunks, so writeBody says its length up front.
const autoContentLengthBytes = 2048

// writeBody answers with status and a JSON body. It says the body's length
// when net/http would not: for a large body, and for an answer given before
// the request's body was read to its end, which ServeHTTP sends while the
// handler is still at work (it reads the rest of the request's body).
func writeBody(w http.ResponseWriter, status int, body []byte) {
	setHeader(w, "Content-Type", "application/json; charset=utf-8")
	if rec, ok := w.(*recorder); len(body) > autoContentLengthBytes || ok && rec.bodyPending {
		setHeader(w, "Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// statusClientClosedRequest is the status that the log gives a request whose
// client went away before it was answered, as nginx logs it.
const statusClientClosedRequest = 499

// writeError answers with the error body for err. rt is the route the request
// matched, or nil. Causes of server-side failures are logged with the request
// id; clients see only the message.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, rt *route, err error) {
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		// The client went away and cut the work short: nobody reads an
		// answer, and the failure is not the server's.
		if rec, ok := w.(*recorder); ok {
			rec.status = statusClientClosedRequest
		}
		return
	}
	e := answerTo(err, rt)
	h.logFailure(r, w, &e)
	if e.retryAfter != "" {
		setHeader(w, "Retry-After", e.retryAfter)
	}
	if e.url != "" {
		setHeader(w, "Location", e.url)
	}
	if err := h.writeJSON(w, e.status, e.body(h.documentationURL(rt))); err != nil {
		http.Error(w, "Internal server error", http.StatusInternalServerError)
	}
}

// logFailure logs the cause of a, the answer to r through w, when its status
// is 500 or over, with the request id.
func (h *Handler) logFailure(r *http.Request, w http.ResponseWriter, a *errorAnswer) {
	if a.status >= 500 {
		h.log.LogAttrs(r.Context(), slog.LevelError, "request failed",
			slog.String("request_id", w.Header().Get(h.header.requestID)),
			slog.Int("status", a.status),
			slog.Any("error", a.cause))
	}
}
