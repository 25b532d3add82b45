// Package earlyanswertest checks, over real connections, that an answer given
// before a request's body was read reaches a client that sends its whole
// body before it reads anything, as many clients do.
//
// The connections' buffers are kept small, so that a server that closes a
// connection without reading the rest of a large body resets it while the
// client is still sending: the client's write fails, and the test with it,
// every time, not only when the reset wins a race with the client's read.
package earlyanswertest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// bufferBytes is the size asked for the kernel's buffer of a connection:
// what the server's side receives, and what the client's side sends.
const bufferBytes = 64 << 10

// NewServer starts a server of h, whose connections have small receive
// buffers, and closes it when t ends.
func NewServer(t testing.TB, h http.Handler) *httptest.Server {
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = smallBuffers{srv.Listener}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// smallBuffers is a listener whose TCP connections have small receive
// buffers.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(bufferBytes) // a larger buffer only makes the test weaker
	}
	return c, err
}

// Body returns a body of about size bytes: an object whose
// issue_field_values array holds items as many times as it takes.
func Body(item string, size int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"issue_field_values": [`)
	for b.Len() < size {
		b.WriteString(item)
		b.WriteByte(',')
	}
	b.WriteString(item + "]}")
	return b.Bytes()
}

// An Answer is what a client got for its request.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// SendWhole sends the request of head (its request line and headers,
// without the framing of the body) and body to srv, the whole body first,
// in pieces, framed in chunks or by Content-Length; only then it reads the
// answer whole, and the connection to its end. It fails t if a write fails,
// if the answer is not whole, or if the connection ends in a reset rather
// than a close. Every wait is bounded by 10 s.
func SendWhole(t testing.TB, srv *httptest.Server, head string, body []byte, chunked bool) Answer {
	t.Helper()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.(*net.TCPConn).SetWriteBuffer(bufferBytes); err != nil {
		t.Fatal(err)
	}
	if err := conn.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(conn)
	framing := fmt.Sprintf("Content-Length: %d", len(body))
	if chunked {
		framing = "Transfer-Encoding: chunked"
	}
	fmt.Fprintf(w, "%s\r\n%s\r\n\r\n", strings.TrimRight(head, "\r\n"), framing)
	for rest := body; len(rest) > 0; {
		piece := rest[:min(len(rest), 4<<10)]
		rest = rest[len(piece):]
		if chunked {
			fmt.Fprintf(w, "%x\r\n%s\r\n", len(piece), piece)
		} else {
			w.Write(piece)
		}
	}
	if chunked {
		w.WriteString("0\r\n\r\n")
	}
	if err := w.Flush(); err != nil {
		t.Fatalf("sending the body of %d bytes: %v", len(body), err)
	}
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the answer's body: %v", err)
	}
	if rest, err := io.ReadAll(r); err != nil || len(rest) > 0 {
		t.Errorf("after the answer, the connection held %q and ended with %v; want a close", rest, err)
	}
	return Answer{Status: resp.StatusCode, Header: resp.Header, Body: got}
}

// A Case is a request that is answered before its body is read to its end.
type Case struct {
	Name string
	// Server is where the request goes, instead of Run's server when set.
	Server              *httptest.Server
	Method, Path, Token string // Token is "" for none
	// Status is the answer's status, and Says a part of its JSON body, or
	// "" for an answer without a body.
	Status int
	Says   string
}

// Run sends the request of each case with body to srv, whole, with
// SendWhole: framed by Content-Length and in chunks, twice each, so that
// an answer that got through by chance does not pass the case. Each
// framing and case is a subtest of t.
func Run(t *testing.T, srv *httptest.Server, body []byte, cases []Case) {
	for _, chunked := range []bool{false, true} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("chunked %v/%s", chunked, c.Name), func(t *testing.T) {
				to, auth := srv, ""
				if c.Server != nil {
					to = c.Server
				}
				if c.Token != "" {
					auth = "\r\nAuthorization: Bearer " + c.Token
				}
				for range 2 {
					a := SendWhole(t, to, fmt.Sprintf("%s %s HTTP/1.1\r\nHost: x%s", c.Method, c.Path, auth), body, chunked)
					whole := c.Says == "" && len(a.Body) == 0 || json.Valid(a.Body) && strings.Contains(string(a.Body), c.Says)
					if a.Status != c.Status || !whole {
						t.Errorf("%d %s; want %d with a body that says %q", a.Status, a.Body, c.Status, c.Says)
					}
				}
			})
		}
	}
}
