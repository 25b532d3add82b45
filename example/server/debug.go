package server

import (
	"encoding/json"
	"expvar"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/http/pprof"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// counters are what the debug listener (-debug-addr) shows at /debug/vars,
// under the key "issuefields": the requests by status class, and the
// webhook deliveries' counts. They are not published in expvar's global
// registry, so that servers in one process count apart.
type counters struct {
	vars     expvar.Map
	requests expvar.Map
}

// newCounters returns counters with no request counted, which show the
// deliveries of notifier if it is a webhook.Notifier.
func newCounters(notifier issuefields.Notifier) *counters {
	m := new(counters)
	m.vars.Set("requests", &m.requests)
	if hook, ok := notifier.(*webhook.Notifier); ok {
		m.vars.Set("webhook", expvar.Func(func() any {
			return struct {
				webhook.Stats
				Queued int
			}{hook.Stats(), hook.Queued()}
		}))
	}
	return m
}

// count returns h with each answer counted by its status class: "2xx",
// "3xx", "4xx" or "5xx".
func (m *counters) count(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r)
		m.requests.Add(fmt.Sprintf("%dxx", sw.status/100), 1)
	})
}

// statusWriter is an http.ResponseWriter that notes the status it answers.
type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

// WriteHeader notes the first status written, and writes it.
func (w *statusWriter) WriteHeader(status int) {
	if !w.wrote && status >= 200 {
		w.status, w.wrote = status, true
	}
	w.ResponseWriter.WriteHeader(status)
}

// Write notes a status of 200 if none was written, and writes b.
func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

// Unwrap returns the ResponseWriter, for http.ResponseController.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// serveDebug serves Go's profiles under /debug/pprof/ and, at /debug/vars,
// expvar's variables (the command line and memory statistics) with m under
// "issuefields", on a listener of its own at addr. It returns the listener's
// URL and a function that closes it at once, cutting a profile in progress
// short.
func serveDebug(addr string, m *counters, errorLog *log.Logger) (url string, closeFn func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("%w (-debug-addr chooses another address)", err)
	}
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
			key, _ := json.Marshal(kv.Key)
			fmt.Fprintf(w, "%s: %s,\n", key, kv.Value)
		})
		fmt.Fprintf(w, "%q: %s\n}\n", "issuefields", m.vars.String())
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: headerTimeout, ErrorLog: errorLog}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}
