// Package inprocess makes requests to the API's handler within the process,
// as the example's data file does to check its values and the start-up
// message does to tell what each token may do.
package inprocess

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/issuefields/issuefields"
)

// Handler returns a handler over store and verifier for requests made in the
// process: with no write limit, log or notifier.
func Handler(store issuefields.Store, verifier issuefields.TokenVerifier) (*issuefields.Handler, error) {
	return issuefields.New(issuefields.Config{
		Store:       store,
		Verifier:    verifier,
		WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: -1},
		Logger:      slog.New(slog.DiscardHandler),
	})
}

// ValuesPath returns the path of the values of issue number of owner/name.
func ValuesPath(owner, name string, number int64) string {
	return fmt.Sprintf("/repos/%s/%s/issues/%d/issue-field-values", owner, name, number)
}

// Reply is a handler's answer to a request made in the process: the status
// and, for an error, the message and the items of a 422's errors member.
type Reply struct {
	Status  int    `json:"-"`
	Message string `json:"message"`
	Errors  []struct {
		Field   string `json:"field"`
		Message string `json:"message"`
		Index   *int   `json:"index"`
	} `json:"errors"`
}

// Ask serves a request to h in the process, with token as a bearer token and
// body as its JSON body, and returns the answer.
func Ask(ctx context.Context, h http.Handler, method, path, token, body string) Reply {
	r, err := http.NewRequestWithContext(ctx, method, path, strings.NewReader(body))
	if err != nil {
		return Reply{Status: http.StatusBadRequest, Message: err.Error()}
	}
	r.Header.Set("Authorization", "Bearer "+token)
	r.Header.Set("Content-Type", "application/json")
	w := &recorder{header: http.Header{}}
	h.ServeHTTP(w, r)
	var rep Reply
	// A list's array, or the field management routes' errors (strings),
	// leave the members as they are.
	_ = json.Unmarshal(w.body.Bytes(), &rep)
	rep.Status = cmp.Or(w.status, http.StatusOK)
	return rep
}

// recorder is the http.ResponseWriter of a request made in the process: it
// keeps the status and the body.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

// Header returns the answer's header.
func (w *recorder) Header() http.Header { return w.header }

// WriteHeader notes the first status written.
func (w *recorder) WriteHeader(status int) { w.status = cmp.Or(w.status, status) }

// Write keeps b, after a status of 200 if none was written.
func (w *recorder) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}
