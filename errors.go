package issuefields

import (
	"errors"
	"net/http"
	"strconv"
	"time"
)

// httpError is an answer other than success: the status, the message the
// client sees, and the cause that is logged but never shown.
type httpError struct {
	status  int
	message string
	// code is the body's "code" member, used by 503 answers.
	code string
	// errors lists the invalid parts of a request for 422 answers.
	errors []FieldError
	// retryAfter is the Retry-After header in seconds; 503 answers without
	// one say "1".
	retryAfter string
	// location is the Location of a redirect, repeated in the body's url.
	location string
	// cause is logged with the request id; it never reaches the client.
	cause error
}

func (e *httpError) Error() string {
	if e.cause != nil {
		return e.message + ": " + e.cause.Error()
	}
	return e.message
}

func (e *httpError) Unwrap() error { return e.cause }

// Errors the handler decides itself, each with its status and message.
var (
	errRequiresAuthentication = &httpError{status: http.StatusUnauthorized, message: "Requires authentication"}
	errTokenKindNotAccepted   = &httpError{status: http.StatusForbidden, message: "This endpoint accepts only app user access tokens, app installation access tokens and fine-grained personal access tokens."}
	errNoPushAccess           = &httpError{status: http.StatusForbidden, message: "Must have push access to this repository"}
	errNotFound               = &httpError{status: http.StatusNotFound, message: "Not Found"}
)

// secondaryRateLimited is the 422 of a write over the secondary rate limit,
// which may be retried after wait.
func secondaryRateLimited(wait time.Duration) error {
	seconds := retryAfterSeconds(wait)
	return &httpError{status: http.StatusUnprocessableEntity, retryAfter: seconds,
		message: "You have exceeded a secondary rate limit for writes. Please wait " + seconds + " seconds before you try again."}
}

// notAccessibleBy is the 403 for a token whose permissions do not cover the
// operation, worded by the token's kind.
func notAccessibleBy(kind TokenKind) error {
	return &httpError{status: http.StatusForbidden, message: "Resource not accessible by " + kind.actor()}
}

// statusTable maps the sentinel errors of stores and verifiers to the answer
// the client gets. It is walked in order with errors.Is; an error that matches
// no row is a 500 whose cause is logged.
var statusTable = []struct {
	err     error
	status  int
	message string
	code    string
}{
	{ErrBadCredentials, http.StatusUnauthorized, "Bad credentials", ""},
	{ErrNotFound, http.StatusNotFound, "Not Found", ""},
	{ErrIssueDeleted, http.StatusGone, "This issue was deleted", ""},
	{ErrUnavailable, http.StatusServiceUnavailable, "The service is temporarily unavailable. Please retry later.", "service_unavailable"},
	{ErrVersionConflict, http.StatusServiceUnavailable, "The issue is being changed by other requests too often to apply this one. Please retry later.", "service_unavailable"},
}

// asHTTPError turns any error into the answer the client gets.
func asHTTPError(err error) *httpError {
	var he *httpError
	if errors.As(err, &he) {
		return he
	}
	for _, row := range statusTable {
		if errors.Is(err, row.err) {
			return &httpError{status: row.status, message: row.message, code: row.code, cause: err}
		}
	}
	return &httpError{status: http.StatusInternalServerError, message: "Internal server error. The failure was logged with this request's id.", cause: err}
}

// FieldError describes one invalid part of a request body, as an item of the
// "errors" member of a 422 answer.
type FieldError struct {
	// Resource is always "IssueFieldValue".
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
	Message          string       `json:"message"`
	DocumentationURL string       `json:"documentation_url"`
	Status           string       `json:"status"`
	Code             string       `json:"code,omitempty"`
	URL              string       `json:"url,omitempty"`
	Errors           []FieldError `json:"errors,omitempty"`
}

// body returns the JSON body of e.
func (e *httpError) body(documentationURL string) errorBody {
	return errorBody{
		Message:          e.message,
		DocumentationURL: documentationURL,
		Status:           strconv.Itoa(e.status),
		Code:             e.code,
		URL:              e.location,
		Errors:           e.errors,
	}
}
