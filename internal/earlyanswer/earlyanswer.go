// Package earlyanswer lets an answer given before a request's body was read
// to its end reach the client, over HTTP/1.
//
// Such an answer carries Connection: close: otherwise net/http reads what is
// left of the body (up to 256 KB) before it sends the answer, waiting as long
// as the client takes to send it. But a connection closed while the client
// is still sending ends in a reset, which may destroy the answer before the
// client reads it (a client that sends its whole body before it reads gets
// a failed write instead). So once the handler has answered, Finish sends
// the answer and reads the rest of the body, within the body's bound, before
// the connection closes.
package earlyanswer

import (
	"io"
	"net/http"
)

// Pending reports whether r has a body, over HTTP/1, that is yet to be
// read. An answer given while the body is pending carries Connection: close,
// and the handler calls Finish once it has answered.
func Pending(r *http.Request) bool {
	return r.ProtoMajor == 1 && r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody
}

// Finish sends what w holds of the answer, then reads and discards the rest
// of r's body, so that the connection closes without a reset while the
// client still sends. limit is the most the handler reads of a body, and
// read what it read of this one. At most limit bytes of the body are read
// in all: a body over limit is left unread, and its client may see a reset.
// Reading stops, too, at the server's read deadline, and when the client
// stops sending.
func Finish(w http.ResponseWriter, r *http.Request, limit, read int64) {
	if r.ContentLength > limit || read >= limit {
		return
	}
	if err := http.NewResponseController(w).Flush(); err != nil {
		return // reading first would hold the answer back
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, limit-read))
}
