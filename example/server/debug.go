package server

import (
	"context"
	"encoding/json"
	"expvar"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"strconv"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// metrics are the counters that the debug listener (-debug-addr) shows at
// /debug/vars, under the key "issuefields". They are not published in
// expvar's global registry, so that servers in one process count apart.
type metrics struct {
	// vars holds the maps below, and "webhook" when events go to one.
	vars expvar.Map
	// requests counts the API's requests by "route status", as the
	// handler's request log line names them; route is empty for a path
	// that matched none.
	requests expvar.Map
	// storeCalls counts the store's calls by method, and storeNanoseconds
	// adds up how long they took.
	storeCalls, storeNanoseconds expvar.Map
}

// newMetrics returns empty counters.
func newMetrics() *metrics {
	m := new(metrics)
	m.vars.Set("requests", &m.requests)
	m.vars.Set("store_calls", &m.storeCalls)
	m.vars.Set("store_nanoseconds", &m.storeNanoseconds)
	return m
}

// observeStore counts a call of the store's method that began at start.
func (m *metrics) observeStore(method string, start time.Time) {
	m.storeCalls.Add(method, 1)
	m.storeNanoseconds.Add(method, int64(time.Since(start)))
}

// showWebhook adds the counts of hook's deliveries and the length of its
// queue, under "webhook".
func (m *metrics) showWebhook(hook *webhook.Notifier) {
	m.vars.Set("webhook", expvar.Func(func() any {
		return struct {
			webhook.Stats
			Queued int
		}{hook.Stats(), hook.Queued()}
	}))
}

// countRequests returns a logger that writes what logger writes, and counts
// the handler's request lines in m whether or not logger writes them. The
// request line is where the handler names the route a request matched (its
// ServeMux pattern): a wrapper around the handler, behind http.StripPrefix,
// sees the status but not the route.
func (m *metrics) countRequests(logger *slog.Logger) *slog.Logger {
	return slog.New(requestCounter{Handler: logger.Handler(), requests: &m.requests})
}

// requestCounter is a slog.Handler and issuefields.RequestLogHandler that
// counts the handler's request lines by their route and status, and passes on
// the lines and records its Handler is enabled for.
type requestCounter struct {
	slog.Handler
	requests *expvar.Map
}

// Enabled reports true for Info, the level of the request lines.
func (c requestCounter) Enabled(ctx context.Context, level slog.Level) bool {
	return level == slog.LevelInfo || c.Handler.Enabled(ctx, level)
}

// Handle counts a request line, and passes r on if the Handler is enabled
// for its level.
func (c requestCounter) Handle(ctx context.Context, r slog.Record) error {
	if r.Level == slog.LevelInfo && r.Message == "request" {
		var route, status string
		r.Attrs(func(a slog.Attr) bool {
			switch a.Key {
			case "route":
				route = a.Value.String()
			case "status":
				status = strconv.FormatInt(a.Value.Int64(), 10)
			}
			return true
		})
		c.requests.Add(route+" "+status, 1)
	}
	if !c.Handler.Enabled(ctx, r.Level) {
		return nil
	}
	return c.Handler.Handle(ctx, r)
}

// LogRequest counts a request's line, and passes it on if the Handler is
// enabled for Info: as the line to a RequestLogHandler, as its record to
// another handler.
func (c requestCounter) LogRequest(ctx context.Context, line issuefields.RequestLine) error {
	c.requests.Add(line.Route+" "+strconv.Itoa(line.Status), 1)
	if !c.Handler.Enabled(ctx, slog.LevelInfo) {
		return nil
	}
	if lh, ok := c.Handler.(issuefields.RequestLogHandler); ok {
		return lh.LogRequest(ctx, line)
	}
	return c.Handler.Handle(ctx, line.Record())
}

// WithAttrs returns a requestCounter over the Handler with attrs.
func (c requestCounter) WithAttrs(attrs []slog.Attr) slog.Handler {
	return requestCounter{Handler: c.Handler.WithAttrs(attrs), requests: c.requests}
}

// WithGroup returns a requestCounter over the Handler with the group.
func (c requestCounter) WithGroup(name string) slog.Handler {
	return requestCounter{Handler: c.Handler.WithGroup(name), requests: c.requests}
}

// debugHandler serves Go's profiles under /debug/pprof/ and, at
// /debug/vars, expvar's variables (the command line and memory statistics)
// with m's counters under "issuefields".
func debugHandler(m *metrics) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("GET /debug/vars", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		fmt.Fprintf(w, "{\n")
		expvar.Do(func(kv expvar.KeyValue) {
			fmt.Fprintf(w, "%s: %s,\n", quote(kv.Key), kv.Value)
		})
		fmt.Fprintf(w, "%s: %s\n}\n", quote("issuefields"), m.vars.String())
	})
	return mux
}

// serveDebug serves debugHandler(m) on a listener of its own at addr, closing
// connections idle for idleTimeout, and returns its URL and a function that
// closes it. The debug listener is
// closed at once when the server stops: a profile in progress is cut short.
func serveDebug(addr string, m *metrics, idleTimeout time.Duration, errorLog *log.Logger) (url string, closeFn func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("%w (-debug-addr chooses another address)", err)
	}
	srv := &http.Server{Handler: debugHandler(m), ReadHeaderTimeout: readHeaderTimeout, IdleTimeout: idleTimeout, ErrorLog: errorLog}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

// quote returns s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
