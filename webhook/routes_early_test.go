package webhook_test

import (
	"net/http"
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
	earlyanswertest.Run(t, srv, body, []earlyanswertest.Case{
		{Name: "no token", Method: "POST", Path: orgHooks, Status: http.StatusUnauthorized, Says: "Requires authentication"},
		{Name: "bad token", Method: "PATCH", Path: orgHooks + "/" + itoa(hook.ID), Token: "nobody", Status: http.StatusUnauthorized, Says: "Bad credentials"},
		{Name: "no permission", Method: "POST", Path: repoHooks, Token: "no-hooks", Status: http.StatusForbidden, Says: "Resource not accessible"},
		{Name: "a private repository", Method: "POST", Path: "/repos/octo-org/secret-plans/hooks", Status: http.StatusNotFound, Says: "Not Found"},
		{Name: "an unknown path", Method: "POST", Path: orgHooks + "/" + itoa(hook.ID) + "/nowhere", Token: "admin", Status: http.StatusNotFound, Says: "Not Found"},
		{Name: "method not allowed", Method: "PUT", Path: orgHooks, Token: "admin", Status: http.StatusMethodNotAllowed, Says: "Method Not Allowed"},
		{Name: "a ping of an unknown hook", Method: "POST", Path: orgHooks + "/999/pings", Token: "admin", Status: http.StatusNotFound, Says: "Not Found"},
		{Name: "a ping, which reads no body", Method: "POST", Path: orgHooks + "/" + itoa(hook.ID) + "/pings", Token: "admin", Status: http.StatusNoContent},
	})
}
