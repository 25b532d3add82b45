package issuefields

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/issuefields/issuefields/internal/earlyanswer"
)

// A request goes through these steps, each answering it with an error when it
// cannot go on (answer.go turns every error into its answer):
//
//  1. ServeHTTP gives it an id and the recorder that answers it, sheds it
//     when MaxInFlight requests are in flight, and refuses a path that is not
//     clean; the ServeMux then finds its route (routes.go), or answers 404 or
//     405.
//  2. serveRoute selects the API version and runs the route's operation.
//  3. The operation checks the path, authenticates the caller (identify),
//     finds what the path names, authorizes the caller on it, applies the
//     secondary rate limit to a write, and answers: a list of values in
//     values.go; a write of values through commit in write.go, which
//     decides it on a Snapshot (values.go's decide), takes the turn
//     (writeturns.go) and stores it with Store.UpdateIssue, again on
//     ErrChanged; the field management routes in fields.go. A host's Route
//     (Config.Routes) has its caller authenticated by serveMounted
//     (mount.go) before its Serve does the rest through the Call.

// ServeHTTP serves one request of the API. When the answer was given before
// the request's body was read to its end, it sends the answer, then reads the
// rest of the body, within MaxBodyBytes, so that the connection closes
// without a reset while the client still sends (internal/earlyanswer); the
// request is logged, and its place of MaxInFlight given back, before.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := h.startRequest(w, r)
	h.serveRequest(rec, r)
	if rec.bodyPending && rec.status != statusClientClosedRequest {
		earlyanswer.Finish(rec, r, h.maxBodyBytes, rec.bodyRead)
	}
}

// serveRequest serves r through rec.
func (h *Handler) serveRequest(rec *recorder, r *http.Request) {
	if h.log.Enabled(r.Context(), slog.LevelInfo) {
		rec.start = time.Now()
		defer h.logRequest(rec, r)
	}
	defer h.recoverPanic(rec, r)
	if !h.inFlight.acquire() {
		h.writeError(rec, r, nil, errOverloaded)
		return
	}
	defer h.inFlight.release()
	if !isCleanPath(r.URL.Path) {
		// ServeMux would redirect to the clean path, dropping the mount
		// prefix; no path of the API has //, . or .. in it.
		h.serveNotFound(rec, r)
		return
	}
	h.mux.ServeHTTP(rec, r)
}

// call is one request to one route, as it is being served. It lives in the
// request's recorder, so that serving a request allocates once for both.
type call struct {
	w     *recorder
	r     *http.Request
	route *route
	// principal is the caller, or nil for a request without credentials.
	principal *Principal
	// context is r's context, with the principal once it is known;
	// withPrincipal holds it, so that making it allocates nothing.
	context       context.Context
	withPrincipal principalContext
	// limited is set once the secondary rate limit was applied to the
	// request, and limitErr is what it answered.
	limited  bool
	limitErr error
}

// ctx returns the context that the store, the verifier and the notifier get.
func (c *call) ctx() context.Context { return c.context }

// serveRoute serves a request that matched rt: it selects the version and
// runs the route's operation.
func (h *Handler) serveRoute(rt *route, w http.ResponseWriter, r *http.Request) {
	rec := w.(*recorder)
	rec.permissions = rt.permissions
	if !h.selectVersion(rec, r, rt) {
		return
	}
	c := &rec.call
	c.w, c.r, c.route, c.context = rec, r, rt, r.Context()
	if err := rt.serve(h, c); err != nil {
		h.answerError(c, err)
	}
}

// answerError answers the request of c with err. It is a function of its
// own so that serveRoute's frame, under which every operation runs, stays
// small.
func (h *Handler) answerError(c *call, err error) {
	h.writeError(c.w, c.r.WithContext(c.ctx()), c.route, err)
}

// selectVersion sets the API version that serves r on the answer, or answers
// 400 when r asks for a version the handler does not support, or for two
// different versions. rt is the route r matched, or nil.
func (h *Handler) selectVersion(w http.ResponseWriter, r *http.Request, rt *route) bool {
	values := r.Header[h.header.version]
	var version string
	for i, v := range values {
		if i > 0 && v != version {
			h.writeError(w, r, rt, conflictingVersions(h.header.version, values))
			return false
		}
		version = v
	}
	switch version {
	case "":
		version = APIVersion
	case APIVersion, legacyAPIVersion:
	default:
		h.writeError(w, r, rt, unsupportedVersion(h.header.version, version))
		return false
	}
	setHeader(w, h.header.versionSelected, version)
	return true
}

// identify authenticates the caller of c, if the request carries
// credentials, and gives c's context the principal. Bad credentials are
// refused (401) whatever the path names, so that this answer says nothing
// about what exists.
func (h *Handler) identify(c *call) error {
	principal, err := authenticate(c.ctx(), c.r, h.verifier)
	if err != nil || principal == nil {
		return err
	}
	c.principal = principal
	c.w.login = principal.Login
	c.withPrincipal = principalContext{Context: c.context, principal: principal}
	c.context = &c.withPrincipal
	return nil
}

// limitWrites applies the secondary rate limit to a write of c's principal,
// who is authorized; it lets other operations through.
func (h *Handler) limitWrites(c *call) error {
	if !c.route.op.writes() {
		return nil
	}
	return h.allowWrite(c)
}

// allowWrite applies the secondary rate limit to a write of c's principal,
// who is authorized.
func (h *Handler) allowWrite(c *call) error {
	if l, ok := h.writeLimiter.(*writeLimiter); ok && !l.limits() {
		return nil // without building the principal's key
	}
	if ok, wait := h.writeLimiter.AllowWrite(c.ctx(), string(c.principal.Kind)+":"+c.principal.Login); !ok {
		return secondaryRateLimited(wait)
	}
	return nil
}

// recorder is the ResponseWriter a request is served through. It remembers
// what the request's log line needs, and gives every answer the permissions
// header. It holds the values of the headers the handler sets, and the call
// of the route the request matched, so that serving a request allocates
// once.
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
	// has not been read to its end, and bodyRead counts the bytes of it
	// that readBody read.
	bodyPending bool
	// used counts the slots of values taken. It is a byte, beside
	// bodyPending, so that the recorder stays within its allocation's size
	// class.
	used     uint8
	bodyRead int64
	// values holds header values.
	values [8]string
	call   call
}

// startRequest gives r its id, and the recorder that answers it, with the
// headers of every answer.
func (h *Handler) startRequest(w http.ResponseWriter, r *http.Request) *recorder {
	rec := &recorder{ResponseWriter: w, id: h.ids.next(), permissionsHeader: h.header.permissions,
		bodyPending: earlyanswer.Pending(r)}
	rec.setHeader(h.header.requestID, rec.id)
	rec.Header()["X-Content-Type-Options"] = noSniff
	return rec
}

// noSniff is the value of X-Content-Type-Options on every answer, as GitHub
// sends it, shared by all: Header.Add copies a slice without spare capacity
// rather than write into it.
var noSniff = []string{"nosniff"}

// setHeader sets the header with the canonical name key to value.
func (rec *recorder) setHeader(key, value string) {
	if int(rec.used) == len(rec.values) {
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
// body before it sends the answer, waiting as long as the client sends it
// (ServeHTTP reads it after the answer instead).
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

// logRequest logs the request's line. The line has no source: it would be
// this function's for every request, and Logger's methods walk the stack to
// find it.
func (h *Handler) logRequest(rec *recorder, r *http.Request) {
	line := slog.NewRecord(time.Now(), slog.LevelInfo, "request", 0)
	line.AddAttrs(
		slog.String("request_id", rec.id),
		slog.String("method", r.Method),
		slog.String("route", routeOf(r)),
		slog.Int("status", rec.status),
		slog.Duration("duration", line.Time.Sub(rec.start)),
		slog.String("login", rec.login))
	_ = h.log.Handler().Handle(r.Context(), line) // a log has nowhere to report its own failure
}

// routeOf returns the route of r for its log line: the path of the pattern r
// matched, without the method, which the line gives apart ("" for a request
// that matched none). Without a space it needs no quotes in a text log.
func routeOf(r *http.Request) string {
	return r.Pattern[strings.IndexByte(r.Pattern, ' ')+1:]
}

// inFlightLimit bounds how many requests are served at once. A nil
// inFlightLimit bounds nothing.
type inFlightLimit chan struct{}

func newInFlightLimit(n int) inFlightLimit {
	if n == 0 {
		return nil
	}
	return make(inFlightLimit, n)
}

// acquire takes a place if one is free, without waiting.
func (l inFlightLimit) acquire() bool {
	if l == nil {
		return true
	}
	select {
	case l <- struct{}{}:
		return true
	default:
		return false
	}
}

// release gives back a place taken by acquire.
func (l inFlightLimit) release() {
	if l != nil {
		<-l
	}
}

// recoverPanic turns a panic below the handler (in a store, a verifier, a
// Route or the handler itself) into a 500 and a log line with the request id
// and the stack, so that the server keeps serving. When the answer had
// already begun, the connection is aborted instead, so that the client never
// takes half an answer for a whole one. It must be called directly by a
// deferred statement.
func (h *Handler) recoverPanic(rec *recorder, r *http.Request) {
	p := recover()
	if p == nil {
		return
	}
	err := panicked(p)
	if rec.status != 0 {
		h.log.ErrorContext(r.Context(), "panic after the answer began", "request_id", rec.id, "error", err)
		panic(http.ErrAbortHandler)
	}
	for _, name := range []string{"ETag", "Location", "Link", "Allow"} {
		rec.Header().Del(name)
	}
	h.writeError(rec, r, nil, err)
}

// isCleanPath reports whether p is a rooted path without empty, "." or ".."
// segments (but for a trailing slash), as path.Clean would leave it.
// FuzzIsCleanPath checks that it agrees with path.Clean, which is slower.
func isCleanPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	start := 1 // of the segment being read
	for i := 1; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		if seg := p[start:i]; seg == "." || seg == ".." || seg == "" && i < len(p) {
			return false
		}
		start = i + 1
	}
	return true
}

// panicked is the error logged for a recovered panic: its value and the
// stack of the goroutine that panicked. http.ErrAbortHandler is not
// recovered but panics again, as net/http expects. It must be called from
// the deferred function that recovered.
func panicked(p any) error {
	if p == http.ErrAbortHandler {
		panic(p)
	}
	return fmt.Errorf("panic: %v\n%s", p, debug.Stack())
}
