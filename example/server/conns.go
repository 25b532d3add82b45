package server

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// connLimit bounds the connections the server holds open, and how long each
// may take to send its requests.
//
// When a new connection comes and the bound on connections is reached, the
// connection that has waited longest without a request being served (one
// that sends nothing, or only part of its headers, or sits idle between
// requests) is closed to make room, so that a crowd of idle or slow clients
// neither holds memory without bound nor keeps a client with a request
// waiting. When a request is being served on every connection, the new one is
// closed instead.
//
// The bounds on time are connTimeouts. net/http would enforce them by setting
// a read deadline on the connection at each step of every request (three
// timers a request, about a twentieth of a list's CPU); instead, a goroutine
// looks at the waiting connections every tick and closes those past their
// bound, and a request with a body gets one read deadline, which net/http
// clears once the body is read. The bounds hold to within a tick: a tenth of
// the shortest bound, at most a second (a goroutine that the process's load
// delays can close a waiting connection up to that delay early). A request
// whose first bytes came with the previous request (HTTP/1 pipelining) is in
// net/http's buffer, out of connLimit's sight: its connection is bounded as an
// idle one.
//
// A connection is closed only when connLimit wins it from the request that may
// come on it at the same moment: a request that comes on a connection chosen
// for closing is refused before it is served, so that no request is served
// whose answer cannot be sent.
//
// Its Accept wraps a listener; the server's ConnContext, ConnState and
// handler must be those connLimit gives, so that it knows what each
// connection is doing. It assumes plain HTTP/1 connections, as the example
// serves: with TLS or unencrypted HTTP/2, net/http would hide their state from
// it. Close stops its goroutine.
type connLimit struct {
	net.Listener
	max      int
	timeouts connTimeouts
	tick     time.Duration

	// clock is when the goroutine last looked, in Unix nanoseconds: the
	// coarse clock on which connections note when they began to wait and
	// when a request's first bytes came, which costs them no reading of
	// the system's clock.
	clock atomic.Int64
	// turns numbers the times at which connections begin to wait, so that
	// the one that has waited longest is known exactly.
	turns atomic.Uint64

	mu    sync.Mutex
	conns map[*trackedConn]struct{}

	stopOnce sync.Once
	stop     chan struct{} // ends the goroutine
	done     chan struct{} // closed when the goroutine has ended
}

// connTimeouts are the bounds on how long a client may take; zero means no
// bound.
type connTimeouts struct {
	// header bounds sending a request's headers, from their first byte, or
	// from the connection's start for its first request.
	header time.Duration
	// request bounds sending a whole request, body included, from the same
	// moment.
	request time.Duration
	// idle bounds how long a kept-alive connection may wait, sending
	// nothing, for its next request.
	idle time.Duration
}

// trackedConn is a connection that connLimit holds, with what connLimit knows
// of its state: net/http changes the state through the server's ConnState
// hook and through Read, and connLimit's goroutine reads it.
type trackedConn struct {
	net.Conn
	limit *connLimit
	// waitTurn is the turn at which the connection began to wait for a
	// request, 0 while a request is being served on it, or closing.
	waitTurn atomic.Uint64
	// waitSince is when the connection began to wait, and requestSince when
	// the first bytes of the request being read or served came, or 0 before
	// they came; both on connLimit's clock.
	waitSince, requestSince atomic.Int64
}

// closing is the waitTurn of a connection that connLimit chose to close.
const closing = ^uint64(0)

// claim takes c, which waited from turn, for closing, unless a request began
// to be served on it since: the request and the close race on one word.
func (c *trackedConn) claim(turn uint64) bool {
	return turn != 0 && turn != closing && c.waitTurn.CompareAndSwap(turn, closing)
}

// limitConns returns ln bounded to max open connections and to timeouts, with
// its goroutine started.
func limitConns(ln net.Listener, max int, timeouts connTimeouts) *connLimit {
	l := &connLimit{Listener: ln, max: max, timeouts: timeouts, tick: watchTick(timeouts),
		conns: make(map[*trackedConn]struct{}, max), stop: make(chan struct{}), done: make(chan struct{})}
	l.clock.Store(time.Now().UnixNano())
	go l.watch()
	return l
}

// watchTick is how often connLimit looks at its connections: a tenth of the
// shortest bound, at most a second and at least 10 ms.
func watchTick(t connTimeouts) time.Duration {
	tick := time.Second
	for _, d := range []time.Duration{t.header, t.request, t.idle} {
		if d > 0 {
			tick = min(tick, d/10)
		}
	}
	return max(tick, 10*time.Millisecond)
}

// Accept waits for the next connection, making room for it if the bound is
// reached.
func (l *connLimit) Accept() (net.Conn, error) {
	for {
		nc, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		c := &trackedConn{Conn: nc, limit: l}
		now := time.Now().UnixNano()
		c.waitSince.Store(now)
		c.requestSince.Store(now) // the first request's headers are bounded from the start
		c.waitTurn.Store(l.turns.Add(1))
		l.mu.Lock()
		var evicted *trackedConn
		if len(l.conns) >= l.max {
			evicted = l.claimLongestWaitingLocked()
			if evicted == nil {
				l.mu.Unlock()
				nc.Close()
				continue
			}
		}
		l.conns[c] = struct{}{}
		l.mu.Unlock()
		if evicted != nil {
			evicted.Close()
		}
		return c, nil
	}
}

// Close stops accepting connections and ends connLimit's goroutine; the
// connections it holds stay open.
func (l *connLimit) Close() error {
	l.stopOnce.Do(func() {
		close(l.stop)
		<-l.done
	})
	return l.Listener.Close()
}

// claimLongestWaitingLocked claims and forgets the connection that has
// waited longest for a request, and returns it; it returns nil if a request is
// being served on every connection. l.mu is held.
func (l *connLimit) claimLongestWaitingLocked() *trackedConn {
	for {
		var oldest *trackedConn
		var turn uint64
		for c := range l.conns {
			if t := c.waitTurn.Load(); t != 0 && t != closing && (oldest == nil || t < turn) {
				oldest, turn = c, t
			}
		}
		if oldest == nil {
			return nil
		}
		if oldest.claim(turn) {
			delete(l.conns, oldest)
			return oldest
		}
		// A request began to be served on it meanwhile: look again.
	}
}

// watch closes, every tick, the connections past their bound, until Close.
func (l *connLimit) watch() {
	defer close(l.done)
	ticker := time.NewTicker(l.tick)
	defer ticker.Stop()
	for {
		select {
		case <-ticker.C:
		case <-l.stop:
			return
		}
		now := time.Now().UnixNano()
		l.clock.Store(now)
		for _, c := range l.takeExpired(now) {
			c.Close()
		}
	}
}

// takeExpired claims, forgets and returns the connections that, at now, have
// waited past their bound: for the rest of a request's headers, or idle for
// the next request. A connection whose request is being served is bounded by
// its read deadline instead, if it has a body to read.
func (l *connLimit) takeExpired(now int64) []*trackedConn {
	header, idle := int64(l.timeouts.header), int64(l.timeouts.idle)
	l.mu.Lock()
	defer l.mu.Unlock()
	var expired []*trackedConn
	for c := range l.conns {
		turn := c.waitTurn.Load()
		if turn == 0 || turn == closing {
			continue
		}
		var late bool
		if since := c.requestSince.Load(); since != 0 {
			late = header > 0 && now-since > header
		} else {
			late = idle > 0 && now-c.waitSince.Load() > idle
		}
		if late && c.claim(turn) {
			expired = append(expired, c)
		}
	}
	for _, c := range expired {
		delete(l.conns, c)
	}
	return expired
}

// connKey is the key of a request's connection in its context.
type connKey struct{}

// ConnContext gives a connection's requests the connection in their context,
// as http.Server.ConnContext.
func (l *connLimit) ConnContext(ctx context.Context, nc net.Conn) context.Context {
	if c, ok := nc.(*trackedConn); ok {
		return context.WithValue(ctx, connKey{}, c)
	}
	return ctx
}

// ConnState notes when a connection's request is being served and when the
// connection waits for the next one, and forgets a connection once it is
// closed, as http.Server.ConnState.
func (l *connLimit) ConnState(nc net.Conn, state http.ConnState) {
	c, ok := nc.(*trackedConn)
	if !ok {
		return
	}
	switch state {
	case http.StateActive:
		for {
			turn := c.waitTurn.Load()
			if turn == closing || c.waitTurn.CompareAndSwap(turn, 0) {
				break // a request on a connection being closed is refused by Guard
			}
		}
		if c.requestSince.Load() == 0 {
			// The whole request was read with the previous one.
			c.requestSince.Store(l.clock.Load())
		}
	case http.StateIdle:
		c.requestSince.Store(0)
		c.waitSince.Store(l.clock.Load())
		c.waitTurn.Store(l.turns.Add(1))
	case http.StateClosed, http.StateHijacked:
		l.mu.Lock()
		delete(l.conns, c)
		l.mu.Unlock()
	}
}

// Guard returns h, with two bounds on the requests that reach it. A request
// that came on a connection chosen for closing (the request and the close
// crossed) is refused before h sees it: net/http closes the connection
// without an answer, as if the close had come first. A request with a body
// gets a read deadline at the bound on a whole request, so that a client
// cannot hold its request by sending the body slowly; net/http clears the
// deadline once the body is read.
func (l *connLimit) Guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, ok := r.Context().Value(connKey{}).(*trackedConn); ok {
			if c.waitTurn.Load() == closing {
				panic(http.ErrAbortHandler)
			}
			if l.timeouts.request > 0 && r.ContentLength != 0 {
				deadline := time.Unix(0, c.requestSince.Load()).Add(l.timeouts.request)
				_ = http.NewResponseController(w).SetReadDeadline(deadline)
			}
		}
		h.ServeHTTP(w, r)
	})
}

// Read reads from the connection, noting when the first bytes of a request
// come.
func (c *trackedConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 && c.requestSince.Load() == 0 {
		c.requestSince.Store(c.limit.clock.Load())
	}
	return n, err
}

// CloseWrite shuts the sending side of the connection, as net/http does
// before it closes a connection whose request it did not read to the end, so
// that the client reads the answer rather than a reset.
func (c *trackedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
