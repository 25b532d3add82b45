package issuefields

import (
	"context"
	"log/slog"
	"net/http"
	"time"
)

// RequestLine is the log line of one request, as the Handler logs it at
// slog.LevelInfo with the message "request".
type RequestLine struct {
	// Time is when the answer was done.
	Time time.Time
	// ID is the request id, which the answer's X-<Vendor>-Request-Id header
	// carries.
	ID string
	// Method is the request's method, and Route the request's Pattern once
	// routed: the pattern of the route that answered it ("GET
	// /repos/{owner}/..."), a path alone for a method its path does not
	// allow, and "/" for a path the API does not have; or, for a request
	// answered before routing (a path with //, . or .., a request shed
	// with 503), the Pattern it came with, empty but for a host's ServeMux.
	Method, Route string
	// Status is the answer's status, or 499 for a client that went away
	// before it was answered.
	Status int
	// Duration is how long the request took to serve.
	Duration time.Duration
	// Login is the caller's login, or "" for a request without
	// credentials.
	Login string
}

// Record returns the line as the slog.Record that the Handler gives a
// logger's handler: message "request", and the attributes request_id,
// method, route, status, duration and login, in that order.
func (l RequestLine) Record() slog.Record {
	r := slog.NewRecord(l.Time, slog.LevelInfo, "request", 0)
	r.AddAttrs(
		slog.String("request_id", l.ID),
		slog.String("method", l.Method),
		slog.String("route", l.Route),
		slog.Int("status", l.Status),
		slog.Duration("duration", l.Duration),
		slog.String("login", l.Login),
	)
	return r
}

// RequestLogHandler is an optional interface of the handler of
// Config.Logger. The Handler gives such a handler each request's line through
// LogRequest instead of Handle, which spares it making a slog.Record of six
// attributes for every request (a few percent of a list's CPU, for a handler
// that then writes the line without the record). LogRequest must log what
// Handle would log for line.Record(); the Handler calls it only when the
// handler is enabled for slog.LevelInfo. RequestLine may gain fields in a
// later version, which Record then carries too: a handler that writes the
// fields itself should compare its output with Record's in a test.
type RequestLogHandler interface {
	slog.Handler
	LogRequest(ctx context.Context, line RequestLine) error
}

// logRequest logs the request's line. It makes the record itself, without
// the caller's program counter (which Logger.LogAttrs would look up on every
// request, for a source position that would always be this function), and
// reads only the monotonic clock, for the duration: the line's time is the
// request's start plus the duration.
func (h *Handler) logRequest(rec *recorder, r *http.Request) {
	duration := time.Since(rec.start)
	line := RequestLine{Time: rec.start.Add(duration), ID: rec.id, Method: r.Method, Route: r.Pattern,
		Status: rec.status, Duration: duration, Login: rec.login}
	if h.requestLog != nil {
		_ = h.requestLog.LogRequest(r.Context(), line)
		return
	}
	_ = h.log.Handler().Handle(r.Context(), line.Record())
}
