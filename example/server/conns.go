package server

import (
	"context"
	"net"
	"net/http"
	"sync"
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
	// waitingSince holds every open connection, with when it began to wait
	// for a request, or the zero time while one is being served.
	waitingSince map[net.Conn]time.Time
}

// limitConns returns ln bounded to max open connections.
func limitConns(ln net.Listener, max int) *connLimit {
	return &connLimit{Listener: ln, max: max, waitingSince: make(map[net.Conn]time.Time, max)}
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
		if len(l.waitingSince) >= l.max {
			evicted = l.longestWaitingLocked()
			if evicted == nil {
				l.mu.Unlock()
				c.Close()
				continue
			}
			delete(l.waitingSince, evicted)
		}
		l.waitingSince[c] = time.Now()
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
	var since time.Time
	for c, t := range l.waitingSince {
		if !t.IsZero() && (oldest == nil || t.Before(since)) {
			oldest, since = c, t
		}
	}
	return oldest
}

// connKey is the key of a request's connection in its context.
type connKey struct{}

// ConnContext gives a connection's requests the connection in their
// context, as http.Server.ConnContext.
func (l *connLimit) ConnContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// ConnState forgets a connection once it is closed, as
// http.Server.ConnState.
func (l *connLimit) ConnState(c net.Conn, state http.ConnState) {
	if state == http.StateClosed || state == http.StateHijacked {
		l.mu.Lock()
		delete(l.waitingSince, c)
		l.mu.Unlock()
	}
}

// Track returns h, marking the connection of each request as served while h
// serves it.
func (l *connLimit) Track(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Context().Value(connKey{}).(net.Conn)
		l.setWaiting(c, time.Time{})
		defer func() { l.setWaiting(c, time.Now()) }()
		h.ServeHTTP(w, r)
	})
}

// setWaiting records when c began to wait for a request, unless c is closed.
func (l *connLimit) setWaiting(c net.Conn, since time.Time) {
	l.mu.Lock()
	if _, open := l.waitingSince[c]; open {
		l.waitingSince[c] = since
	}
	l.mu.Unlock()
}
