package issuefields

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/textproto"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// Config configures a Handler. Store and Verifier are required; every other
// field has a default, given in its comment, that its zero value selects.
type Config struct {
	// Store keeps repositories, issues, fields and values. Required. When it
	// is also a FieldManager, the handler serves the field management
	// routes too.
	Store Store

	// Verifier turns bearer tokens into principals. Required: there is no
	// default, so that no configuration lets an anonymous caller write.
	Verifier TokenVerifier

	// Notifier is told of every write that changed something. The zero
	// value tells nobody, and the handler then makes no events at all.
	Notifier Notifier

	// NotifyTimeout bounds each call of the Notifier. The zero value means
	// 5 seconds.
	NotifyTimeout time.Duration

	// Vendor is the word in the names of the API's headers:
	// X-<Vendor>-Api-Version, X-<Vendor>-Api-Version-Selected,
	// X-Accepted-<Vendor>-Permissions and X-<Vendor>-Request-Id. It must be
	// letters and digits. The zero value means "Service"; "GitHub" gives
	// GitHub's header names.
	Vendor string

	// BaseURL is the public address under which clients reach the handler,
	// such as https://api.example.com or https://example.com/api/v3: every
	// absolute URL the handler writes (Link, Location, the url of a
	// redirect's body) is under it. The zero value means the scheme, Host
	// and mount prefix of each request; a request's Host is the client's to
	// choose, so a host behind a proxy, or whose answers are cached, should
	// set it.
	BaseURL string

	// DocumentationURL is the address that the error bodies of the values
	// routes point to in their documentation_url member, with an anchor per
	// operation. The zero value means GitHub's page for these routes,
	// https://docs.github.com/rest/issues/issue-field-values.
	DocumentationURL string

	// MaxBodyBytes is the largest request body the handler reads; a larger
	// one is refused with 413. An answer given before the body's end (401,
	// a 26th item, …) is sent first, and the rest of a body within the bound
	// read after it, so that the client gets the answer; a client that keeps
	// sending past the bound may see its connection reset instead of the
	// 413. The zero value means 1 MiB.
	MaxBodyBytes int64

	// WriteLimits is the secondary rate limit on writes, per principal, of
	// the in-process limiter. The zero value means 80 writes a minute and
	// 500 an hour. It is not read when WriteLimiter is set.
	WriteLimits WriteLimits

	// WriteLimiter decides the secondary rate limit. The zero value means
	// NewWriteLimiter(WriteLimits), which counts the writes of this process
	// alone.
	WriteLimiter WriteLimiter

	// MaxInFlight is the most requests the handler serves at once; more are
	// answered at once with 503 and Retry-After instead of waiting in a queue
	// without bound. The zero value means no limit.
	MaxInFlight int

	// Routes are routes of the host's that the handler serves beside the
	// API's, through the pipeline of every request (see Route), such as
	// the webhook package's. A Route whose path matches a request that
	// one of the API's routes, or another Route, matches is refused by
	// New. The zero value serves the API's routes alone.
	Routes []Route

	// Logger receives one line per request at slog.LevelInfo (message
	// "request": request_id, method, route, status, duration and the
	// caller's login) and the causes of 500 and 503 answers at
	// slog.LevelError. Tokens are never logged. The zero value means
	// slog.Default().
	Logger *slog.Logger
}

// Defaults of Config, which the zero value of each field selects.
const (
	defaultNotifyTimeout    = 5 * time.Second
	defaultVendor           = "Service"
	defaultDocumentationURL = "https://docs.github.com/rest/issues/issue-field-values"
	defaultMaxBodyBytes     = 1 << 20
	defaultWritesPerMinute  = 80
	defaultWritesPerHour    = 500
	defaultWriteLimitKeys   = 10000
)

// APIVersion is the version of the API that the handler serves, and the value
// of the X-<Vendor>-Api-Version request header that asks for it. A request
// without the header is served as this version; one that sends the header
// may also ask for 2022-11-28, under which GitHub documents the same
// behaviour (and which go-github sends).
const APIVersion = "2026-03-10"

// legacyAPIVersion is the other version the handler accepts.
const legacyAPIVersion = "2022-11-28"

// Handler serves the Issue Field Values API. It is an http.Handler, safe for
// concurrent use, created with New.
type Handler struct {
	store Store
	// fields is store as a FieldManager, or nil.
	fields        FieldManager
	verifier      TokenVerifier
	notifier      Notifier // nil for none
	notifyTimeout time.Duration
	baseURL       string
	docURL        string
	maxBodyBytes  int64
	log           *slog.Logger
	inFlight      inFlightLimit
	writeLimiter  WriteLimiter
	header        headerNames
	ids           *requestIDs
	lists         *listCache
	fieldSums     *fieldSums
	kept          keptSnapshots
	turns         writeTurns
	mux           *http.ServeMux
}

// headerNames are the names of the headers the handler writes, in canonical
// form, the vendor-specific ones built from Config.Vendor.
type headerNames struct {
	version, versionSelected, permissions, requestID string
}

var vendorPattern = regexp.MustCompile(`^[A-Za-z0-9]+$`)

// New returns a Handler for cfg, or an error that names what is missing or
// wrong in cfg.
func New(cfg Config) (*Handler, error) {
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("issuefields.New: %w", err)
	}
	cfg.setDefaults()
	vendor := func(format string) string {
		return textproto.CanonicalMIMEHeaderKey(fmt.Sprintf(format, cfg.Vendor))
	}
	h := &Handler{
		store:         cfg.Store,
		verifier:      cfg.Verifier,
		notifier:      cfg.Notifier,
		notifyTimeout: cfg.NotifyTimeout,
		baseURL:       strings.TrimSuffix(cfg.BaseURL, "/"),
		docURL:        cfg.DocumentationURL,
		maxBodyBytes:  cfg.MaxBodyBytes,
		log:           cfg.Logger,
		inFlight:      newInFlightLimit(cfg.MaxInFlight),
		writeLimiter:  cfg.WriteLimiter,
		header: headerNames{
			version:         vendor("X-%s-Api-Version"),
			versionSelected: vendor("X-%s-Api-Version-Selected"),
			permissions:     vendor("X-Accepted-%s-Permissions"),
			requestID:       vendor("X-%s-Request-Id"),
		},
		ids:       newRequestIDs(),
		lists:     newListCache(listCacheBytes),
		fieldSums: newFieldSums(),
		mux:       http.NewServeMux(),
	}
	h.fields, _ = cfg.Store.(FieldManager)
	h.registerRoutes(cfg.Routes)
	return h, nil
}

// check reports what is missing or wrong in cfg.
func (cfg *Config) check() error {
	var errs []error
	if cfg.Store == nil {
		errs = append(errs, errors.New("Config.Store is nil: the handler needs a Store to keep values (memstore.New() gives an in-memory one)"))
	}
	if cfg.Verifier == nil {
		errs = append(errs, errors.New("Config.Verifier is nil: the handler needs a TokenVerifier to authenticate callers"))
	}
	if cfg.Vendor != "" && !vendorPattern.MatchString(cfg.Vendor) {
		errs = append(errs, fmt.Errorf("Config.Vendor %q is not letters and digits", cfg.Vendor))
	}
	if cfg.NotifyTimeout < 0 {
		errs = append(errs, fmt.Errorf("Config.NotifyTimeout is negative (%v)", cfg.NotifyTimeout))
	}
	if cfg.MaxInFlight < 0 {
		errs = append(errs, fmt.Errorf("Config.MaxInFlight is negative (%d)", cfg.MaxInFlight))
	}
	if u, err := url.Parse(cfg.BaseURL); cfg.BaseURL != "" && (err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.RawQuery != "") {
		errs = append(errs, fmt.Errorf("Config.BaseURL %q is not an absolute http or https URL without a query", cfg.BaseURL))
	}
	if cfg.MaxBodyBytes < 0 {
		errs = append(errs, fmt.Errorf("Config.MaxBodyBytes is negative (%d)", cfg.MaxBodyBytes))
	}
	errs = append(errs, checkRoutes(cfg.Routes)...)
	return errors.Join(errs...)
}

// setDefaults gives every field that has a zero value its default.
func (cfg *Config) setDefaults() {
	if cfg.Vendor == "" {
		cfg.Vendor = defaultVendor
	}
	if cfg.NotifyTimeout == 0 {
		cfg.NotifyTimeout = defaultNotifyTimeout
	}
	if cfg.DocumentationURL == "" {
		cfg.DocumentationURL = defaultDocumentationURL
	}
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = defaultMaxBodyBytes
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.WriteLimiter == nil {
		cfg.WriteLimiter = newWriteLimiter(cfg.WriteLimits)
	}
}
