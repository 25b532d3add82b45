package standin_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/issuefields/issuefields/example/standin"
)

// wait bounds each wait of these tests on the server, far beyond the write
// deadlines they set.
const wait = 30 * time.Second

// toolsServer serves the tools of cfg, with cfg's Hosts set to the
// server's address, over HTTP/1.1 with a small send buffer on each
// connection, so that a client that does not read stops the server's writes
// soon; with tls, over HTTPS and HTTP/2. Each request whose handler has
// returned is sent on the channel.
func toolsServer(t *testing.T, cfg standin.Config, tls bool) (*httptest.Server, <-chan string) {
	t.Helper()
	returned := make(chan string, 10)
	srv := httptest.NewUnstartedServer(nil)
	cfg.Hosts = []string{srv.Listener.Addr().String()}
	tools := standin.New(cfg)
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tools.ServeHTTP(w, r)
		returned <- r.URL.Path
	})
	if tls {
		srv.EnableHTTP2 = true
		srv.StartTLS()
	} else {
		srv.Config.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
			_ = c.(*net.TCPConn).SetWriteBuffer(4 << 10)
			return ctx
		}
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv, returned
}

// openUnread sends a GET of path to srv over a connection with a small
// receive buffer, whose answer it never reads.
func openUnread(t *testing.T, srv *httptest.Server, path string) net.Conn {
	t.Helper()
	conn, err := net.DialTimeout("tcp", srv.Listener.Addr().String(), wait)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.(*net.TCPConn).SetReadBuffer(4 << 10)
	if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, srv.Listener.Addr()); err != nil {
		t.Fatal(err)
	}
	return conn
}

// wantReturned waits for the handler of path to return.
func wantReturned(t *testing.T, returned <-chan string, path, why string) {
	t.Helper()
	select {
	case got := <-returned:
		if got != path {
			t.Fatalf("the handler of %s returned, want that of %s", got, path)
		}
	case <-time.After(wait):
		t.Fatalf("the handler of %s still writes after %v: %s", path, wait, why)
	}
}

// wantClosed reads what conn holds, and checks that the server closed it
// before the whole answer, of at least least bytes, came.
func wantClosed(t *testing.T, conn net.Conn, least int) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(wait))
	n, err := io.Copy(io.Discard, conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the connection is still open after the handler returned")
	}
	if n >= int64(least) {
		t.Errorf("the client got %d bytes, the whole answer; want it cut", n)
	}
}

func TestRequestsAnswerEndsWhenItsClientStopsReading(t *testing.T) {
	j := new(standin.Journal)
	fill(j, 6<<10) // an answer of 8 MiB, far more than the connection buffers
	srv, returned := toolsServer(t, standin.WithTimings(standin.Config{Journal: j}, 0, 100*time.Millisecond), false)
	conn := openUnread(t, srv, "/_issuefields/requests")
	wantReturned(t, returned, "/_issuefields/requests", "a client that does not read holds the answer")
	wantClosed(t, conn, 8<<20)
}

func TestEventStreamEndsWhenItsClientStopsReading(t *testing.T) {
	cfg := standin.WithTimings(standin.Config{}, 100*time.Microsecond, 100*time.Millisecond)
	srv, returned := toolsServer(t, cfg, false)
	conn := openUnread(t, srv, "/_issuefields/events")
	wantReturned(t, returned, "/_issuefields/events", "a client that does not read holds the stream")
	wantClosed(t, conn, 1<<30)
}

func TestEventStreamStaysOpenWhileItsClientReads(t *testing.T) {
	// Each heartbeat comes after a wait of three write deadlines, so that a
	// deadline that outlived the write before it would end the stream.
	const bound, beats = 40 * time.Millisecond, 4
	for _, tls := range []bool{false, true} {
		t.Run(map[bool]string{false: "HTTP/1.1", true: "HTTP/2"}[tls], func(t *testing.T) {
			srv, returned := toolsServer(t, standin.WithTimings(standin.Config{}, 3*bound, bound), tls)
			ctx, cancel := context.WithTimeout(context.Background(), wait)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+"/_issuefields/events", nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if want := map[bool]int{false: 1, true: 2}[tls]; resp.StatusCode != http.StatusOK || resp.ProtoMajor != want {
				t.Fatalf("GET /_issuefields/events = %d over HTTP/%d, want 200 over HTTP/%d", resp.StatusCode, resp.ProtoMajor, want)
			}
			lines := bufio.NewScanner(resp.Body)
			for seen := 0; seen < beats; {
				if !lines.Scan() {
					t.Fatalf("the stream ended after %d heartbeats: %v", seen, lines.Err())
				}
				if strings.HasPrefix(lines.Text(), ": heartbeat") {
					seen++
				}
			}
			select {
			case path := <-returned:
				t.Errorf("the handler of %s returned while its client reads", path)
			default:
			}
		})
	}
}
