package graphql

import (
	"net/http"

	"github.com/vektah/gqlparser/v2/ast"
)

// refuse records err, a refusal of the issuefields handler (ReadIssue's,
// UpdateIssue's, OrganizationFields'), at the field f as an execution error
// of GitHub's type for its status: what the caller may not see or that
// does not exist (a 404, a deleted issue, one that moved) is NOT_FOUND with
// notFound as its message, so that it tells nothing more; 401 and 403 are
// FORBIDDEN, 422 UNPROCESSABLE with the refusal's message, which names the
// field, and the secondary rate limit RATE_LIMITED. Anything else (the
// store is down, say) fails the whole request, answered as REST answers
// it.
func (e *exec) refuse(f *ast.Field, err error, notFound string) bool {
	status, message := e.call.Explain(err)
	switch {
	case status == http.StatusNotFound || status == http.StatusGone || status >= 300 && status < 400:
		return e.fail(f, typeNotFound, notFound)
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return e.fail(f, typeForbidden, message)
	case status == http.StatusTooManyRequests || status == http.StatusUnprocessableEntity && e.call.Header().Get("Retry-After") != "":
		return e.fail(f, typeRateLimited, message)
	case status == http.StatusUnprocessableEntity || status == http.StatusPreconditionFailed || status == http.StatusBadRequest:
		return e.fail(f, typeUnprocessable, message)
	}
	e.fatal = err
	return false
}
