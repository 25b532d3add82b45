package issuefields

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"time"
)

// recorder is the ResponseWriter a request is served through: it remembers
// what the request's log line needs.
type recorder struct {
	http.ResponseWriter
	start  time.Time
	id     string
	status int
	login  string
}

// WriteHeader records the status and sends it.
func (rec *recorder) WriteHeader(status int) {
	if rec.status == 0 {
		rec.status = status
	}
	rec.ResponseWriter.WriteHeader(status)
}

// Write sends b, with status 200 if no status was sent.
func (rec *recorder) Write(b []byte) (int, error) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	return rec.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (rec *recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// startRequest gives a request its id and the headers every answer carries.
func (h *Handler) startRequest(w http.ResponseWriter) *recorder {
	rec := &recorder{ResponseWriter: w, start: time.Now(), id: h.ids.next()}
	rec.Header().Set(h.header.requestID, rec.id)
	rec.Header().Set(h.header.permissions, "")
	return rec
}

// logRequest writes the request's log line.
func (h *Handler) logRequest(rec *recorder, r *http.Request) {
	h.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
		slog.String("request_id", rec.id),
		slog.String("method", r.Method),
		slog.String("route", r.Pattern),
		slog.Int("status", rec.status),
		slog.Duration("duration", time.Since(rec.start)),
		slog.String("login", rec.login),
	)
}

// writeJSON answers with status and v as JSON. v is encoded before anything
// is sent, so a failure to encode is a clean 500, never half an answer.
// Text is written as it is, without escaping <, > and &.
func (h *Handler) writeJSON(w http.ResponseWriter, status int, v any) error {
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	body.Truncate(body.Len() - 1) // the newline Encode adds
	header := w.Header()
	header.Set("Content-Type", "application/json; charset=utf-8")
	header.Set("Content-Length", strconv.Itoa(body.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(body.Bytes())
	return nil
}

// writeError answers with the error body for err. rt is the route the request
// matched, or nil. Causes of server-side failures are logged with the request
// id; clients see only the message.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, rt *route, err error) {
	e := asHTTPError(err)
	if e.status >= 500 {
		h.log.LogAttrs(r.Context(), slog.LevelError, "request failed",
			slog.String("request_id", w.Header().Get(h.header.requestID)),
			slog.Int("status", e.status),
			slog.Any("error", e.cause))
	}
	switch {
	case e.retryAfter != "":
		w.Header().Set("Retry-After", e.retryAfter)
	case e.status == http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", "1")
	}
	if e.location != "" {
		w.Header().Set("Location", e.location)
	}
	doc := h.docURL
	if rt != nil {
		doc += "#" + rt.anchor
	}
	if err := h.writeJSON(w, e.status, e.body(doc)); err != nil {
		http.Error(w, "Internal server error", http.StatusInternalServerError)
	}
}
