package ratelimit

import (
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/internal/bearer"
	"github.com/issuefields/issuefields/webhook"
)

// Config is the configuration of a Limiter.
type Config struct {
	// Limits are the budgets' sizes; a zero PerHour turns the limit off.
	Limits Limits
	// Verifier tells a principal from a bad token: the API's own, so that
	// a caller is counted as the API's handler then authenticates it.
	Verifier issuefields.TokenVerifier
	// Counter keeps the windows; nil means a NewMemory of its own.
	Counter Counter
	// Objects gives the user and installation IDs that the message of a
	// spent budget names, the same as the rest of the server shows.
	Objects webhook.Objects
	// MaxBodyBytes is the most of a refused request's body that the
	// Limiter reads after its answer, as the API's handler reads a body
	// (issuefields.Config.MaxBodyBytes); 0 means 1 MiB, that handler's
	// default.
	MaxBodyBytes int64
}

// defaultMaxBodyBytes is Config.MaxBodyBytes when it is 0.
const defaultMaxBodyBytes = 1 << 20

// A Limiter enforces the primary rate limit of Config in front of the API's
// handler (Handler). It is safe for concurrent use.
type Limiter struct {
	limits   Limits
	verifier issuefields.TokenVerifier
	counter  Counter
	objects  webhook.Objects
	maxBody  int64
}

// New returns the Limiter of cfg.
func New(cfg Config) *Limiter {
	l := &Limiter{limits: cfg.Limits, verifier: cfg.Verifier, counter: cfg.Counter, objects: cfg.Objects, maxBody: cfg.MaxBodyBytes}
	if l.counter == nil {
		l.counter = NewMemory(nil)
	}
	if l.maxBody == 0 {
		l.maxBody = defaultMaxBodyBytes
	}
	return l
}

// Reset makes every budget whole again, as at start-up.
func (l *Limiter) Reset() { l.counter.Reset() }

// budget is the budget that a request counts against.
type budget struct {
	key      string // the Counter's key: resource, then the caller
	resource string
	limit    int
	period   time.Duration
	// principal is the caller, or nil for one counted by its client
	// address, addr.
	principal *issuefields.Principal
	addr      string
}

// budgetOf returns the budget of r's caller for resource: the principal of
// r's token, or r's client address without a token or with a bad one.
func (l *Limiter) budgetOf(r *http.Request, resource string) budget {
	if p := l.principal(r); p != nil {
		limit, period := l.limits.budgetSize(resource, false)
		return budget{key: resource + "/" + string(p.Kind) + ":" + p.Login, resource: resource, limit: limit, period: period, principal: p}
	}
	addr, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		addr = r.RemoteAddr
	}
	limit, period := l.limits.budgetSize(resource, true)
	return budget{key: resource + "/address:" + addr, resource: resource, limit: limit, period: period, addr: addr}
}

// message returns GitHub's message for b's budget when it is spent, which
// names the user's or the installation's ID, as the rest of the server
// shows it, or the client's address.
func (l *Limiter) message(b budget) string {
	who := b.addr
	switch p := b.principal; {
	case p == nil:
	case p.Kind == issuefields.AppInstallationToken:
		who = "installation ID " + strconv.FormatInt(l.objects.InstallationID(p.Login), 10)
	default:
		who = "user ID " + strconv.FormatInt(l.objects.AccountID(p.Login), 10)
	}
	return "API rate limit exceeded for " + who + "."
}

// principal returns the principal of r's token, or nil for a request
// without a token or with one that the verifier refuses.
func (l *Limiter) principal(r *http.Request) *issuefields.Principal {
	token, ok := bearer.Token(r)
	if !ok || token == "" {
		return nil
	}
	p, err := l.verifier.VerifyToken(r.Context(), token)
	if err != nil {
		return nil
	}
	return p
}

// Handler returns api behind the limit: every request counts against its
// caller's budget, as the package says, and every answer carries the
// budget's headers. r.URL.Path is the path below the API's prefix. With
// the limit off, api itself serves every request but GET /rate_limit,
// which is answered 404 saying that rate limiting is not enabled, as GitHub
// Enterprise answers it.
func (l *Limiter) Handler(api http.Handler) http.Handler {
	if l.limits.PerHour == 0 {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if isRateLimitRoute(r) {
				writeNotEnabled(w)
				return
			}
			api.ServeHTTP(w, r)
		})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isRateLimitRoute(r) {
			l.serveRateLimit(w, r)
			return
		}
		b := l.budgetOf(r, resourceOf(r.URL.Path))
		used, reset, ok := l.counter.Spend(b.key, b.period, b.limit)
		used = min(used, b.limit) // a shared Counter may count past it
		setHeaders(w.Header(), b, used, reset)
		switch {
		case ok && conditional(r):
			api.ServeHTTP(&refunder{ResponseWriter: w, l: l, b: b, used: used, reset: reset}, r)
		case ok:
			api.ServeHTTP(w, r)
		case b.resource == GraphQL:
			api.ServeHTTP(w, r.WithContext(withRefusal(r.Context(), l.message(b))))
		default:
			writeExceeded(w, r, l.message(b), l.maxBody)
		}
	})
}

// isRateLimitRoute reports whether r asks for GET /rate_limit (or HEAD).
func isRateLimitRoute(r *http.Request) bool {
	return r.URL.Path == "/rate_limit" && (r.Method == http.MethodGet || r.Method == http.MethodHead)
}

// conditional reports whether r may be answered 304 Not Modified: whether
// it carries If-None-Match or If-Modified-Since.
func conditional(r *http.Request) bool {
	return r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != ""
}

// refunder is the ResponseWriter of a counted conditional request: an answer of 304
// gives the request back to its budget before its headers go out, and
// they show the budget without it.
type refunder struct {
	http.ResponseWriter
	l       *Limiter
	b       budget
	used    int
	reset   time.Time
	written bool
}

// WriteHeader gives the request back for a 304, then writes code.
func (w *refunder) WriteHeader(code int) {
	if !w.written && code >= 200 {
		w.written = true
		if code == http.StatusNotModified {
			w.l.counter.Refund(w.b.key, w.reset)
			setHeaders(w.Header(), w.b, w.used-1, w.reset)
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write notes that the answer has begun, and writes p.
func (w *refunder) Write(p []byte) (int, error) {
	w.written = true
	return w.ResponseWriter.Write(p)
}

// Unwrap returns the ResponseWriter, for http.ResponseController.
func (w *refunder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
