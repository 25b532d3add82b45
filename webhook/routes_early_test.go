package webhook_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/issuefields/issuefields/internal/earlyanswer/earlyanswertest"
)

// TestRoutesEarlyAnswersReachAClientStillSending checks, over real
// connections, that every answer the routes give before they have read a
// body within their bound (1 MiB) reaches a client that sends its whole body
// before it reads the answer: the whole body is taken, the answer is whole,
// and the connection then closes without a reset. The body, 900 KB, is more
// than net/http reads of a body after its handler returns, so that routes
// that close without reading the rest reset the connection while the client
// is still sending, every time (see earlyanswertest).
func TestRoutesEarlyAnswersReachAClientStillSending(t *testing.T) {
	a := newAPI(t)
	hook := a.addHook(t, orgScope("octo-org"), a.rc.URL)
	srv := earlyanswertest.NewServer(t, a.srv.Config.Handler)
	body := earlyanswertest.Body(`"x"`, 900<<10)
	cases := []struct {
		name, method, path, token string
		status                    int
		message                   string
	}{
		{"no token", "POST", orgHooks, "", http.StatusUnauthorized, "Requires authentication"},
		{"bad token", "PATCH", orgHooks + "/" + itoa(hook.ID), "nobody", http.StatusUnauthorized, "Bad credentials"},
		{"no permission", "POST", repoHooks, "no-hooks", http.StatusForbidden, "Resource not accessible"},
		{"a private repository", "POST", "/repos/octo-org/secret-plans/hooks", "", http.StatusNotFound, "Not Found"},
		{"an unknown path", "POST", orgHooks + "/" + itoa(hook.ID) + "/nowhere", "admin", http.StatusNotFound, "Not Found"},
		{"method not allowed", "PUT", orgHooks, "admin", http.StatusMethodNotAllowed, "Method Not Allowed"},
		{"a ping of an unknown hook", "POST", orgHooks + "/999/pings", "admin", http.StatusNotFound, "Not Found"},
		{"a ping, which reads no body", "POST", orgHooks + "/" + itoa(hook.ID) + "/pings", "admin", http.StatusNoContent, ""},
	}
	for _, chunked := range []bool{false, true} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("chunked %v/%s", chunked, c.name), func(t *testing.T) {
				auth := ""
				if c.token != "" {
					auth = "\r\nAuthorization: Bearer " + c.token
				}
				// Twice, so that a first answer that got through by chance
				// does not pass the case.
				for range 2 {
					got := earlyanswertest.SendWhole(t, srv, fmt.Sprintf("%s %s HTTP/1.1\r\nHost: x%s", c.method, c.path, auth), body, chunked)
					if got.Status != c.status || !strings.Contains(string(got.Body), c.message) {
						t.Errorf("%d %s; want %d with a message that says %q", got.Status, got.Body, c.status, c.message)
					}
				}
			})
		}
	}
}
