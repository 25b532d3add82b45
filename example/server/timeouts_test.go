package server

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

// TestReadTimeout checks that -read-timeout bounds a request whose body
// never comes: the server answers 400 and closes the connection, instead of
// waiting for the body for as long as the client keeps the connection open.
func TestReadTimeout(t *testing.T) {
	s := startServer(t, "-read-timeout", "200ms")
	conn, u := dialServer(t, s)
	fmt.Fprintf(conn, "POST %srepos/octo-org/roadmap/issues/2/issue-field-values HTTP/1.1\r\nHost: %s\r\n"+
		"Authorization: Bearer demo-writer-token\r\nContent-Length: 100\r\n\r\n{", u.Path, u.Host)
	if err := conn.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("the server still waited for the body after 5 s")
	}
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !resp.Close {
		t.Errorf("answer %d (closing the connection: %v), want 400 and the connection closed", resp.StatusCode, resp.Close)
	}
}

// dialServer opens a connection to s.
func dialServer(t *testing.T, s *running) (net.Conn, *url.URL) {
	t.Helper()
	u, err := url.Parse(s.base)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn, u
}

// listPath is the path, below the API's base, of the list that the tests on
// connections send.
const listPath = "repos/octo-org/hello-world/issues/1/issue-field-values"

// listRequest is a list request by the demo reader, as it goes on the wire.
func listRequest(u *url.URL) string {
	return fmt.Sprintf("GET %s%s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer demo-reader-token\r\n\r\n", u.Path, listPath, u.Host)
}

// sendList sends a list request on conn and reads its answer through r.
func sendList(t *testing.T, conn net.Conn, r *bufio.Reader, u *url.URL) {
	t.Helper()
	if err := conn.SetWriteDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(conn, listRequest(u)); err != nil {
		t.Fatal(err)
	}
	readOK(t, conn, r)
}

// readOK reads an answer on conn through r, which must be 200.
func readOK(t *testing.T, conn net.Conn, r *bufio.Reader) {
	t.Helper()
	if err := conn.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("list: status %d, body read: %v; want 200", resp.StatusCode, err)
	}
}

// wantClosed checks that the server closes conn within 5 s, sending nothing.
func wantClosed(t *testing.T, conn net.Conn, r *bufio.Reader, what string) {
	t.Helper()
	if err := conn.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	b, err := r.ReadByte()
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		t.Errorf("%s: the connection is still open after 5 s", what)
	case err == nil:
		t.Errorf("%s: the server sent %q, want the connection closed", what, b)
	}
}

// TestHeaderTimeout checks that a client that sends part of its headers, on a
// new connection or a kept-alive one, has its connection closed once the
// bound on a request passes (here -read-timeout, shorter than the 10 s
// bound on headers).
func TestHeaderTimeout(t *testing.T) {
	s := startServer(t, "-read-timeout", "200ms")
	t.Run("new connection", func(t *testing.T) {
		conn, u := dialServer(t, s)
		fmt.Fprintf(conn, "GET %s%s HTTP/1.1\r\nHost: %s\r\n", u.Path, listPath, u.Host)
		wantClosed(t, conn, bufio.NewReader(conn), "half the headers on a new connection")
	})
	t.Run("kept-alive connection", func(t *testing.T) {
		conn, u := dialServer(t, s)
		r := bufio.NewReader(conn)
		sendList(t, conn, r, u)
		fmt.Fprintf(conn, "GET %s%s HTTP/1.1\r\n", u.Path, listPath)
		wantClosed(t, conn, r, "half the headers of a second request")
	})
}

// TestIdleTimeout checks that -idle-timeout closes a kept-alive connection
// that sends nothing; that -idle-timeout 0 leaves it open, even past
// -read-timeout; and that the bound on headers counts from a request's first
// byte, not from the end of the previous request.
func TestIdleTimeout(t *testing.T) {
	t.Run("idle past the bound", func(t *testing.T) {
		s := startServer(t, "-idle-timeout", "200ms")
		conn, u := dialServer(t, s)
		r := bufio.NewReader(conn)
		sendList(t, conn, r, u)
		wantClosed(t, conn, r, "a connection idle past -idle-timeout")
	})
	for _, args := range [][]string{{"-read-timeout", "100ms", "-idle-timeout", "5s"}, {"-read-timeout", "100ms", "-idle-timeout", "0"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			s := startServer(t, args...)
			conn, u := dialServer(t, s)
			r := bufio.NewReader(conn)
			sendList(t, conn, r, u)
			time.Sleep(500 * time.Millisecond)
			sendList(t, conn, r, u)
		})
	}
}
