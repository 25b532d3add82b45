package issuefields

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/textproto"
	"regexp"
	"time"

	"github.com/issuefields/issuefields/internal/reponame"
)

// Config configures a Handler. Store and Verifier are required; every other
// field has a default, given in its comment, that its zero value selects.
type Config struct {
	// Store keeps fields, repositories, issues and values. Required.
	Store Store

	// Verifier turns bearer tokens into principals. Required: there is no
	// default, so that no configuration lets an anonymous caller write.
	Verifier TokenVerifier

	// Vendor is the word in the names of the API's headers:
	// X-<Vendor>-Api-Version, X-<Vendor>-Api-Version-Selected,
	// X-Accepted-<Vendor>-Permissions and X-<Vendor>-Request-Id. The zero
	// value means "Service"; "GitHub" gives GitHub's header names. It must
	// be letters and digits.
	Vendor string

	// DocumentationURL is the address that error bodies point to in their
	// documentation_url member, with an anchor per operation. The zero value
	// means DefaultDocumentationURL.
	DocumentationURL string

	// MaxBodyBytes is the largest request body the handler reads; a larger
	// one is refused with 413. The zero value means DefaultMaxBodyBytes.
	MaxBodyBytes int64

	// Notifier is told of every write that changed something. The zero
	// value means DiscardNotifier.
	Notifier Notifier

	// NotifyTimeout bounds each call of the Notifier. The zero value means
	// DefaultNotifyTimeout.
	NotifyTimeout time.Duration

	// WriteLimits is the secondary rate limit on add, set and delete, per
	// principal. The zero value means DefaultWritesPerMinute and
	// DefaultWritesPerHour.
	WriteLimits WriteLimits

	// MaxInFlight is the most requests the handler serves at once; more are
	// answered at once with 503 and Retry-After instead of waiting in a queue
	// without bound. The zero value means no limit.
	MaxInFlight int

	// ListCacheBytes is the memory the handler may use to keep the lists it
	// rendered, one per issue, so that it can answer a list again without
	// rendering it while its ETag (the issue's values and its
	// organization's fields) stays the same. The zero value means
	// DefaultListCacheBytes; a negative value keeps no lists.
	ListCacheBytes int

	// Logger receives one line per request (request id, method, route,
	// status, duration, caller's login; see RequestLine) and the causes of
	// 500 and 503 answers. Tokens are never logged. The zero value means
	// slog.Default(). A logger whose handler is a RequestLogHandler gets the
	// request lines through it.
	Logger *slog.Logger
}

// DefaultNotifyTimeout bounds each call of the Notifier when
// Config.NotifyTimeout is zero.
const DefaultNotifyTimeout = 5 * time.Second

// DefaultDocumentationURL is the documentation address of error bodies when
// Config.DocumentationURL is empty: the public documentation of the API this
// package serves.
const DefaultDocumentationURL = "https://docs.github.com/rest/issues/issue-field-values"

// Supported values of the X-<Vendor>-Api-Version request header. A request
// without the header is served as DefaultAPIVersion.
const (
	DefaultAPIVersion = "2026-03-10"
	LegacyAPIVersion  = "2022-11-28"
)

// Handler serves the Issue Field Values API. It is an http.Handler, safe for
// concurrent use, created with New.
type Handler struct {
	store Store
	// fieldManager is store as a FieldManager, or nil.
	fieldManager FieldManager
	// snapshots and updater are the store's optional interfaces, or nil.
	snapshots    Snapshotter
	updater      Updater
	kept         SnapshotKeeper
	verifier     TokenVerifier
	docURL       string
	maxBodyBytes int64
	log          *slog.Logger
	// requestLog is log's handler as a RequestLogHandler, or nil.
	requestLog    RequestLogHandler
	notifier      Notifier
	notifyTimeout time.Duration
	inFlight      inFlightLimit
	writeLimiter  *writeLimiter
	header        headerNames
	ids           *requestIDs
	lists         *listCache
	fieldSums     *fieldSums
	mux           *http.ServeMux
}

// headerNames are the names of the headers the handler writes, in canonical
// form, the vendor-specific ones built from Config.Vendor.
type headerNames struct {
	version, versionSelected, permissions, requestID, etag string
}

var vendorPattern = regexp.MustCompile(`^[A-Za-z0-9]+$`)

// New returns a Handler for cfg, or an error that names what is missing or
// wrong in cfg.
func New(cfg Config) (*Handler, error) {
	var errs []error
	if cfg.Store == nil {
		errs = append(errs, errors.New("Config.Store is nil: the handler needs a Store to keep values (memstore.New() gives an in-memory one)"))
	}
	if cfg.Verifier == nil {
		errs = append(errs, errors.New("Config.Verifier is nil: the handler needs a TokenVerifier to authenticate callers"))
	}
	if cfg.Vendor == "" {
		cfg.Vendor = "Service"
	}
	if !vendorPattern.MatchString(cfg.Vendor) {
		errs = append(errs, fmt.Errorf("Config.Vendor %q is not letters and digits", cfg.Vendor))
	}
	if cfg.NotifyTimeout < 0 {
		errs = append(errs, fmt.Errorf("Config.NotifyTimeout is negative (%v)", cfg.NotifyTimeout))
	}
	if cfg.MaxInFlight < 0 {
		errs = append(errs, fmt.Errorf("Config.MaxInFlight is negative (%d)", cfg.MaxInFlight))
	}
	if cfg.MaxBodyBytes < 0 {
		errs = append(errs, fmt.Errorf("Config.MaxBodyBytes is negative (%d)", cfg.MaxBodyBytes))
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("issuefields.New: %w", errors.Join(errs...))
	}
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.DocumentationURL == "" {
		cfg.DocumentationURL = DefaultDocumentationURL
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Notifier == nil {
		cfg.Notifier = DiscardNotifier
	}
	if cfg.NotifyTimeout == 0 {
		cfg.NotifyTimeout = DefaultNotifyTimeout
	}
	switch {
	case cfg.ListCacheBytes == 0:
		cfg.ListCacheBytes = DefaultListCacheBytes
	case cfg.ListCacheBytes < 0:
		cfg.ListCacheBytes = 0
	}
	h := &Handler{
		store:         cfg.Store,
		verifier:      cfg.Verifier,
		docURL:        cfg.DocumentationURL,
		maxBodyBytes:  cfg.MaxBodyBytes,
		log:           cfg.Logger,
		notifier:      cfg.Notifier,
		notifyTimeout: cfg.NotifyTimeout,
		inFlight:      newInFlightLimit(cfg.MaxInFlight),
		writeLimiter:  newWriteLimiter(cfg.WriteLimits),
		header: headerNames{
			version:         textproto.CanonicalMIMEHeaderKey("X-" + cfg.Vendor + "-Api-Version"),
			versionSelected: textproto.CanonicalMIMEHeaderKey("X-" + cfg.Vendor + "-Api-Version-Selected"),
			permissions:     textproto.CanonicalMIMEHeaderKey("X-Accepted-" + cfg.Vendor + "-Permissions"),
			requestID:       textproto.CanonicalMIMEHeaderKey("X-" + cfg.Vendor + "-Request-Id"),
			etag:            textproto.CanonicalMIMEHeaderKey("ETag"),
		},
		ids:       newRequestIDs(),
		lists:     newListCache(cfg.ListCacheBytes),
		fieldSums: newFieldSums(),
		mux:       http.NewServeMux(),
	}
	h.requestLog, _ = cfg.Logger.Handler().(RequestLogHandler)
	h.fieldManager, _ = cfg.Store.(FieldManager)
	h.snapshots, _ = cfg.Store.(Snapshotter)
	h.updater, _ = cfg.Store.(Updater)
	if h.snapshots != nil {
		h.kept, _ = cfg.Store.(SnapshotKeeper)
	}
	h.registerRoutes()
	return h, nil
}

// ServeHTTP serves one request of the API. The request gets an id and the
// recorder that answers it (respond.go), is shed when MaxInFlight requests are
// being served (overload.go), and goes through the route table (routes.go) to
// serveRoute: resolve decides who may do what (auth.go) and finds the issue,
// then the route's operation runs. Every error on the way becomes its answer
// in one place, statusTable (errors.go).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := h.startRequest(w, r)
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
		version = DefaultAPIVersion
	case DefaultAPIVersion, LegacyAPIVersion:
	default:
		h.writeError(w, r, rt, unsupportedVersion(h.header.version, version))
		return false
	}
	setHeader(w, h.header.versionSelected, version)
	return true
}

// call is one request to one route, as it is being served.
type call struct {
	w         *recorder
	r         *http.Request
	route     *route
	principal *Principal
	issue     Issue
	// fieldID is the issue_field_id of a path that has one.
	fieldID int64
	// org is the organization of a field management route, as the path
	// spells it, and orgFields its fields when the request was authorized.
	org       string
	orgFields []Field
	// snapshot is what the store's Snapshotter found for the request, when
	// it has one.
	snapshot *Snapshot
	// keptCheck is the check of a snapshot that the store's SnapshotKeeper
	// kept in memory, or nil for a snapshot read from the store.
	keptCheck any
	// limited and limitErr are the secondary rate limit's verdict on the
	// request, once asked; items and itemsErr are the body of an add or
	// set, once read. A request served again from a fresh snapshot keeps
	// them.
	limited  bool
	limitErr error
	bodyRead bool
	items    [][]byte
	itemsErr error
	// context is r's context, with the principal once resolve knows it.
	context context.Context
	// withPrincipal is the context with the principal, kept here so that
	// making it allocates nothing.
	withPrincipal principalContext
}

// ctx returns the context that the store, the verifier and the notifier get.
func (c *call) ctx() context.Context { return c.context }

// serveRoute serves a request that matched rt.
func (h *Handler) serveRoute(rt *route, w http.ResponseWriter, r *http.Request) {
	rec := w.(*recorder)
	rec.permissions = rt.permissions
	if !h.selectVersion(rec, r, rt) {
		return
	}
	c := &rec.call
	*c = call{w: rec, r: r, route: rt, context: r.Context()}
	err := rt.resolve(h, c)
	if err == nil {
		err = rt.serve(h, c)
	}
	if restsOnKept(c, err) {
		err = h.serveAgain(rt, c, err)
	}
	if err != nil {
		h.writeError(rec, c.r.WithContext(c.ctx()), rt, err)
	}
}

// resolve authenticates and authorizes the caller and finds the issue of c's
// path, answering a moved repository or a transferred issue with a redirect.
// Authorization is decided before the issue is looked up and before the body
// is read.
func (h *Handler) resolve(c *call) error {
	_, ok := parsePositiveInt(c.r.PathValue("issue_number"))
	if !ok || reponame.HasGitSuffix(c.r.PathValue("repo")) {
		return ErrNotFound
	}
	if c.route.hasFieldID {
		if c.fieldID, ok = parsePositiveInt(c.r.PathValue("issue_field_id")); !ok {
			return ErrNotFound
		}
	}
	if err := h.identify(c); err != nil {
		return err
	}
	if c.principal != nil {
		if err := checkKind(c.route.op, c.principal); err != nil {
			return err
		}
	}
	if h.kept != nil && c.route.writes() {
		h.useKept(c, "")
	}
	return h.locate(c)
}

// maxKeptAttempts bounds how often a write is prepared from snapshots that
// the store kept in memory before it is decided from a snapshot of the store.
const maxKeptAttempts = 3

// useKept gives c the snapshot that the store keeps in memory for c's path,
// if it keeps one, and its version is not stale.
func (h *Handler) useKept(c *call, stale Version) {
	number, _ := parsePositiveInt(c.r.PathValue("issue_number"))
	snapshot, check, ok := h.kept.KeptSnapshot(c.r.PathValue("owner"), c.r.PathValue("repo"), number)
	if ok && snapshot.Version != stale {
		c.snapshot, c.keptCheck = &snapshot, check
	}
}

// restsOnKept reports whether err, the answer to c, may rest on a snapshot
// that the store kept in memory, and so be stale. An unavailable store or a
// client gone says nothing of the store's state.
func restsOnKept(c *call, err error) bool {
	return err != nil && c.keptCheck != nil && !errors.Is(err, ErrUnavailable) && c.ctx().Err() == nil
}

// serveAgain serves c again after rt answered it with err from a snapshot
// that the store kept in memory, which may be stale: no such answer reaches
// the client. When the write did not commit because the issue's kept version
// was stale and the store keeps a newer one now (another write of this
// process committed meanwhile), the write is prepared from that one, at most
// maxKeptAttempts times in all; otherwise it is decided from a snapshot of
// the store, as without kept snapshots.
func (h *Handler) serveAgain(rt *route, c *call, err error) error {
	for attempt := 1; restsOnKept(c, err); attempt++ {
		stale := c.snapshot.Version
		c.keptCheck, c.snapshot, c.issue = nil, nil, Issue{}
		if attempt < maxKeptAttempts && errors.Is(err, errKeptSnapshotStale) {
			h.useKept(c, stale)
		}
		if err = h.locate(c); err == nil {
			err = rt.serve(h, c)
		}
	}
	return err
}

// locate finds the repository and the issue of c's path, authorizes the
// caller on them, and answers a moved repository or a transferred issue with
// a redirect. It reads a snapshot from the store unless c has a kept one.
func (h *Handler) locate(c *call) error {
	owner, name := c.r.PathValue("owner"), c.r.PathValue("repo")
	number, _ := parsePositiveInt(c.r.PathValue("issue_number"))
	var repo Repository
	var err error
	switch {
	case c.snapshot != nil:
		repo = c.snapshot.Repository
	case h.snapshots != nil:
		var snapshot Snapshot
		snapshot, err = h.snapshots.Snapshot(c.ctx(), owner, name, number)
		c.snapshot, repo = &snapshot, snapshot.Repository
	default:
		repo, err = h.store.Repository(c.ctx(), owner, name)
	}
	if err != nil {
		return err
	}
	if err := Authorize(c.ctx(), c.route.op, repo, c.principal); err != nil {
		return err
	}
	if !reponame.Same(repo.Owner, owner) || !reponame.Same(repo.Name, name) {
		return c.redirect(repo, number)
	}
	if err := h.limitWrites(c); err != nil {
		return err
	}
	issue, err := h.findIssue(c, repo, number)
	if err != nil {
		return err
	}
	if issue.Repository.ID != repo.ID {
		// The issue moved to another repository: only a caller who may see
		// that repository learns where.
		if err := Authorize(c.ctx(), c.route.op, issue.Repository, c.principal); err != nil {
			if a := answerTo(err, c.route); a.status == http.StatusNotFound || a.status >= 500 {
				return err
			}
		}
	}
	if issue.Repository.ID != repo.ID || issue.Number != number {
		return c.redirect(issue.Repository, issue.Number)
	}
	c.issue = issue
	return nil
}

// identify authenticates the caller of c, if the request carries
// credentials, and gives c's context the principal.
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
// who is authorized; it lets other operations through. A request is counted
// once, even when it is decided again from a fresh snapshot.
func (h *Handler) limitWrites(c *call) error {
	if !c.route.writes() || c.limited {
		return c.limitErr
	}
	c.limited = true
	if !h.writeLimiter.limits() {
		return nil // without building the principal's key
	}
	if ok, wait := h.writeLimiter.allow(string(c.principal.Kind) + ":" + c.principal.Login); !ok {
		c.limitErr = secondaryRateLimited(wait)
	}
	return c.limitErr
}

// findIssue finds issue number of repo: the snapshot's, when the store gave
// one.
func (h *Handler) findIssue(c *call, repo Repository, number int64) (Issue, error) {
	if c.snapshot != nil {
		return c.snapshot.Issue, c.snapshot.IssueErr
	}
	return h.store.Issue(c.ctx(), repo, number)
}

// fields returns the fields of the issue's organization: the snapshot's, when
// the store gave one.
func (h *Handler) fields(c *call) ([]Field, error) {
	if c.snapshot != nil {
		return c.snapshot.Fields, nil
	}
	return h.store.Fields(c.ctx(), c.issue.Repository)
}

// values returns the issue's values and their version: the snapshot's, when
// the store gave one.
func (h *Handler) values(c *call) ([]Value, Version, error) {
	if c.snapshot != nil {
		return c.snapshot.Values, c.snapshot.Version, nil
	}
	return h.store.Values(c.ctx(), c.issue.Key())
}

// listValues serves GET: one page of the issue's values.
func (h *Handler) listValues(c *call) error {
	fields, err := h.fields(c)
	if err != nil {
		return err
	}
	key := c.issue.Key()
	values, version, err := h.values(c)
	if err != nil {
		return err
	}
	// A kept list has the ETag; without one, a 304 needs only the ETag,
	// and the list is rendered after the check.
	sum := etagSumOf(key, version, h.fieldSums.of(fields))
	list := h.lists.get(key, sum)
	var tag string
	if list != nil {
		tag = list.etag
	} else {
		tag = formatETag(sum)
	}
	c.w.setHeader(h.header.etag, tag)
	if etagListMatches(headerList(c.r, "If-None-Match"), tag, true) {
		c.w.WriteHeader(http.StatusNotModified)
		return nil
	}
	if list == nil {
		list = renderList(key, fields, values, sum)
		h.lists.put(key, list)
	}
	p := pageOf(c.r.URL.RawQuery, list.count())
	if link := p.link(c.r); link != "" {
		c.w.setHeader("Link", link)
	}
	writeBody(c.w, http.StatusOK, list.items(p.bounds(list.count())))
	return nil
}

// addValues serves POST: the listed fields get their new values, others keep theirs.
func (h *Handler) addValues(c *call) error { return h.writeValues(c, ActionAdded, true, merge) }

// setValues serves PUT: the issue holds exactly the listed values afterwards.
func (h *Handler) setValues(c *call) error { return h.writeValues(c, ActionSet, false, replaceAll) }

// writeValues reads and validates the body of an add or set, applies it with
// the mutation that newMutation makes of the validated values, and answers
// with the issue's whole list.
func (h *Handler) writeValues(c *call, action Action, allowArrays bool, newMutation func([]Value) mutation) error {
	if !c.bodyRead {
		c.bodyRead = true
		c.items, c.itemsErr = readItems(c.w, c.r, h.maxBodyBytes, &c.w.bodyPending)
	}
	items, err := c.items, c.itemsErr
	if err != nil {
		return err
	}
	fields, result, err := h.writeChecked(c, action, func(fields []Field) (mutation, error) {
		updates, err := parseItems(items, fields, allowArrays)
		return newMutation(updates), err
	})
	if err != nil {
		return err
	}
	list := h.lists.list(c.issue.Key(), etagSumOf(c.issue.Key(), result.version, h.fieldSums.of(fields)), fields, result.after)
	c.w.setHeader(h.header.etag, list.etag)
	writeBody(c.w, http.StatusOK, list.body)
	return nil
}

// deleteValue serves DELETE: the field's value goes.
func (h *Handler) deleteValue(c *call) error {
	fields, result, err := h.writeChecked(c, ActionDeleted, func(fields []Field) (mutation, error) {
		if fieldByID(fields, c.fieldID) == nil {
			return nil, ErrNotFound
		}
		return removeField(c.fieldID), nil
	})
	if err != nil {
		return err
	}
	c.w.setHeader(h.header.etag, etagOf(c.issue.Key(), result.version, h.fieldSums.of(fields)))
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

// maxReplans bounds how often a write is validated again because the
// organization's fields changed while it was being committed.
const maxReplans = 3

// writeChecked validates a write against the fields of the issue's
// organization and commits it: plan turns the fields into the write's
// mutation, or into the error that refuses it. When the fields changed before
// the write could commit, it plans again with the new ones, so that no write
// stores a value of a field or an option that is gone.
func (h *Handler) writeChecked(c *call, action Action, plan func([]Field) (mutation, error)) ([]Field, commitResult, error) {
	fields, err := h.fields(c)
	for attempt := 1; ; attempt++ {
		if err != nil {
			return nil, commitResult{}, err
		}
		m, err := plan(fields)
		if err != nil {
			return nil, commitResult{}, err
		}
		result, err := h.write(c, action, fields, m)
		if err == nil || attempt == maxReplans {
			return fields, result, err
		}
		var changed *fieldsChanged // declared past a write that succeeded: errors.As moves it to the heap
		if !errors.As(err, &changed) {
			return fields, result, err
		}
		// The snapshot's values are older than the new fields.
		fields, c.snapshot = changed.fields, nil
	}
}

// write commits m on the issue of c under the request's If-Match, and tells
// the notifier when something changed. The caller sets the ETag of the
// result.
func (h *Handler) write(c *call, action Action, fields []Field, m mutation) (commitResult, error) {
	result, err := h.commit(c, fields, m)
	if err != nil {
		return result, err
	}
	if result.changed && h.notifier != DiscardNotifier {
		h.notify(c, newEvent(action, c.issue, issueURL(c.r, c.issue), c.principal, fields, result))
	}
	return result, nil
}

// notify gives e to the notifier, with a context that the client's disconnect
// does not cancel, bounded by the notify timeout. The write has committed:
// a failure or a panic of the notifier is logged and changes nothing else.
func (h *Handler) notify(c *call, e Event) {
	if len(e.Changes) == 0 {
		return
	}
	ctx, cancel := newNotifyContext(c.ctx(), h.notifyTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			h.log.LogAttrs(ctx, slog.LevelError, "notifier panicked",
				slog.String("request_id", c.w.id), slog.String("event_id", e.ID), slog.Any("panic", p))
		}
	}()
	if err := h.notifier.Notify(ctx, e); err != nil {
		h.log.LogAttrs(ctx, slog.LevelError, "notifier failed",
			slog.String("request_id", c.w.id), slog.String("event_id", e.ID), slog.Any("error", err))
	}
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
