// Package bearer reads the token of a request's Authorization header, for
// the parts of the example server that tell callers apart before the API's
// handler authenticates them.
package bearer

import (
	"net/http"
	"strings"
)

// Token returns the token of r's Authorization header when its scheme is
// Bearer or token (case-insensitive), as the API takes them; ok is false
// for a request without such a header.
func Token(r *http.Request) (token string, ok bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") && !strings.EqualFold(scheme, "token") {
		return "", false
	}
	return strings.TrimSpace(token), true
}
