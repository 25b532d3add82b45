package server

import (
	"net/http"
	"strings"
)

// corsMaxAge is how long, in seconds, a browser may keep a preflight's
// answer: a day, as GitHub answers.
const corsMaxAge = "86400"

// withCORS returns api with the CORS headers that GitHub's REST API sends,
// so that a page on any origin can call it with a token: every answer
// allows every origin and exposes the headers a client reads, and an OPTIONS
// request, a browser's preflight, is answered 204 without a token, with the
// methods and request headers the API takes. vendor is the word of the
// API's header names.
//
// The API's answers carry no cookie and the API reads none, so allowing
// every origin gives a page no more than it could get with the token it
// holds.
func withCORS(api http.Handler, vendor string) http.Handler {
	expose := strings.Join([]string{
		"ETag", "Link", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-used",
		"x-ratelimit-reset", "x-ratelimit-resource",
		"X-OAuth-Scopes", "X-Accepted-OAuth-Scopes", "X-Poll-Interval",
		"Location", "Retry-After", "X-" + vendor + "-Request-Id", "X-Accepted-" + vendor + "-Permissions",
	}, ", ")
	allowHeaders := strings.Join([]string{
		"Authorization", "Content-Type", "If-Match", "If-Modified-Since", "If-None-Match",
		"If-Unmodified-Since", "X-Requested-With", "X-" + vendor + "-Api-Version",
	}, ", ")
	// Every answer shares these two values, set under their canonical names:
	// a slice without spare capacity is copied, not written into, by
	// Header.Add, and net/http copies the header when the answer begins.
	allowOrigin, exposeHeaders := []string{"*"}, []string{expose}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["Access-Control-Allow-Origin"] = allowOrigin
		h["Access-Control-Expose-Headers"] = exposeHeaders
		if r.Method != http.MethodOptions {
			api.ServeHTTP(w, r)
			return
		}
		h.Set("Access-Control-Allow-Methods", "GET, POST, PATCH, PUT, DELETE")
		h.Set("Access-Control-Allow-Headers", allowHeaders)
		h.Set("Access-Control-Max-Age", corsMaxAge)
		w.WriteHeader(http.StatusNoContent)
	})
}
