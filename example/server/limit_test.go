package server

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests of the connection bound open connections that send nothing, part
// of a request, or a request that a handler holds, and check which of them
// the server closes and what a new connection gets. A connection that the
// server does not accept would not be closed by it, nor answered: each test
// that sees the server close or answer a connection past the bound sees it
// accept past the bound.

// TestBoundShedsSilentConnections checks that at -max-conns, connections that
// have not sent a whole request header (nothing, part of a header, or, over
// TLS, no handshake) do not keep an ordinary client waiting: its connection
// is accepted and served, the oldest of them is closed by the server, and
// the next oldest stays open and is served once it sends its request.
func TestBoundShedsSilentConnections(t *testing.T) {
	const partial = "GET %s%s HTTP/1.1\r\nHost: %s\r\n"
	for _, tt := range []struct {
		name string
		// sent is what the silent connections send, a format of the
		// base's path, listPath and the host.
		sent string
	}{
		{"nothing sent", ""},
		{"part of the headers", partial},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := startServer(t, "-max-conns", "2")
			oldest, u := dialServer(t, s)
			next, _ := dialServer(t, s)
			for _, c := range []net.Conn{oldest, next} {
				if tt.sent != "" {
					fmt.Fprintf(c, tt.sent, u.Path, listPath, u.Host)
				}
			}
			client, _ := dialServer(t, s)
			sendList(t, client, bufio.NewReader(client), u)
			wantClosed(t, oldest, bufio.NewReader(oldest), "the oldest silent connection")
			rest := listRequest(u)
			if tt.sent != "" {
				rest = "Authorization: Bearer demo-reader-token\r\n\r\n"
			}
			if _, err := io.WriteString(next, rest); err != nil {
				t.Fatal(err)
			}
			readOK(t, next, bufio.NewReader(next))
		})
	}
	t.Run("TLS without a handshake", func(t *testing.T) {
		certFile, keyFile, cert := selfSigned(t)
		s := startServer(t, "-max-conns", "2", "-tls-cert", certFile, "-tls-key", keyFile)
		oldest, u := dialServer(t, s)
		next, _ := dialServer(t, s)
		config := &tls.Config{RootCAs: x509.NewCertPool(), ServerName: "127.0.0.1"}
		config.RootCAs.AddCert(cert)
		plain, _ := dialServer(t, s)
		client := tls.Client(plain, config)
		sendList(t, client, bufio.NewReader(client), u)
		wantClosed(t, oldest, bufio.NewReader(oldest), "the oldest connection without a handshake")
		tc := tls.Client(next, config)
		sendList(t, tc, bufio.NewReader(tc), u)
	})
}

// TestBoundRefusesWhileEventStreamsHoldEveryConnection checks that the page's
// event streams count as connections serving a request: with -max-conns of
// them open, a new connection is answered 503 and closed.
func TestBoundRefusesWhileEventStreamsHoldEveryConnection(t *testing.T) {
	s := startServer(t, "-max-conns", "2")
	for range 2 {
		c, u := dialServer(t, s)
		fmt.Fprintf(c, "GET /_issuefields/events HTTP/1.1\r\nHost: %s\r\n\r\n", u.Host)
		readUntil(t, c, bufio.NewReader(c), ": connected")
	}
	c, u := dialServer(t, s)
	wantBusy(t, c, listRequest(u))
}

// readUntil reads from r, which reads conn, until a line that is want.
func readUntil(t *testing.T, conn net.Conn, r *bufio.Reader, want string) {
	t.Helper()
	if err := conn.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading until %q: %v", want, err)
		}
		if strings.TrimRight(line, "\r\n") == want {
			return
		}
	}
}

// wantBusy sends request on conn, a connection past the bound while every
// other one serves a request, and checks that it is answered 503 with
// Retry-After and then closed.
func wantBusy(t *testing.T, conn net.Conn, request string) {
	t.Helper()
	if err := conn.SetDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatalf("a connection past the bound: %v, want a 503", err)
	}
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("a connection past the bound: %v, want a 503", err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" || !resp.Close ||
		!strings.Contains(string(body), "-max-conns") {
		t.Errorf("a connection past the bound: %d, Retry-After %q, closing %v, %q; want 503, Retry-After 1, the connection closed and a message naming -max-conns",
			resp.StatusCode, resp.Header.Get("Retry-After"), resp.Close, body)
	}
	if b, err := r.ReadByte(); !errors.Is(err, io.EOF) {
		t.Errorf("after the 503: %q, %v; want the connection closed", b, err)
	}
}

// boundServer is an http.Server on a boundConns listener, wired as serve
// wires them, whose handler holds each request for /hold until release is
// called and answers 200 to every other request. Each state of a connection
// is sent on states once the listener has tracked it.
type boundServer struct {
	addr    string
	held    chan struct{} // gets a value as each request for /hold enters the handler
	release func()
	states  chan connState
	seen    map[connState]bool
}

// connState is a state that a connection, named by its client's address,
// went through.
type connState struct {
	client string
	state  http.ConnState
}

// startBoundServer starts a boundServer that keeps at most n connections,
// over TLS with cert unless it is nil.
func startBoundServer(t *testing.T, n int, cert *tls.Certificate) *boundServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hold := make(chan struct{})
	s := &boundServer{addr: ln.Addr().String(), held: make(chan struct{}, n), release: sync.OnceFunc(func() { close(hold) }),
		states: make(chan connState, 1000), seen: map[connState]bool{}}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			s.held <- struct{}{}
			<-hold
		}
		io.WriteString(w, "ok")
	})}
	if cert != nil {
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{*cert}}
	}
	bounded := boundConns(ln, n, srv.TLSConfig)
	srv.ConnState = func(c net.Conn, state http.ConnState) {
		bounded.track(c, state)
		s.states <- connState{c.RemoteAddr().String(), state}
	}
	go func() {
		if cert == nil {
			srv.Serve(bounded)
		} else {
			srv.ServeTLS(bounded, "", "")
		}
	}()
	t.Cleanup(func() {
		s.release()
		srv.Close()
	})
	return s
}

// waitState waits until the server has tracked the client connection c in
// state.
func (s *boundServer) waitState(t *testing.T, c net.Conn, state http.ConnState) {
	t.Helper()
	want := connState{c.LocalAddr().String(), state}
	for !s.seen[want] {
		select {
		case got := <-s.states:
			s.seen[got] = true
		case <-time.After(5 * time.Second):
			t.Fatalf("the connection from %s is not %s after 5 s", want.client, state)
		}
	}
}

// dial opens a connection to s, over TLS with roots unless roots is nil,
// offering the application protocols protos.
func (s *boundServer) dial(t *testing.T, roots *x509.CertPool, protos ...string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if roots == nil {
		return c
	}
	return tls.Client(c, &tls.Config{RootCAs: roots, ServerName: "127.0.0.1", NextProtos: protos})
}

// get sends a GET of path on c, a connection to s.
func (s *boundServer) get(t *testing.T, c net.Conn, path string) {
	t.Helper()
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, s.addr); err != nil {
		t.Fatal(err)
	}
}

// TestBoundShedsTheLongestIdleConnection checks that at the bound, with every
// connection kept alive and idle between requests, a new client is served,
// the connection idle the longest is closed by the server and the other
// stays open.
func TestBoundShedsTheLongestIdleConnection(t *testing.T) {
	s := startBoundServer(t, 2, nil)
	var idle []net.Conn
	var readers []*bufio.Reader
	for range 2 {
		c := s.dial(t, nil)
		r := bufio.NewReader(c)
		s.get(t, c, "/")
		readOK(t, c, r)
		s.waitState(t, c, http.StateIdle)
		idle, readers = append(idle, c), append(readers, r)
	}
	client := s.dial(t, nil)
	s.get(t, client, "/")
	readOK(t, client, bufio.NewReader(client))
	wantClosed(t, idle[0], readers[0], "the connection idle the longest")
	s.get(t, idle[1], "/")
	readOK(t, idle[1], readers[1])
}

// TestBoundShedsSilentBeforeIdle checks that at the bound a connection that
// has sent nothing is closed before one that is idle between requests, even
// when the idle one is older.
func TestBoundShedsSilentBeforeIdle(t *testing.T) {
	s := startBoundServer(t, 2, nil)
	idle := s.dial(t, nil)
	idleReader := bufio.NewReader(idle)
	s.get(t, idle, "/")
	readOK(t, idle, idleReader)
	s.waitState(t, idle, http.StateIdle)
	silent := s.dial(t, nil)
	s.waitState(t, silent, http.StateNew)
	client := s.dial(t, nil)
	s.get(t, client, "/")
	readOK(t, client, bufio.NewReader(client))
	wantClosed(t, silent, bufio.NewReader(silent), "the silent connection")
	s.get(t, idle, "/")
	readOK(t, idle, idleReader)
}

// TestBoundRefusesWhenEveryConnectionServesARequest checks that at the bound,
// with every connection's request held by its handler, a new connection, in
// the clear or over TLS, is accepted, answered 503 with Retry-After and
// closed, and that the held requests are then answered.
func TestBoundRefusesWhenEveryConnectionServesARequest(t *testing.T) {
	certFile, keyFile, cert := selfSigned(t)
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	for _, tt := range []struct {
		name  string
		cert  *tls.Certificate
		roots *x509.CertPool
	}{
		{"in the clear", nil, nil},
		{"over TLS", &pair, roots},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := startBoundServer(t, 2, tt.cert)
			var busy []net.Conn
			for range 2 {
				c := s.dial(t, tt.roots)
				s.get(t, c, "/hold")
				busy = append(busy, c)
			}
			for range busy {
				<-s.held
			}
			for range 3 {
				c := s.dial(t, tt.roots, "h2", "http/1.1")
				wantBusy(t, c, fmt.Sprintf("GET / HTTP/1.1\r\nHost: %s\r\n\r\n", s.addr))
				if tc, ok := c.(*tls.Conn); ok && tc.ConnectionState().NegotiatedProtocol != "http/1.1" {
					t.Errorf("a refused TLS connection negotiated %q, want http/1.1", tc.ConnectionState().NegotiatedProtocol)
				}
			}
			s.release()
			for _, c := range busy {
				readOK(t, c, bufio.NewReader(c))
			}
		})
	}
}

// BenchmarkTrackRequest measures what the bound costs a request on a
// kept-alive connection: its two state changes, to active and back to idle,
// from as many goroutines as there are cores.
func BenchmarkTrackRequest(b *testing.B) {
	l := boundConns(nil, 1024, nil)
	server, client := net.Pipe()
	defer client.Close()
	tc, _ := l.admit(server)
	defer tc.Close()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.track(tc, http.StateActive)
			l.track(tc, http.StateIdle)
		}
	})
}
