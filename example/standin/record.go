package standin

import (
	"bytes"
	"io"
	"net/http"
	"time"

	"github.com/issuefields/issuefields/example/internal/bearer"
	"github.com/issuefields/issuefields/example/internal/statuswriter"
)

// Record returns h with each request recorded in j once h has answered it:
// the caller by the login that login returns for the request's token ("" for
// none), and a write's body as h read it. login is called only for a
// request with a token.
func (j *Journal) Record(h http.Handler, login func(token string) string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		body := captureBody(r)
		sw := statuswriter.New(w)
		h.ServeHTTP(sw, r)
		j.record(r, start, sw.Status(), body, login)
	})
}

// captureBody gives r, a write with a body, a body that keeps what is read
// from it, and returns that body; it returns nil for another request.
func captureBody(r *http.Request) *capture {
	if !isWrite(r.Method) || r.Body == nil {
		return nil
	}
	body := &capture{ReadCloser: r.Body}
	if r.ContentLength > 0 {
		// One allocation for the whole body, not one per doubling.
		body.kept.Grow(int(min(r.ContentLength, maxBody)))
	}
	r.Body = body
	return body
}

// record adds r, which began at start and was answered with status, to j,
// with what was read of its body (nil for a request that captureBody gave
// none).
func (j *Journal) record(r *http.Request, start time.Time, status int, body *capture, login func(token string) string) {
	var kept []byte
	var size int64
	if body != nil {
		kept, size = body.kept.Bytes(), body.size
	}
	req := newRequest(r.Method, r.URL.Path, r.URL.RawQuery, maskQuery, kept, size)
	if req.read == nil && len(kept) > 0 && isGraphQL(req.Path) {
		req.graphql = bytes.Clone(kept)
	}
	req.Time, req.Status = start.UTC(), status
	req.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	if token, ok := bearer.Token(r); ok && token != "" {
		req.Login = login(token)
	}
	j.add(req)
}

// isWrite reports whether a request of method may change something.
func isWrite(method string) bool {
	return method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions
}

// capture is a request body that keeps the first maxBody bytes read from it,
// and counts them all.
type capture struct {
	io.ReadCloser
	kept bytes.Buffer
	size int64
}

// Read reads from the body, keeping what it read.
func (c *capture) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.size += int64(n)
	if room := maxBody - c.kept.Len(); room > 0 {
		c.kept.Write(p[:min(n, room)])
	}
	return n, err
}
