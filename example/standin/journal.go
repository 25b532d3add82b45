package standin

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/issuefields/issuefields/example/internal/statuswriter"
)

// journalSize is how many requests a Journal keeps: the newest ones.
const journalSize = 1000

// maxBody is how much of a write's body a Journal keeps; a longer body is
// left out, and only its size recorded.
const maxBody = 64 << 10

// A Request is what a Journal recorded of one request to the API. It holds
// no token: the caller is named by login.
type Request struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// Query is the request's query string, without its "?", with the
	// values of the parameters that can carry a token or a secret masked.
	Query  string `json:"query"`
	Status int    `json:"status"`
	// Login is the login of the token's user or app, or "" for a request
	// without a token the server knows.
	Login      string    `json:"login"`
	Time       time.Time `json:"time"`
	DurationMS float64   `json:"duration_ms"`
	// Body is a write's JSON body, with every "secret" member's value
	// masked and every "url" member shown as the page shows a hook's URL;
	// nil for a read, and for a body that is not JSON or is longer than 64
	// KiB, whose size BodySize still gives.
	Body     json.RawMessage `json:"body,omitempty"`
	BodySize int64           `json:"body_size,omitempty"`

	// read is the body as the handler read it, which Requests masks into
	// Body: masking when the journal is read keeps the work off the
	// request's path.
	read []byte
}

// A Journal keeps the newest 1,000 requests to the API in memory, for tests
// to read back: Record adds them. It also tells the page's open event streams
// of each change: each request it records, each Clear, and each call of
// Changed. It is safe for concurrent use. The zero value is an empty Journal.
type Journal struct {
	mu      sync.Mutex
	ring    [journalSize]Request
	next    int // the index that the next request takes
	n       int // how many the ring holds
	changes changes
}

// Changed tells the open pages that the server's state changed in a way
// that the journal does not record, such as a webhook delivery, so that they
// show it. It costs one atomic load while no page is open.
func (j *Journal) Changed() { j.changes.changed() }

// Requests returns the recorded requests, newest first, each write's body
// with its secrets masked.
func (j *Journal) Requests() []Request {
	j.mu.Lock()
	out := make([]Request, j.n)
	for i := range out {
		out[i] = j.ring[(j.next-1-i+journalSize)%journalSize]
	}
	j.mu.Unlock()
	for i := range out {
		if out[i].read != nil {
			out[i].Body, out[i].read = maskSecrets(out[i].read), nil
		}
	}
	return out
}

// Clear forgets the recorded requests.
func (j *Journal) Clear() {
	j.mu.Lock()
	j.ring, j.next, j.n = [journalSize]Request{}, 0, 0
	j.mu.Unlock()
	j.Changed()
}

// add records req, in place of the oldest request when the ring is full.
func (j *Journal) add(req Request) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.ring[j.next] = req
	j.next = (j.next + 1) % journalSize
	j.n = min(j.n+1, journalSize)
}

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
// none), and tells j's listeners.
func (j *Journal) record(r *http.Request, start time.Time, status int, body *capture, login func(token string) string) {
	req := Request{Method: r.Method, Path: r.URL.Path, Query: maskQuery(r.URL.RawQuery), Time: start.UTC(),
		Status: status, DurationMS: float64(time.Since(start).Microseconds()) / 1000}
	if token, ok := bearer(r); ok && token != "" {
		req.Login = login(token)
	}
	if body != nil {
		req.read, req.BodySize = body.whole()
	}
	j.add(req)
	j.Changed()
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

// whole returns the body that was read, or nil when it was empty or longer
// than maxBody; and its size.
func (c *capture) whole() ([]byte, int64) {
	if c.size == 0 || c.size > maxBody {
		return nil, c.size
	}
	return c.kept.Bytes(), c.size
}
