package server

import (
	"container/list"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"sync"
)

// boundConns returns a listener that accepts every connection of ln as soon
// as it comes, and keeps at most n of them open. A connection accepted at the
// bound makes room by closing one that serves no request: the oldest of
// those that have not yet sent a whole request header (over TLS, those
// still in or before their handshake), or else the one idle the longest
// between requests. When each of the n serves a request (or was hijacked),
// the new connection is refused instead (see refuser): it is answered 503
// and closed. tlsConfig is the server's TLS configuration, or nil in the
// clear.
//
// The server must report its connections' states to the listener's track
// method, as its http.Server.ConnState. Each accept and each state change
// costs a few steps under one lock, however many connections are open: the
// connections that may be closed are kept in two queues, oldest first, so
// the one to close is the front of one of them.
func boundConns(ln net.Listener, n int, tlsConfig *tls.Config) *boundedListener {
	return &boundedListener{Listener: ln, max: n, refuse: newRefuser(tlsConfig)}
}

// boundedListener is the listener of boundConns.
type boundedListener struct {
	net.Listener
	max    int
	refuse *refuser

	// mu guards open, the queues and the tracking fields of every
	// trackedConn of the listener.
	mu   sync.Mutex
	open int // connections accepted and neither closed nor shed
	// waiting holds the connections that have sent no whole request
	// header yet, oldest first; idle those that wait between requests,
	// the longest idle first. A connection in neither serves a request.
	waiting, idle list.List
}

// Accept waits for the next connection of the listener under l. At the
// bound, it closes a connection to make room for it, or refuses it and waits
// for the next one.
func (l *boundedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		admitted, shed := l.admit(c)
		if shed != nil {
			shed.Conn.Close()
		}
		if admitted != nil {
			return admitted, nil
		}
		l.refuse.start(c)
	}
}

// admit counts c among the open connections, as one that has sent nothing
// yet. At the bound it first stops counting the connection to shed, which
// the caller closes; it returns no admitted connection when every open
// connection serves a request.
func (l *boundedListener) admit(c net.Conn) (admitted, shed *trackedConn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open == l.max {
		shed = l.sheddable()
		if shed == nil {
			return nil, nil
		}
		l.forget(shed)
	}
	admitted = &trackedConn{Conn: c, l: l, counted: true}
	l.open++
	admitted.moveTo(&l.waiting)
	return admitted, shed
}

// sheddable returns the connection to close to make room: the oldest that
// has sent no whole request header, or else the longest idle; nil if every
// open connection serves a request. l.mu must be held.
func (l *boundedListener) sheddable() *trackedConn {
	for _, q := range []*list.List{&l.waiting, &l.idle} {
		if front := q.Front(); front != nil {
			return front.Value.(*trackedConn)
		}
	}
	return nil
}

// forget stops counting c, if it is still counted. l.mu must be held.
func (l *boundedListener) forget(c *trackedConn) {
	if !c.counted {
		return
	}
	c.moveTo(nil)
	c.counted = false
	l.open--
}

// track is the http.Server.ConnState of the server that serves l: it moves
// the connection to the idle queue when it waits for its next request, and
// out of either queue while it serves one (StateActive) or once it is
// hijacked. A connection stops being counted when it is closed, which the
// server does to every connection it ends, and the owner of a hijacked one
// when it is done with it.
func (l *boundedListener) track(c net.Conn, state http.ConnState) {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	tc, ok := c.(*trackedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !tc.counted {
		return
	}
	switch state {
	case http.StateIdle:
		tc.moveTo(&l.idle)
	case http.StateActive, http.StateHijacked:
		tc.moveTo(nil)
	}
}

// trackedConn is a connection of a boundedListener.
type trackedConn struct {
	net.Conn
	l *boundedListener
	// queue is l.waiting or l.idle, where elem holds the connection, or
	// nil while it serves a request; counted is false once the connection
	// is closed or shed. l.mu guards them.
	queue   *list.List
	elem    *list.Element
	counted bool
}

// moveTo moves c to the back of q, or out of its queue for a nil q. c.l.mu
// must be held.
func (c *trackedConn) moveTo(q *list.List) {
	if c.queue != nil {
		c.queue.Remove(c.elem)
	}
	c.queue, c.elem = q, nil
	if q != nil {
		c.elem = q.PushBack(c)
	}
}

// Close closes the connection, which then no longer counts against the
// bound.
func (c *trackedConn) Close() error {
	err := c.Conn.Close()
	c.l.mu.Lock()
	c.l.forget(c)
	c.l.mu.Unlock()
	return err
}

// CloseWrite shuts down the writing side of the connection, as
// net.TCPConn's does, so that http.Server can end an answer with a FIN and
// still read what the client sends after it.
func (c *trackedConn) CloseWrite() error {
	if cw, ok := c.Conn.(closeWriter); ok {
		return cw.CloseWrite()
	}
	return errors.ErrUnsupported
}

// closeWriter is a connection whose writing side can be shut down alone,
// such as a net.TCPConn.
type closeWriter interface{ CloseWrite() error }
