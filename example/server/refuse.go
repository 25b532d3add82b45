package server

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// refusalBound bounds each step of a refusal: the TLS handshake and reading
// the request's header, then writing the answer and waiting for the client to
// close.
const refusalBound = time.Second

// refusalReadLimit is the most a refusal reads of what the client sends.
const refusalReadLimit = 64 << 10

// maxRefusing is the most refusals under way at once; a connection refused
// past it is closed without an answer.
const maxRefusing = 64

// busyAnswer is the answer of a refused connection.
var busyAnswer = func() string {
	const body = "Service Unavailable: every connection the server keeps (-max-conns) is serving a request; retry in a second.\n"
	return fmt.Sprintf("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"+
		"X-Content-Type-Options: nosniff\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
}()

// refuser answers the connections that come when every connection at the
// bound serves a request: each gets busyAnswer, 503 with Retry-After, as
// HTTP/1.1, and is closed.
type refuser struct {
	// tls is nil in the clear; over TLS it is the server's configuration
	// offering HTTP/1.1 alone, so that the client reads the answer as
	// HTTP/1.1.
	tls *tls.Config
	// under holds a value for each refusal under way.
	under chan struct{}
}

// newRefuser returns the refuser of a server with the TLS configuration
// tlsConfig, or of one in the clear for a nil tlsConfig.
func newRefuser(tlsConfig *tls.Config) *refuser {
	r := &refuser{under: make(chan struct{}, maxRefusing)}
	if tlsConfig != nil {
		r.tls = tlsConfig.Clone()
		r.tls.NextProtos = []string{"http/1.1"}
	}
	return r
}

// start refuses c on a goroutine of its own, or closes it at once when
// maxRefusing refusals are under way.
func (r *refuser) start(c net.Conn) {
	select {
	case r.under <- struct{}{}:
		go func() {
			defer func() { <-r.under }()
			r.answer(c)
		}()
	default:
		c.Close()
	}
}

// answer completes c's TLS handshake, if any, reads its request's header
// (so that the client reads the answer as that of its request, not as one
// that came before it), writes busyAnswer and ends it with a FIN, then
// reads and discards what the client still sends until it closes, so that
// the client is not sent a reset that could make it lose the answer. Each
// of the two steps is bounded by refusalBound; a handshake that fails or
// does not end in time closes c without an answer.
func (r *refuser) answer(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(refusalBound))
	conn := c
	if r.tls != nil {
		tc := tls.Server(c, r.tls)
		if err := tc.Handshake(); err != nil {
			return
		}
		conn = tc
	}
	in := bufio.NewReader(io.LimitReader(conn, refusalReadLimit))
	http.ReadRequest(in) // the request is refused whatever it is, or if it does not come in time
	c.SetDeadline(time.Now().Add(refusalBound))
	if _, err := io.WriteString(conn, busyAnswer); err != nil {
		return
	}
	if tc, ok := conn.(*tls.Conn); ok {
		tc.CloseWrite()
	}
	if cw, ok := c.(closeWriter); ok {
		cw.CloseWrite()
	}
	io.Copy(io.Discard, in)
}
