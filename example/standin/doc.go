// Package standin serves the example server's own tools under
// /_issuefields/, outside the API's prefix whatever it is: a page of the
// data the server holds, its hooks with their deliveries and the requests
// it got, for a person, which follows each change while it is open and
// redelivers a delivery at a button's press; and for test suites that use
// the server as a stand-in for GitHub's API, the recorded requests as JSON
// and a reset to the state the server started with.
//
// The tools read and change everything without a token of the API, so
// [New]'s handler serves them only to loopback clients unless an admin token
// is configured, which it then requires from every client; it refuses a
// request whose Origin is another site's, or whose Host does not name the
// server (DNS rebinding), and changes nothing on a GET.
//
// A [Source] gives the page its state, read from a store that holds the
// data and the hooks with their deliveries, and sends the deliveries that
// the page's buttons redeliver.
//
// A [Journal] records the API's requests in a ring, in memory, with no token
// and no secret in them: at most 1,000 records, which hold at most 8 MiB
// together, each with at most 2 KiB of path and query and 64 KiB of body.
//
// Each write of the tools' answers has a deadline of its own (5 seconds),
// whatever the server's WriteTimeout, so that a client that stops reading
// holds neither an answer's memory nor its connection for long.
package standin
