package issuefields_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/earlyanswer/earlyanswertest"
)

// TestEarlyAnswersDoNotWaitForTheBody checks, over a real connection, that an
// answer the handler gives before it reads the body goes out while the client
// is still sending the body, whatever its framing, and closes the connection,
// since the rest of the body is not read. The client sends the start of a
// body and then nothing; it waits at most 5 s for the answer, so a server
// that reads the body first fails the test instead of hanging it.
func TestEarlyAnswersDoNotWaitForTheBody(t *testing.T) {
	srv := httptest.NewServer(newConfiguredHandler(t, issuefields.Config{Store: newFixtureStore(t), MaxBodyBytes: 1 << 10,
		WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: 1}}))
	defer srv.Close()
	// The rate limit's one write an hour goes to this write.
	if r := doHTTP(t, srv, "DELETE", valuesPath(org, publicRepo, 1)+"/"+itoa(notesID), writerToken); r != http.StatusNoContent {
		t.Fatalf("the write that uses up the rate limit: status %d", r)
	}
	framings := []struct {
		name string
		// head is the framing header; start is the part of the body sent.
		head, start string
	}{
		{"chunked, never ending", "Transfer-Encoding: chunked", "10\r\n{\"issue_field_va\r\n"},
		{"Content-Length, half sent", "Content-Length: 1000", `{"issue_field_values": [`},
	}
	cases := []struct {
		name, method, path, token string
		status                    int
	}{
		{"no token", "POST", valuesPath(org, publicRepo, 1), "", http.StatusUnauthorized},
		{"bad token", "PUT", valuesPath(org, publicRepo, 1), unknownToken, http.StatusUnauthorized},
		{"token kind not accepted", "POST", valuesPath(org, publicRepo, 1), classicToken, http.StatusForbidden},
		{"private repository", "POST", valuesPath(org, secretRepo, 1), "", http.StatusNotFound},
		{"unknown path", "POST", "/nowhere", writerToken, http.StatusNotFound},
		{"rate limited", "POST", valuesPath(org, publicRepo, 1), writerToken, http.StatusUnprocessableEntity},
		{"a list, which reads no body", "GET", valuesPath(org, publicRepo, 1), writerToken, http.StatusOK},
	}
	for _, f := range framings {
		for _, c := range cases {
			t.Run(f.name+"/"+c.name, func(t *testing.T) {
				auth := ""
				if c.token != "" {
					auth = "Authorization: Bearer " + c.token + "\r\n"
				}
				resp := sendHalfBody(t, srv, fmt.Sprintf("%s %s HTTP/1.1\r\nHost: x\r\n%s%s\r\n\r\n%s", c.method, c.path, auth, f.head, f.start))
				if resp.StatusCode != c.status || !resp.Close {
					t.Errorf("status %d, closing the connection: %v; want %d and the connection closed", resp.StatusCode, resp.Close, c.status)
				}
			})
		}
	}
	t.Run("over MaxBodyBytes", func(t *testing.T) {
		// Another principal, whose rate limit is not used up.
		resp := sendHalfBody(t, srv, fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: 5000\r\n\r\n{",
			valuesPath(org, publicRepo, 2), appUserToken))
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !resp.Close {
			t.Errorf("status %d, closing the connection: %v; want 413 and the connection closed", resp.StatusCode, resp.Close)
		}
	})
}

// sendHalfBody sends request, the head and the start of a body, to srv, then
// nothing more, and returns the answer, whose body it reads whole, waiting
// for it at most 5 s.
func sendHalfBody(t *testing.T, srv *httptest.Server, request string) *http.Response {
	t.Helper()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	if err := conn.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("no answer within 5 s: the server waits for the rest of the body")
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(resp.Body); err != nil {
		t.Fatalf("reading the answer's body: %v", err)
	}
	return resp
}

// doHTTP sends a request without a body to srv and returns the status.
func doHTTP(t *testing.T, srv *httptest.Server, method, path, token string) int {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestEarlyAnswersReachAClientStillSending checks, over real connections,
// that every answer the handler gives before it has read a body within
// MaxBodyBytes reaches a client that sends its whole body before it reads
// the answer: the whole body is taken, the answer is whole, and the
// connection then closes without a reset. The body, 900 KB, is more than
// net/http reads of a body after its handler returns (256 KB), and the
// connections' buffers are small (earlyanswertest), so that a server that
// closes without reading the rest resets the connection while the client is
// still sending, every time.
func TestEarlyAnswersReachAClientStillSending(t *testing.T) {
	store, gated := newFixtureStore(t), newGatedStore(t, 1)
	limited := earlyanswertest.NewServer(t, newConfiguredHandler(t, issuefields.Config{Store: store,
		WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: 1}}))
	// The rate limit's one write an hour goes to this write.
	if r := doHTTP(t, limited, "DELETE", valuesPath(org, publicRepo, 1)+"/"+itoa(notesID), writerToken); r != http.StatusNoContent {
		t.Fatalf("the write that uses up the rate limit: status %d", r)
	}
	free := earlyanswertest.NewServer(t, newConfiguredHandler(t, issuefields.Config{Store: store,
		WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: -1}}))
	busy := earlyanswertest.NewServer(t, newConfiguredHandler(t, issuefields.Config{Store: gated, MaxInFlight: 1}))
	body := earlyanswertest.Body(fieldItem(notesID, `"x"`), 900<<10)
	// The one request the busy server serves at once waits in the store.
	held := make(chan int)
	go func() { held <- doHTTP(t, busy, "GET", valuesPath(org, publicRepo, 2), writerToken) }()
	<-gated.entered
	defer func() {
		close(gated.gate)
		<-held
	}()
	earlyanswertest.Run(t, free, body, []earlyanswertest.Case{
		{Name: "no token", Method: "POST", Path: valuesPath(org, publicRepo, 1), Status: http.StatusUnauthorized, Says: "Requires authentication"},
		{Name: "bad token", Method: "PUT", Path: valuesPath(org, publicRepo, 1), Token: unknownToken, Status: http.StatusUnauthorized, Says: "Bad credentials"},
		{Name: "token kind not accepted", Method: "POST", Path: valuesPath(org, publicRepo, 1), Token: classicToken, Status: http.StatusForbidden, Says: "accepts only"},
		{Name: "private repository", Method: "POST", Path: valuesPath(org, secretRepo, 1), Status: http.StatusNotFound, Says: "Not Found"},
		{Name: "unknown path", Method: "POST", Path: "/nowhere", Token: writerToken, Status: http.StatusNotFound, Says: "Not Found"},
		{Name: "method not allowed", Method: "PATCH", Path: valuesPath(org, publicRepo, 1), Token: writerToken, Status: http.StatusMethodNotAllowed, Says: "Method Not Allowed"},
		{Name: "a field route without a token", Method: "POST", Path: "/orgs/" + org + "/issue-fields", Status: http.StatusUnauthorized, Says: "Requires authentication"},
		{Name: "more than 25 items", Method: "POST", Path: valuesPath(org, publicRepo, 1), Token: writerToken, Status: http.StatusUnprocessableEntity, Says: "more than 25 items"},
		{Name: "rate limited", Server: limited, Method: "POST", Path: valuesPath(org, publicRepo, 1), Token: writerToken, Status: http.StatusUnprocessableEntity, Says: "secondary rate limit"},
		{Name: "overloaded", Server: busy, Method: "POST", Path: valuesPath(org, publicRepo, 1), Token: writerToken, Status: http.StatusServiceUnavailable, Says: "Please retry"},
	})
}
