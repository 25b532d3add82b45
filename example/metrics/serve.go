package metrics

import (
	"encoding/json"
	"expvar"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/issuefields/issuefields/example/internal/nosniff"
	"github.com/issuefields/issuefields/webhook"
)

// headerTimeout bounds reading a request's headers on the debug listener, so
// that a client cannot hold a connection open by sending them slowly.
const headerTimeout = 10 * time.Second

// countsVar returns what /debug/vars shows under the key "issuefields", read
// from m when it is shown: the requests by status class, and the webhook
// deliveries' counts.
func countsVar(m *Metrics) expvar.Func {
	return func() any {
		requests := map[string]float64{}
		families, _ := m.registry.Gather()
		for _, f := range families {
			if f.GetName() != "issuefields_requests_total" {
				continue
			}
			for _, c := range f.GetMetric() {
				for _, l := range c.GetLabel() {
					if l.GetName() == "status" {
						requests[l.GetValue()[:1]+"xx"] += c.GetCounter().GetValue()
					}
				}
			}
		}
		hooks := m.deliveries.hooks
		return map[string]any{"requests": requests, "webhook": struct {
			webhook.Stats
			Queued int
		}{hooks.Stats(), hooks.Queued()}}
	}
}

// Serve serves, on a listener of its own at addr, Go's profiles under
// /debug/pprof/, m at /metrics in Prometheus's text format, and at
// /debug/vars expvar's variables (the command line and memory statistics)
// with m's counts under "issuefields": the requests by status class, and
// the webhook deliveries' counts. The listener logs its errors to errorLog,
// or to the log package's standard logger when it is nil. Serve returns
// the listener's URL, such as http://127.0.0.1:6060, and a function that
// closes it at once, cutting a profile in progress short; or the error of
// listening on addr. Every answer carries X-Content-Type-Options: nosniff.
func Serve(addr string, m *Metrics, errorLog *log.Logger) (url string, closeFn func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.Handle("GET /metrics", m.handler())
	vars := countsVar(m)
	mux.HandleFunc("GET /debug/vars", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		fmt.Fprintf(w, "{\n")
		expvar.Do(func(kv expvar.KeyValue) {
			key, _ := json.Marshal(kv.Key)
			fmt.Fprintf(w, "%s: %s,\n", key, kv.Value)
		})
		fmt.Fprintf(w, "%q: %s\n}\n", "issuefields", vars.String())
	})
	srv := &http.Server{Handler: nosniff.Handler(mux), ReadHeaderTimeout: headerTimeout, ErrorLog: errorLog}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}
