package server

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// connLimit bounds the connections the server holds open. When a new
// connection comes and the bound is reached, the connection that has waited
// longest without a request being served (one that sends nothing, or only
// part of its headers, or sits idle between requests) is closed to make room,
// so that a crowd of idle or slow clients neither holds memory without bound
// nor keeps a client with a request waiting. When a request is being served
// on every connection, the new one is closed instead.
//
// Its Accept wraps a listener; the server's ConnContext, ConnState and
// handler must be those connLimit gives, so that it knows which connections
// are being served.
type connLimit struct {
	net.Listener
	max int

	mu sync.Mutex
	// conns holds every open connection's state.
	conns map[net.Conn]*connWait
}

// connWait is when a connection began to wait for a request, in Unix
// nanoseconds, or 0 while a request is being served on it. Requests change
// it without the lock.
type connWait struct{ since atomic.Int64 }

// limitConns returns ln bounded to max open connections.
func limitConns(ln net.Listener, max int) *connLimit {
	return &connLimit{Listener: ln, max: max, conns: make(map[net.Conn]*connWait, max)}
}

// Accept waits for the next connection, making room for it if the bound is
// reached.
func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		var evicted net.Conn
		if len(l.conns) >= l.max {
			evicted = l.longestWaitingLocked()
			if evicted == nil {
				l.mu.Unlock()
				c.Close()
				continue
			}
			delete(l.conns, evicted)
		}
		w := new(connWait)
		w.since.Store(time.Now().UnixNano())
		l.conns[c] = w
		l.mu.Unlock()
		if evicted != nil {
			evicted.Close()
		}
		return c, nil
	}
}

// longestWaitingLocked returns the connection that has waited longest for a
// request, or nil if a request is being served on every connection. l.mu is
// held.
func (l *connLimit) longestWaitingLocked() net.Conn {
	var oldest net.Conn
	var since int64
	for c, w := range l.conns {
		if t := w.since.Load(); t != 0 && (oldest == nil || t < since) {
			oldest, since = c, t
		}
	}
	return oldest
}

// connKey is the key of a request's connection in its context.
type connKey struct{}

// ConnContext gives a connection's requests the connection's state in their
// context, as http.Server.ConnContext.
func (l *connLimit) ConnContext(ctx context.Context, c net.Conn) context.Context {
	l.mu.Lock()
	w := l.conns[c]
	l.mu.Unlock()
	return context.WithValue(ctx, connKey{}, w)
}

// ConnState forgets a connection once it is closed, as
// http.Server.ConnState.
func (l *connLimit) ConnState(c net.Conn, state http.ConnState) {
	if state == http.StateClosed || state == http.StateHijacked {
		l.mu.Lock()
		delete(l.conns, c)
		l.mu.Unlock()
	}
}

// Track returns h, marking the connection of each request as served while h
// serves it.
func (l *connLimit) Track(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if cw, ok := r.Context().Value(connKey{}).(*connWait); ok && cw != nil {
			cw.since.Store(0)
			defer func() { cw.since.Store(time.Now().UnixNano()) }()
		}
		h.ServeHTTP(w, r)
	})
}
