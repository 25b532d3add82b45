package standin

import (
	"net/http"
	"time"
)

// writeBound is how long each write of a tool's answer to its client may
// take, whatever the server's -write-timeout: a client that stops reading
// for longer loses the answer, and holds none of its memory.
const writeBound = 5 * time.Second

// writeChunk is the most that one write with its own deadline sends, so
// that a long answer gets as long as it needs while its client reads.
const writeChunk = 32 << 10

// withWriteDeadlines returns h with a deadline of bound on each write of its
// answers: on the status, on each chunk of at most writeChunk bytes of the
// body, and on each flush. Nothing is bounded while the handler writes
// nothing, so that an event stream waits as long as it needs to between
// its messages (see events).
func withWriteDeadlines(h http.Handler, bound time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), bound: bound}, r)
	})
}

// A deadlineWriter is a ResponseWriter whose every write to the client has
// a deadline of its own.
type deadlineWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	bound time.Duration
}

// bind sets the deadline of the next write. A ResponseWriter without
// deadlines has none to set.
func (w *deadlineWriter) bind() { _ = w.rc.SetWriteDeadline(time.Now().Add(w.bound)) }

// WriteHeader sets the deadline of the status's write, and writes it.
func (w *deadlineWriter) WriteHeader(status int) {
	w.bind()
	w.ResponseWriter.WriteHeader(status)
}

// Write writes p a chunk at a time, each within a deadline of its own.
func (w *deadlineWriter) Write(p []byte) (int, error) {
	written := 0
	for {
		w.bind()
		n, err := w.ResponseWriter.Write(p[:min(len(p), writeChunk)])
		written, p = written+n, p[n:]
		if err != nil || len(p) == 0 {
			return written, err
		}
	}
}

// FlushError sends what was written, within a deadline.
func (w *deadlineWriter) FlushError() error {
	w.bind()
	return w.rc.Flush()
}

// Unwrap returns the ResponseWriter, for http.ResponseController.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
