package server

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"testing"
	"time"
)

// TestReadTimeout checks that -read-timeout bounds a request whose body
// never comes: the server answers 400 and closes the connection, instead of
// waiting for the body for as long as the client keeps the connection open.
func TestReadTimeout(t *testing.T) {
	s := startServer(t, "-read-timeout", "200ms")
	u, err := url.Parse(s.base)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
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
