// Package toolpath names the paths of the example server's tools, for the
// package that serves them and for the metrics that count their requests,
// which need the paths and nothing else of the tools.
package toolpath

// Root is the path under which the tools are served.
const Root = "/_issuefields/"

// Events is the path of the page's event stream, which stays open for as
// long as the page does.
const Events = Root + "events"
