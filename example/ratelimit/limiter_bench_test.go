package ratelimit_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/issuefields/issuefields/example/ratelimit"
)

// BenchmarkHandler measures what the limit adds to a request: resolving
// the caller, counting it and setting the five headers, against an API that
// writes nothing.
func BenchmarkHandler(b *testing.B) {
	h := ratelimit.New(ratelimit.Config{Limits: ratelimit.Limits{PerHour: 1 << 30, Anonymous: 1}, Verifier: verifier}).
		Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	r := httptest.NewRequest(http.MethodGet, "/repos/o/r/issues/1/issue-field-values", nil)
	r.Header.Set("Authorization", "Bearer user-token")
	w := httptest.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		clear(w.Header())
		h.ServeHTTP(w, r)
	}
}
