package issuefields

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Route is a route of a host's that the Handler serves beside the API's own
// (Config.Routes), through the same pipeline: the request id, the bound of
// MaxInFlight, panic recovery, the version header, authentication (bad
// credentials are refused with 401 before Serve runs), the permissions header
// on every answer, the error answers, the request's log line, answers given
// while a body is still being sent, and 405 for its path's other methods. The
// webhook package's routes are Routes.
type Route struct {
	// Method is the route's HTTP method. GET serves HEAD too. Required.
	Method string

	// Path is the path of the route's http.ServeMux pattern, below the
	// prefix the handler is mounted under, such as
	// /orgs/{org}/hooks/{hook_id}. Required. It must not match a request
	// that one of the API's routes, or another Route, matches, unless it is
	// the same path, spelled the same, with another method.
	Path string

	// Permissions is the X-Accepted-<Vendor>-Permissions header of every
	// answer to the route: "," joins permissions needed together, "; "
	// separates alternatives.
	Permissions string

	// DocumentationURL is the documentation_url of the route's error
	// bodies. The zero value means Config.DocumentationURL.
	DocumentationURL string

	// Serve answers a request once its caller is authenticated. An error
	// it returns is answered as the API answers it: ErrNotFound 404,
	// ErrUnavailable 503, the Call's refusals as each says, and any other
	// error 500, its cause logged. It must not return an error once it has
	// begun its answer.
	Serve func(*Call) error
}

// Call is one request to a Route, as it is served. It is valid until the
// route's Serve returns.
type Call struct {
	h *Handler
	c *call
	// r is the request, with the principal in its context.
	r *http.Request
	// read is the Snapshot that ReadIssue read last, of the place readAt,
	// if hasRead; a write of that place starts from it.
	read    Snapshot
	readAt  place
	hasRead bool
	// logged is the cause of the last failure that Explain logged, so that
	// a route that asks about one error twice logs it once.
	logged error
}

// mountedRoute returns the route of the API's table that serves mr: a read
// of issues for GET, a write of issues for the other methods, as the issue
// methods of the Call authorize and answer them.
func mountedRoute(mr Route) *route {
	op := writeIssues
	if mr.Method == http.MethodGet {
		op = readIssues
	}
	return &route{method: mr.Method, path: mr.Path, op: op, permissions: mr.Permissions, doc: mr.DocumentationURL,
		serve: func(h *Handler, c *call) error { return h.serveMounted(c, mr.Serve) }}
}

// serveMounted authenticates the caller of c, and lets serve answer.
func (h *Handler) serveMounted(c *call, serve func(*Call) error) error {
	if err := h.identify(c); err != nil {
		return err
	}
	r := c.r
	if c.principal != nil {
		r = r.WithContext(c.ctx())
	}
	return serve(&Call{h: h, c: c, r: r})
}

// Request returns the request. Its context carries the caller's Principal
// (PrincipalFromContext), as the Store's calls get it.
func (c *Call) Request() *http.Request { return c.r }

// Principal returns the caller, or nil for a request without credentials.
func (c *Call) Principal() *Principal { return c.c.principal }

// Header returns the header of the answer, as http.ResponseWriter's does.
func (c *Call) Header() http.Header { return c.c.w.Header() }

// WriteJSON answers with status and v as JSON, as the API writes its own
// answers: encoded whole before anything is sent, so that a failure to
// encode is returned, and answered 500, rather than sent as half a body.
func (c *Call) WriteJSON(status int, v any) error { return c.h.writeJSON(c.c.w, status, v) }

// WriteBody answers with status and body, JSON that the route encoded
// itself (ending in a newline, as the API's bodies do), sent as it is.
func (c *Call) WriteBody(status int, body []byte) { writeBody(c.c.w, status, body) }

// WriteHeader answers with status and no body, as a 204 is.
func (c *Call) WriteHeader(status int) { c.c.w.WriteHeader(status) }

// ReadObject reads the request's body, a JSON object, and returns its
// members, as the API reads its own bodies: at most Config.MaxBodyBytes of
// it, a larger one refused with 413; a body that is not JSON, not an object,
// or that repeats a key in one object at any depth, refused with 400. It
// reads the body once: call it once.
func (c *Call) ReadObject() (map[string]json.RawMessage, error) {
	return readObject(c.c.w, c.r, c.h.maxBodyBytes)
}

// ReadJSON reads the request's body as ReadObject does, with the same
// refusals, and returns it whole: a JSON object, valid, that repeats no key
// in any object, for a route that decodes it its own way. It reads the body
// once: call it, or ReadObject, once.
func (c *Call) ReadJSON() ([]byte, error) {
	body, err := readBody(c.c.w, c.r, c.h.maxBodyBytes, &objectBody)
	if err != nil {
		return nil, err
	}
	return body.whole, nil
}

// LimitWrite applies the secondary rate limit of writes (Config.WriteLimits,
// Config.WriteLimiter) to the request, once however often it is called, and
// returns the 422 with Retry-After of a caller over it. A route that writes
// calls it once the caller is authorized, before it reads the body.
func (c *Call) LimitWrite() error { return c.LimitWrites(1) }

// RequireToken returns the 401 Requires authentication for a caller without
// credentials, and nil for any other.
func (c *Call) RequireToken() error {
	if c.c.principal == nil {
		return errRequiresAuthentication
	}
	return nil
}

// NotAccessible returns the 403 of a caller whose token lacks needed, which
// names the permission or scope the route needs, such as "the permission
// organization_hooks=write": "Resource not accessible by <integration or
// personal access token>: it needs <needed>.", worded by the token's kind.
// For a caller without credentials it returns RequireToken's 401.
func (c *Call) NotAccessible(needed string) error {
	if c.c.principal == nil {
		return errRequiresAuthentication
	}
	return lacksPermission(c.c.principal.Kind, needed)
}

// Invalid returns the 422 Validation Failed whose errors are items, each
// encoded as JSON: GitHub's validation-error objects, say.
func (c *Call) Invalid(items ...any) error { return validationFailed(items...) }

// BadRequest returns the 400 whose message is message, a sentence that says
// what to send instead.
func (c *Call) BadRequest(message string) error {
	return &requestError{condition: errBadRequest, message: message}
}

// Explain returns the status and the message that the API answers err with,
// for a route that writes its errors in a shape of its own; it logs the
// cause of a status of 500 and over, as the handler does for an error that
// Serve returns, once for the same error however often it is asked. A refusal that lists the invalid parts of a body (a 422)
// has the message of each part after its own, joined by "; ", so that the
// message names what is wrong; a refusal that may be retried later sets the
// answer's Retry-After, as the API's own answer would.
func (c *Call) Explain(err error) (status int, message string) {
	a := answerTo(err, c.c.route)
	if c.logged == nil || !errors.Is(err, c.logged) {
		c.h.logFailure(c.r, c.c.w, &a)
		if a.status >= 500 {
			c.logged = err
		}
	}
	if a.retryAfter != "" {
		setHeader(c.c.w, "Retry-After", a.retryAfter)
	}
	message = a.message
	for i, item := range a.errors {
		sep := "; "
		if i == 0 {
			sep = ": "
		}
		switch item := item.(type) {
		case *fieldError:
			message += sep + item.Message
		case string:
			message += sep + item
		}
	}
	return a.status, message
}

// checkRoutes reports what is missing or wrong in mounted, the Routes of a
// Config: a Route without a method, a path or Serve, a pattern that
// http.ServeMux refuses, and a Route that collides with one of the API's
// routes or with a Route before it.
func checkRoutes(mounted []Route) []error {
	var errs []error
	var valid []int // the indexes of the Routes checked so far that are valid on their own
	for i, mr := range mounted {
		name := fmt.Sprintf("Config.Routes[%d] (%s %s)", i, mr.Method, mr.Path)
		if err := checkRoute(mr); err != nil {
			errs = append(errs, fmt.Errorf("%s %w", name, err))
			continue
		}
		for _, rt := range routes {
			if collide(mr.Method, mr.Path, rt.method, rt.path) {
				errs = append(errs, fmt.Errorf("%s collides with the API's route %s %s", name, rt.method, rt.path))
			}
		}
		for _, j := range valid {
			if other := mounted[j]; collide(mr.Method, mr.Path, other.Method, other.Path) {
				errs = append(errs, fmt.Errorf("%s collides with Config.Routes[%d] (%s %s)", name, j, other.Method, other.Path))
			}
		}
		valid = append(valid, i)
	}
	return errs
}

// checkRoute reports what is missing or wrong in mr on its own.
func checkRoute(mr Route) (err error) {
	switch {
	case mr.Method == "":
		return errors.New("has no Method")
	case strings.ContainsAny(mr.Method, " \t"):
		return errors.New("has a Method that is not one word")
	case !strings.HasPrefix(mr.Path, "/"):
		return errors.New("has a Path that does not begin with /")
	case mr.Serve == nil:
		return errors.New("has no Serve")
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("is not a pattern of http.ServeMux: %v", p)
		}
	}()
	http.NewServeMux().HandleFunc(mr.Method+" "+mr.Path, func(http.ResponseWriter, *http.Request) {})
	return nil
}

// collide reports whether the routes of method1 and path1 and of method2 and
// path2, two valid patterns, cannot both be served: their paths match a
// request in common, and they are not one path, spelled the same, with two
// methods (the handler's 405 for a path's other methods needs its one
// spelling). GET serves HEAD too.
func collide(method1, path1, method2, path2 string) bool {
	if !pathsMeet(patternSegments(path1), patternSegments(path2)) {
		return false
	}
	get := func(m string) bool { return m == http.MethodGet || m == http.MethodHead }
	return path1 != path2 || method1 == method2 || get(method1) && get(method2)
}

// The segments of a pattern's path, as patternSegments gives them, besides
// literal segments.
const (
	anySegment = "{}"    // a wildcard of one segment
	restOfPath = "{...}" // what remains of a path, if anything
)

// patternSegments returns the segments of the path of a valid ServeMux
// pattern: each literal as it is, anySegment for {name}, and restOfPath for
// {name...} and for the empty segment after a trailing slash, which matches
// every path below it; {$} is the empty segment of a path that ends in a
// slash.
func patternSegments(path string) []string {
	segments := strings.Split(path[1:], "/")
	last := len(segments) - 1
	for i, s := range segments {
		switch {
		case s == "{$}":
			segments[i] = ""
		case strings.HasSuffix(s, "...}"), s == "" && i == last:
			segments[i] = restOfPath
		case strings.HasPrefix(s, "{"):
			segments[i] = anySegment
		}
	}
	return segments
}

// pathsMeet reports whether some path matches both a and b, the segments of
// two patterns.
func pathsMeet(a, b []string) bool {
	for i := 0; ; i++ {
		switch {
		case i == len(a) || i == len(b):
			return len(a) == len(b)
		case a[i] == restOfPath || b[i] == restOfPath:
			return true
		case a[i] == b[i], a[i] == anySegment && b[i] != "", b[i] == anySegment && a[i] != "":
			continue
		}
		return false
	}
}
