package standin

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/internal/jsonanswer"
	"github.com/issuefields/issuefields/example/internal/toolpath"
)

// Path is the path under which the tools are served.
const Path = toolpath.Root

// ErrNoReset is the error of a Config.Reset that cannot empty the server's
// store; the reset is then answered 501 with the error's message.
var ErrNoReset = errors.New("reset is not available for this store")

// Config configures the tools.
type Config struct {
	// AdminToken, if not "", is required from every client, on loopback or
	// not; "" serves the tools to loopback clients only, without a token.
	AdminToken string

	// Hosts are the values of the Host header that name the server, such
	// as "127.0.0.1:8080" and "localhost:8080"; a request with another
	// Host is refused.
	Hosts []string

	// Journal holds the recorded requests that the tools show and clear;
	// nil means none are recorded.
	Journal *Journal

	// Reset restores the state the server started with, and clears Journal.
	// An error that wraps ErrNoReset is answered 501 with its message; one
	// that wraps issuefields.ErrUnavailable (the store is busy or down)
	// 503 with Retry-After and its message, and logged; another one 500,
	// and logged. nil means that the server cannot reset.
	Reset func(ctx context.Context) error

	// State returns what the page shows of the server's data; nil means
	// that the page shows none.
	State func(ctx context.Context) (State, error)

	// Redeliver sends delivery deliveryID of hook hookID again, for the
	// page's Redeliver buttons. An error that wraps issuefields.ErrNotFound
	// is answered 404; one that wraps ErrNoRedelivery 422 with its message;
	// one that wraps webhook.ErrClosed, as the server stops, 503; another
	// one 500, and logged. nil means that there is no delivery to send
	// again.
	Redeliver func(ctx context.Context, hookID, deliveryID int64) error

	// Closing, once closed, ends the page's event streams, which otherwise
	// last until their clients go away: close it when the server's
	// graceful stop begins (http.Server.RegisterOnShutdown), so that the
	// stop does not wait for them. nil means never.
	Closing <-chan struct{}

	// Logger gets a failed reset or page; nil means slog.Default.
	Logger *slog.Logger

	// heartbeat is how often an event stream says that it is alive, and
	// writeBound the deadline of each write of an answer; zero means
	// the constants of these names. Tests shorten them.
	heartbeat, writeBound time.Duration
}

// New returns the handler of the tools, to mount at Path:
//
//	GET /_issuefields/             the page: the state and the recorded requests, as HTML
//	GET /_issuefields/events       the page's live update: an event "change" after each change
//	POST /_issuefields/hooks/{hook_id}/deliveries/{delivery_id}/redeliver
//	                               303 to the hook on the page; the delivery is sent again;
//	                               404 for an unknown hook or delivery, 422 for a delivery
//	                               too long to have been recorded whole, 503 while stopping
//	POST /_issuefields/reset       204; the start-up state again; 501 when the store cannot
//	                               be emptied, 503 with Retry-After when it is busy or down
//	GET /_issuefields/requests     200, the recorded requests, newest first
//	DELETE /_issuefields/requests  204; forgets them
//
// Another method on these paths is answered 405 with Allow, and another
// path 404, all with JSON bodies. Every route is behind the guard that the
// package's documentation describes. Each write of an answer has a deadline
// of 5 seconds, whatever the server's WriteTimeout, so that a client that
// stops reading holds nothing for long, while the event stream stays open
// for as long as its client reads.
func New(cfg Config) http.Handler {
	if cfg.Journal == nil {
		cfg.Journal = new(Journal)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.State == nil {
		cfg.State = noState
	}
	if cfg.Reset == nil {
		cfg.Reset = func(context.Context) error { return ErrNoReset }
	}
	cfg.heartbeat = cmp.Or(cfg.heartbeat, heartbeat)
	cfg.writeBound = cmp.Or(cfg.writeBound, writeBound)
	if cfg.Redeliver == nil {
		cfg.Redeliver = func(context.Context, int64, int64) error { return issuefields.ErrNotFound }
	}
	mux := http.NewServeMux()
	mux.HandleFunc(Path+"reset", methods(map[string]http.HandlerFunc{
		http.MethodPost: func(w http.ResponseWriter, r *http.Request) { reset(w, r, cfg) },
	}))
	mux.HandleFunc(Path+"requests", methods(map[string]http.HandlerFunc{
		http.MethodGet: func(w http.ResponseWriter, r *http.Request) { cfg.Journal.serveRequests(w) },
		http.MethodDelete: func(w http.ResponseWriter, r *http.Request) {
			cfg.Journal.Clear()
			w.WriteHeader(http.StatusNoContent)
		},
	}))
	mux.HandleFunc(Path+"{$}", methods(map[string]http.HandlerFunc{
		http.MethodGet: func(w http.ResponseWriter, r *http.Request) { page(w, r, cfg) },
	}))
	mux.HandleFunc(toolpath.Events, methods(map[string]http.HandlerFunc{
		http.MethodGet: func(w http.ResponseWriter, r *http.Request) { events(w, r, cfg) },
	}))
	mux.HandleFunc(Path+"hooks/{hook_id}/deliveries/{delivery_id}/redeliver", methods(map[string]http.HandlerFunc{
		http.MethodPost: func(w http.ResponseWriter, r *http.Request) { redeliver(w, r, cfg) },
	}))
	for _, name := range []string{"style.css", "page.js"} {
		mux.HandleFunc(Path+name, methods(map[string]http.HandlerFunc{http.MethodGet: asset(name)}))
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		jsonanswer.Write(w, http.StatusNotFound, message("Not Found"))
	})
	return withWriteDeadlines(guard(cfg, mux), cfg.writeBound)
}

// reset serves POST /_issuefields/reset with cfg.Reset.
func reset(w http.ResponseWriter, r *http.Request, cfg Config) {
	err := cfg.Reset(r.Context())
	switch {
	case err == nil:
		w.WriteHeader(http.StatusNoContent)
	case errors.Is(err, ErrNoReset):
		jsonanswer.Write(w, http.StatusNotImplemented, message(err.Error()))
	case errors.Is(err, issuefields.ErrUnavailable):
		cfg.Logger.LogAttrs(r.Context(), slog.LevelWarn, "reset not done", slog.Any("error", err))
		w.Header().Set("Retry-After", "1")
		jsonanswer.Write(w, http.StatusServiceUnavailable, message("The reset was not done, retry it: "+err.Error()))
	default:
		cfg.Logger.LogAttrs(r.Context(), slog.LevelError, "reset failed", slog.Any("error", err))
		jsonanswer.Write(w, http.StatusInternalServerError, message("The reset failed: the server's log says why"))
	}
}

// methods returns a handler that serves each method with its handler in
// byMethod, and any other with 405 and an Allow header.
func methods(byMethod map[string]http.HandlerFunc) http.HandlerFunc {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodDelete} {
		if byMethod[m] != nil {
			allow = append(allow, m)
		}
	}
	return func(w http.ResponseWriter, r *http.Request) {
		h := byMethod[r.Method]
		if h == nil {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			jsonanswer.Write(w, http.StatusMethodNotAllowed, message("Method Not Allowed"))
			return
		}
		h(w, r)
	}
}

// message returns an error body with msg.
func message(msg string) map[string]string { return map[string]string{"message": msg} }
