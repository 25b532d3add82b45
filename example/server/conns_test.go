package server

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"testing"
	"time"
)

// TestManyIdleConnections checks that, with the default flags, 5,000
// connections that send nothing or only part of their headers neither keep a
// normal request from its answer nor take the process past 200 MB: the
// server holds at most -max-conns of them, closing the one that waited
// longest for each new one.
func TestManyIdleConnections(t *testing.T) {
	s := startServer(t)
	u, err := url.Parse(s.base)
	if err != nil {
		t.Fatal(err)
	}
	path := u.Path + "repos/octo-org/hello-world/issues/1/issue-field-values"
	conns := make([]net.Conn, 0, 5000)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range cap(conns) {
		c, err := net.Dial("tcp", u.Host)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		conns = append(conns, c)
		if i%2 == 1 {
			// Half of the headers, and then nothing. A write to a
			// connection the server closed already may fail.
			fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n", path, u.Host)
		}
	}

	client := &http.Client{Timeout: 10 * time.Second} // a bound on the wait, not a measure
	start := time.Now()
	resp, err := client.Get(s.base + path[len(u.Path):])
	if err != nil {
		t.Fatalf("a normal request among 5,000 idle connections: %v", err)
	}
	resp.Body.Close()
	t.Logf("answered in %v", time.Since(start))
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a normal request among 5,000 idle connections: status %d, want 200", resp.StatusCode)
	}

	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if inUse := m.HeapInuse + m.StackInuse; inUse > 200<<20 {
		t.Errorf("the process uses %d MB of heap and stacks with 5,000 idle connections, want at most 200 MB", inUse>>20)
	}
}

// TestCloseAndRequestCross checks that when connLimit chooses a waiting
// connection for closing at the moment a request comes on it, exactly one of
// the two goes ahead: the request is refused before the handler sees it if
// the close came first, and the connection is left open if the request did.
func TestCloseAndRequestCross(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := limitConns(ln, 10, connTimeouts{idle: time.Minute})
	defer l.Close()
	// waitingConn returns a new connection that has served a request and
	// waits for the next.
	waitingConn := func() *trackedConn {
		client, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { client.Close() })
		nc, err := l.Accept()
		if err != nil {
			t.Fatal(err)
		}
		c := nc.(*trackedConn)
		l.ConnState(c, http.StateActive)
		l.ConnState(c, http.StateIdle)
		return c
	}
	// serve passes a request on c through Guard, and reports whether the
	// handler saw it and whether Guard aborted it.
	serve := func(c *trackedConn) (served, aborted bool) {
		defer func() {
			if p := recover(); p != nil {
				if p != http.ErrAbortHandler {
					panic(p)
				}
				aborted = true
			}
		}()
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r = r.WithContext(l.ConnContext(r.Context(), c))
		l.Guard(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { served = true })).ServeHTTP(httptest.NewRecorder(), r)
		return served, aborted
	}
	later := time.Now().Add(time.Hour).UnixNano()

	c := waitingConn()
	if expired := l.takeExpired(later); len(expired) != 1 || expired[0] != c {
		t.Fatalf("an hour on, the idle connection is not taken for closing: %v", expired)
	}
	l.ConnState(c, http.StateActive)
	if served, aborted := serve(c); served || !aborted {
		t.Errorf("a request on a connection taken for closing: served %v, aborted %v; want it aborted unseen", served, aborted)
	}

	c = waitingConn()
	l.ConnState(c, http.StateActive)
	if expired := l.takeExpired(later); len(expired) != 0 {
		t.Errorf("a connection whose request is being served is taken for closing")
	}
	if served, aborted := serve(c); !served || aborted {
		t.Errorf("a request that came before the close: served %v, aborted %v; want it served", served, aborted)
	}
}
