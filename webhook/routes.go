package webhook

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/earlyanswer"
)

// Routes serves GitHub's webhook routes for organizations and repositories,
// so that a tool subscribes to the issue field events as it would on GitHub
// (go-github's CreateHook, ListHookDeliveries, RedeliverHookDelivery and
// PingHook, and their twins, unchanged):
//
//	GET, POST            /orgs/{org}/hooks
//	GET, PATCH, DELETE   /orgs/{org}/hooks/{hook_id}
//	GET, PATCH           /orgs/{org}/hooks/{hook_id}/config
//	GET                  /orgs/{org}/hooks/{hook_id}/deliveries
//	GET                  /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}
//	POST                 /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}/attempts
//	POST                 /orgs/{org}/hooks/{hook_id}/pings
//
// and the same under /repos/{owner}/{repo}. A host mounts it beside the
// issuefields.Handler, under the same prefix. It is safe for concurrent use.
type Routes struct {
	store    issuefields.Store
	fields   issuefields.FieldManager // store's, or nil: no organization is known
	hooks    Store
	notifier *Notifier
	verifier issuefields.TokenVerifier
	header   routeHeaders
	maxBody  int64
	log      *slog.Logger
	mux      *http.ServeMux
}

// RoutesConfig configures Routes. Store, Verifier and Notifier are required.
type RoutesConfig struct {
	// Store finds the repositories of the repository routes; when it is an
	// issuefields.FieldManager, it finds the organizations of the
	// organization routes too, which otherwise answer 404.
	Store issuefields.Store

	// Verifier turns bearer tokens into principals, as it does for the
	// issuefields.Handler.
	Verifier issuefields.TokenVerifier

	// Notifier keeps the hooks (its Options.Store), and sends pings and
	// redeliveries; its BaseURL is that of the hooks' URLs in answers.
	Notifier *Notifier

	// Vendor is the word in the names of the headers, as in the
	// issuefields.Handler's Config. The zero value means "Service".
	Vendor string

	// Logger receives a line per request, as the issuefields.Handler logs
	// them, and the causes of 500 and 503 answers. The zero value means
	// slog.Default().
	Logger *slog.Logger
}

// routeHeaders are the names of the vendor-specific headers of answers.
type routeHeaders struct {
	version, versionSelected, permissions, requestID string
}

// legacyAPIVersion is the other version of the API that requests may ask
// for, besides issuefields.APIVersion.
const legacyAPIVersion = "2022-11-28"

// maxHookBody is the largest request body the routes read.
const maxHookBody = 1 << 20

// NewRoutes returns the Routes of cfg, or an error that names what is
// missing or wrong in it.
func NewRoutes(cfg RoutesConfig) (*Routes, error) {
	var errs []error
	if cfg.Store == nil {
		errs = append(errs, errors.New("RoutesConfig.Store is nil"))
	}
	if cfg.Verifier == nil {
		errs = append(errs, errors.New("RoutesConfig.Verifier is nil"))
	}
	if cfg.Notifier == nil {
		errs = append(errs, errors.New("RoutesConfig.Notifier is nil"))
	}
	if cfg.Vendor == "" {
		cfg.Vendor = DefaultVendor
	}
	if !vendorPattern.MatchString(cfg.Vendor) {
		errs = append(errs, fmt.Errorf("RoutesConfig.Vendor %q is not letters and digits", cfg.Vendor))
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("webhook.NewRoutes: %w", errors.Join(errs...))
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	name := func(format string) string { return textproto.CanonicalMIMEHeaderKey(fmt.Sprintf(format, cfg.Vendor)) }
	rt := &Routes{
		store:    cfg.Store,
		hooks:    cfg.Notifier.store,
		notifier: cfg.Notifier,
		verifier: cfg.Verifier,
		header: routeHeaders{
			version:         name("X-%s-Api-Version"),
			versionSelected: name("X-%s-Api-Version-Selected"),
			permissions:     name("X-Accepted-%s-Permissions"),
			requestID:       name("X-%s-Request-Id"),
		},
		maxBody: maxHookBody,
		log:     cfg.Logger,
		mux:     http.NewServeMux(),
	}
	rt.fields, _ = cfg.Store.(issuefields.FieldManager)
	rt.register()
	return rt, nil
}

// A hookRoute is one route of the table: its method and its pattern's suffix
// below the scope's /hooks, whether it writes, its operation, and its anchors
// in GitHub's documentation of organizations' and of repositories' webhooks.
type hookRoute struct {
	method, suffix string
	write          bool
	serve          func(*Routes, *hookCall) error
	orgAnchor      string
	repoAnchor     string
}

var hookRoutes = []hookRoute{
	{"GET", "", false, (*Routes).listHooks, "list-organization-webhooks", "list-repository-webhooks"},
	{"POST", "", true, (*Routes).createHook, "create-an-organization-webhook", "create-a-repository-webhook"},
	{"GET", "/{hook_id}", false, (*Routes).getHook, "get-an-organization-webhook", "get-a-repository-webhook"},
	{"PATCH", "/{hook_id}", true, (*Routes).updateHook, "update-an-organization-webhook", "update-a-repository-webhook"},
	{"DELETE", "/{hook_id}", true, (*Routes).deleteHook, "delete-an-organization-webhook", "delete-a-repository-webhook"},
	{"GET", "/{hook_id}/config", false, (*Routes).getConfig,
		"get-a-webhook-configuration-for-an-organization", "get-a-webhook-configuration-for-a-repository"},
	{"PATCH", "/{hook_id}/config", true, (*Routes).updateConfig,
		"update-a-webhook-configuration-for-an-organization", "update-a-webhook-configuration-for-a-repository"},
	{"GET", "/{hook_id}/deliveries", false, (*Routes).listDeliveries,
		"list-deliveries-for-an-organization-webhook", "list-deliveries-for-a-repository-webhook"},
	{"GET", "/{hook_id}/deliveries/{delivery_id}", false, (*Routes).getDelivery,
		"get-a-webhook-delivery-for-an-organization-webhook", "get-a-delivery-for-a-repository-webhook"},
	{"POST", "/{hook_id}/deliveries/{delivery_id}/attempts", true, (*Routes).redeliver,
		"redeliver-a-delivery-for-an-organization-webhook", "redeliver-a-delivery-for-a-repository-webhook"},
	{"POST", "/{hook_id}/pings", true, (*Routes).ping, "ping-an-organization-webhook", "ping-a-repository-webhook"},
}

// The prefixes of the routes of organizations' and repositories' hooks,
// and their documentation pages.
const (
	orgHooksPath  = "/orgs/{org}/hooks"
	repoHooksPath = "/repos/{owner}/{repo}/hooks"
	orgHooksDoc   = "https://docs.github.com/rest/orgs/webhooks"
	repoHooksDoc  = "https://docs.github.com/rest/repos/webhooks"
)

// register registers every route, and a 405 answer for the other methods of
// each route's path.
func (rt *Routes) register() {
	allowed := map[string][]string{}
	for _, org := range []bool{true, false} {
		for _, route := range hookRoutes {
			path, doc := repoHooksPath+route.suffix, repoHooksDoc+"#"+route.repoAnchor
			if org {
				path, doc = orgHooksPath+route.suffix, orgHooksDoc+"#"+route.orgAnchor
			}
			rt.mux.HandleFunc(route.method+" "+path, func(w http.ResponseWriter, r *http.Request) {
				rt.serve(w.(*statusWriter), r, &hookCall{route: route, org: org, doc: doc})
			})
			allowed[path] = append(allowed[path], route.method)
		}
	}
	for path, methods := range allowed {
		allow := strings.Join(methods, ", ")
		rt.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			rt.answerError(w, r, &hookCall{}, &answer{status: http.StatusMethodNotAllowed,
				message: "Method Not Allowed. This path accepts " + allow + "."})
		})
	}
}

// ServeHTTP serves one request to a webhook route; any other path is 404.
// When the answer was given before the request's body was read to its end,
// it sends the answer, then reads the rest of the body, within the routes'
// bound, so that the connection closes without a reset while the client
// still sends (internal/earlyanswer).
func (rt *Routes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sw := &statusWriter{ResponseWriter: w, bodyPending: earlyanswer.Pending(r)}
	w.Header().Set(rt.header.requestID, rand.Text()[:16])
	if _, pattern := rt.mux.Handler(r); pattern == "" {
		rt.answerError(sw, r, &hookCall{}, errNotFound)
	} else {
		rt.mux.ServeHTTP(sw, r)
	}
	if sw.bodyPending {
		earlyanswer.Finish(sw, r, rt.maxBody, sw.bodyRead)
	}
}

// hookCall is one request to one route, as it is being served.
type hookCall struct {
	route hookRoute
	org   bool   // an organization's route
	doc   string // the route's documentation
	r     *http.Request
	w     *statusWriter

	principal *issuefields.Principal
	scope     Scope
	repo      *issuefields.Repository // for a repository's route
	owner     string                  // the organization's login, or the repository's full name, for messages
}

// serve runs the pipeline of every route: version, authentication, the
// scope and authorization, then the route's operation.
func (rt *Routes) serve(w *statusWriter, r *http.Request, c *hookCall) {
	start := time.Now()
	c.r, c.w = r, w
	w.Header().Set(rt.header.permissions, c.permission())
	err := rt.selectVersion(c)
	if err == nil {
		err = rt.authenticate(c)
	}
	if err == nil {
		err = rt.findScope(c)
	}
	if err == nil {
		err = rt.authorize(c)
	}
	if err == nil {
		err = c.route.serve(rt, c)
	}
	if err != nil {
		rt.answerError(c.w, r, c, err)
	}
	login := ""
	if c.principal != nil {
		login = c.principal.Login
	}
	rt.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
		slog.String("request_id", w.Header().Get(rt.header.requestID)),
		slog.String("method", r.Method),
		slog.String("route", r.Pattern[strings.IndexByte(r.Pattern, ' ')+1:]), // without the method, as the API's lines
		slog.Int("status", w.status),
		slog.Duration("duration", time.Since(start)),
		slog.String("login", login))
}

// statusWriter is the ResponseWriter a request is served through. It
// remembers the status of the answer, and closes the connection after an
// answer given before the body was read to its end: otherwise net/http would
// read what is left of the body before it sends the answer (ServeHTTP reads
// it after the answer instead).
type statusWriter struct {
	http.ResponseWriter
	status int
	// bodyPending is set while the request has a body, over HTTP/1, that
	// has not been read to its end, and bodyRead counts the bytes of it
	// that readObject read.
	bodyPending bool
	bodyRead    int64
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
		if w.bodyPending {
			w.Header().Set("Connection", "close")
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// permission returns the X-Accepted-<Vendor>-Permissions of c's route.
func (c *hookCall) permission() string {
	name, level := "repository_hooks", "read"
	if c.org {
		name = "organization_hooks"
	}
	if c.route.write {
		level = "write"
	}
	return name + "=" + level
}

// selectVersion sets the API version that serves c on the answer, or returns
// the 400 of a version the routes do not serve.
func (rt *Routes) selectVersion(c *hookCall) error {
	values := c.r.Header[rt.header.version]
	version := issuefields.APIVersion
	for i, v := range values {
		if i > 0 && v != values[0] {
			return &answer{status: http.StatusBadRequest,
				message: rt.header.version + " was sent more than once with different values; send it once."}
		}
		version = v
	}
	if version != issuefields.APIVersion && version != legacyAPIVersion {
		return &answer{status: http.StatusBadRequest, message: fmt.Sprintf("%s %q is not supported. Supported versions are %s (the default) and %s.",
			rt.header.version, version, issuefields.APIVersion, legacyAPIVersion)}
	}
	c.w.Header().Set(rt.header.versionSelected, version)
	return nil
}

// authenticate verifies the token of c's request, if it carries one.
func (rt *Routes) authenticate(c *hookCall) error {
	values := c.r.Header["Authorization"]
	if len(values) == 0 {
		return nil
	}
	scheme, token, _ := strings.Cut(strings.TrimSpace(values[0]), " ")
	token = strings.TrimSpace(token)
	if len(values) > 1 || !strings.EqualFold(scheme, "bearer") && !strings.EqualFold(scheme, "token") || !visibleASCII(token) {
		return errBadCredentials
	}
	p, err := rt.verifier.VerifyToken(c.r.Context(), token)
	switch {
	case errors.Is(err, issuefields.ErrBadCredentials):
		return errBadCredentials
	case err != nil:
		return fmt.Errorf("verifying a token: %w", redact(err, token))
	case p == nil:
		return errors.New("the TokenVerifier returned no Principal and no error")
	}
	c.principal = p
	return nil
}

// visibleASCII reports whether s is not empty and all visible ASCII.
func visibleASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return s != ""
}

// redact returns err with token cut out of its text, for the log.
func redact(err error, token string) error { return &redactedError{err: err, token: token} }

// redactedError is an error of a TokenVerifier with the token cut out of its
// text.
type redactedError struct {
	err   error
	token string
}

func (e *redactedError) Error() string { return strings.ReplaceAll(e.err.Error(), e.token, "[token]") }

func (e *redactedError) Unwrap() error { return e.err }

// findScope finds the organization or the repository of c's path, and the
// scope of its hooks. One that does not exist is 404.
func (rt *Routes) findScope(c *hookCall) error {
	if c.org {
		org := c.r.PathValue("org")
		if rt.fields == nil {
			return errNotFound
		}
		if _, err := rt.fields.OrganizationFields(c.r.Context(), org); err != nil {
			return err
		}
		c.scope, c.owner = Scope{Organization: org}, org
		return nil
	}
	snap, err := rt.store.Snapshot(c.r.Context(), c.r.PathValue("owner"), c.r.PathValue("repo"), 1)
	if err != nil {
		return err
	}
	c.repo = &snap.Repository
	c.scope, c.owner = Scope{RepositoryID: snap.Repository.ID}, snap.Repository.Owner+"/"+snap.Repository.Name
	return nil
}

// hookID returns the hook_id of c's path, or 404.
func (c *hookCall) hookID() (int64, error) { return pathID(c.r, "hook_id") }

// pathID returns the positive integer path value name of r, or 404.
func pathID(r *http.Request, name string) (int64, error) {
	s := r.PathValue(name)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || s[0] == '0' || s[0] == '+' {
		return 0, errNotFound
	}
	return n, nil
}

// answer is an error answer of the routes: a status, a message, and for
// 422 the errors of GitHub's validation-error.
type answer struct {
	status  int
	message string
	errors  []validationItem
}

func (a *answer) Error() string { return a.message }

// validationItem is one item of the errors of a 422.
type validationItem struct {
	Resource string `json:"resource"`
	Field    string `json:"field,omitempty"`
	Code     string `json:"code"`
	Message  string `json:"message,omitempty"`
}

// The answers the routes share.
var (
	errNotFound          = &answer{status: http.StatusNotFound, message: "Not Found"}
	errBadCredentials    = &answer{status: http.StatusUnauthorized, message: "Bad credentials"}
	errRequiresAuth      = &answer{status: http.StatusUnauthorized, message: "Requires authentication"}
	errNotAccessibleBase = "Resource not accessible by "
)

// invalid returns the 422 of the problems of a hook's body.
func invalid(items ...validationItem) error {
	return &answer{status: http.StatusUnprocessableEntity, message: "Validation Failed", errors: items}
}

// answerError answers err: an *answer as it says, an error of the store by
// its sentinel, and anything else as a 500 whose cause is logged.
func (rt *Routes) answerError(w http.ResponseWriter, r *http.Request, c *hookCall, err error) {
	a := &answer{status: http.StatusInternalServerError, message: "Internal server error. The failure was logged with this request's id."}
	switch {
	case errors.As(err, &a):
	case errors.Is(err, issuefields.ErrNotFound):
		a = errNotFound
	case errors.Is(err, issuefields.ErrUnavailable):
		a = &answer{status: http.StatusServiceUnavailable, message: "The service is temporarily unavailable. Please retry later."}
		w.Header().Set("Retry-After", "1")
	}
	if a.status >= 500 {
		rt.log.LogAttrs(r.Context(), slog.LevelError, "request failed",
			slog.String("request_id", w.Header().Get(rt.header.requestID)), slog.Int("status", a.status), slog.Any("error", err))
	}
	doc := c.doc
	if doc == "" {
		doc = repoHooksDoc
	}
	body := struct {
		Message          string           `json:"message"`
		DocumentationURL string           `json:"documentation_url"`
		Status           string           `json:"status"`
		Errors           []validationItem `json:"errors,omitempty"`
	}{a.message, doc, strconv.Itoa(a.status), a.errors}
	writeJSON(w, a.status, body)
}

// writeJSON answers with status and v as JSON, followed by a newline. v is
// encoded before anything is sent, so a failure to encode is a clean 500.
// The answer says its length, so that it is whole when ServeHTTP sends it
// before the handler is done.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "Internal server error", http.StatusInternalServerError)
		return
	}
	body = append(body, '\n')
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// ctx returns the context of the store calls of c.
func (c *hookCall) ctx() context.Context { return c.r.Context() }
