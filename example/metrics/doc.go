// Package metrics counts the example server's requests and webhook
// deliveries, and serves the counts, with Go's profiles, on a debug listener
// apart from the API's.
//
// [New] returns the [Metrics] of one server, in a Prometheus registry of
// their own, so that servers in one process count apart. [Metrics.Count]
// wraps the server's handler to count each request by its route and status,
// with the route's template as the label rather than the path, so that the
// label has a few values whatever clients ask for; it leaves out the tools'
// event stream, which is open for as long as a page is. The webhook deliveries
// are read from the server's webhook.Notifier when the metrics are shown,
// and cost nothing more to count.
//
// [Serve] opens the debug listener: Go's profiles under /debug/pprof/, the
// metrics at /metrics in Prometheus's text format, and expvar's variables at
// /debug/vars with the counts under "issuefields". It has no
// authentication: keep it on loopback.
package metrics
