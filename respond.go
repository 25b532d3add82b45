package issuefields

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// recorder is the ResponseWriter a request is served through. It remembers
// what the request's log line needs, and gives every answer the permissions
// header. It holds the values of the headers the handler sets, and the call of
// the route the request matched, so that serving a request allocates once.
type recorder struct {
	http.ResponseWriter
	// start is when the request began; it is set only for a request that
	// is logged.
	start  time.Time
	id     string
	status int
	login  string
	// permissionsHeader is the name of the X-Accepted-<Vendor>-Permissions
	// header, and permissions its value: what the matched route needs, or
	// nothing for a request that matched none.
	permissionsHeader, permissions string
	// bodyPending is set while the request has a body, over HTTP/1, that
	// has not been read to its end.
	bodyPending bool
	// values holds header values; used counts the slots taken.
	values [8]string
	used   int
	call   call
}

// setHeader sets the header with the canonical name key to value.
func (rec *recorder) setHeader(key, value string) {
	if rec.used == len(rec.values) {
		rec.Header()[key] = []string{value}
		return
	}
	rec.values[rec.used] = value
	rec.Header()[key] = rec.values[rec.used : rec.used+1 : rec.used+1]
	rec.used++
}

// setHeader sets the header with the canonical name key on w, through the
// recorder's slots when w is the recorder.
func setHeader(w http.ResponseWriter, key, value string) {
	if rec, ok := w.(*recorder); ok {
		rec.setHeader(key, value)
		return
	}
	w.Header()[key] = []string{value}
}

// WriteHeader records the status and sends it.
func (rec *recorder) WriteHeader(status int) {
	rec.begin(status)
	rec.ResponseWriter.WriteHeader(status)
}

// Write sends b, with status 200 if no status was sent.
func (rec *recorder) Write(b []byte) (int, error) {
	rec.begin(http.StatusOK)
	return rec.ResponseWriter.Write(b)
}

// begin records status and sets the permissions header, unless the answer
// has begun already. An answer given before the body was read to its end
// closes the connection: otherwise net/http would read what is left of the
// body before it sends the answer, waiting as long as the client sends it.
func (rec *recorder) begin(status int) {
	if rec.status == 0 {
		rec.status = status
		rec.setHeader(rec.permissionsHeader, rec.permissions)
		if rec.bodyPending {
			rec.setHeader("Connection", "close")
		}
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (rec *recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// startRequest gives r its id, and the recorder that answers it.
func (h *Handler) startRequest(w http.ResponseWriter, r *http.Request) *recorder {
	rec := &recorder{ResponseWriter: w, id: h.ids.next(), permissionsHeader: h.header.permissions,
		bodyPending: r.ProtoMajor == 1 && r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody}
	rec.setHeader(h.header.requestID, rec.id)
	return rec
}

// requestIDs hands out request ids: a random prefix per Handler, so that ids
// from several servers do not collide, and a counter.
type requestIDs struct {
	prefix string
	count  atomic.Uint64
}

// newRequestIDs returns the request ids of a new Handler.
func newRequestIDs() *requestIDs {
	return &requestIDs{prefix: rand.Text()[:10] + "-"}
}

// next returns a new request id, built in one allocation.
func (ids *requestIDs) next() string {
	var buf [32]byte
	id := append(buf[:0], ids.prefix...)
	return string(strconv.AppendUint(id, ids.count.Add(1), 16))
}

// writeJSON answers with status and v as JSON, followed by a newline as
// every JSON body the handler writes, so that a body printed by curl ends its
// line. v is encoded before anything is sent, so a failure to encode is a
// clean 500, never half an answer. Text is written as it is, without
// escaping <, > and &.
func (h *Handler) writeJSON(w http.ResponseWriter, status int, v any) error {
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	writeBody(w, status, body.Bytes())
	return nil
}

// autoContentLengthBytes is the size up to which net/http's server adds the
// Content-Length of a response written in one go itself, from its buffer; it
// would send a larger one in chunks, so writeBody says its length up front.
const autoContentLengthBytes = 2048

// writeBody answers with status and a JSON body.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	setHeader(w, "Content-Type", "application/json; charset=utf-8")
	if len(body) > autoContentLengthBytes {
		setHeader(w, "Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// statusClientClosedRequest is the status that the log gives a request whose
// client went away before it was answered, as nginx logs it.
const statusClientClosedRequest = 499

// writeError answers with the error body for err. rt is the route the request
// matched, or nil. Causes of server-side failures are logged with the request
// id; clients see only the message.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, rt *route, err error) {
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		// The client went away and cut the work short: nobody reads an
		// answer, and the failure is not the server's.
		if rec, ok := w.(*recorder); ok {
			rec.status = statusClientClosedRequest
		}
		return
	}
	e := answerTo(err, rt)
	if e.status >= 500 {
		h.log.LogAttrs(r.Context(), slog.LevelError, "request failed",
			slog.String("request_id", w.Header().Get(h.header.requestID)),
			slog.Int("status", e.status),
			slog.Any("error", e.cause))
	}
	if e.retryAfter != "" {
		setHeader(w, "Retry-After", e.retryAfter)
	}
	if e.url != "" {
		setHeader(w, "Location", e.url)
	}
	doc := h.docURL
	if rt != nil {
		doc += "#" + rt.anchor
	}
	if err := h.writeJSON(w, e.status, e.body(doc)); err != nil {
		http.Error(w, "Internal server error", http.StatusInternalServerError)
	}
}
