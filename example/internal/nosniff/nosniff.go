// Package nosniff gives the example server's answers that the API's handler
// does not write the X-Content-Type-Options header that GitHub sends on
// every answer, and that the handler sets on its own.
package nosniff

import "net/http"

// value is the header's value, shared by every answer: Header.Add copies a
// slice without spare capacity rather than write into it.
var value = []string{"nosniff"}

// Handler returns h with X-Content-Type-Options: nosniff on every answer,
// so that a browser never reads a body as another type than it says.
func Handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["X-Content-Type-Options"] = value
		h.ServeHTTP(w, r)
	})
}
