package webhook_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// faultyVerifier is the verifier of the route tests, and fails for the
// tokens "broken" (with an error that repeats the token) and "busy" (with
// one that wraps issuefields.ErrUnavailable).
type faultyVerifier struct{ verifier }

func (v faultyVerifier) VerifyToken(ctx context.Context, token string) (*issuefields.Principal, error) {
	switch token {
	case "broken":
		return nil, fmt.Errorf("looking up the token %s: connection reset", token)
	case "busy":
		return nil, fmt.Errorf("looking up a token: %w", issuefields.ErrUnavailable)
	}
	return v.verifier.VerifyToken(ctx, token)
}

// TestRoutesFaults checks the answers to requests the routes cannot serve:
// a path they do not have, a malformed Authorization header, a body too
// large, and a verifier that fails; and that the log of a failure never
// shows the token.
func TestRoutesFaults(t *testing.T) {
	w := newWorld(t)
	log, logger := newLogRecorder()
	n := newNotifier(t, webhook.Options{Store: w.hooks})
	srv := httptest.NewServer(newHandler(t, issuefields.Config{Store: w.data, Notifier: n, Verifier: faultyVerifier{}, Logger: logger}))
	t.Cleanup(srv.Close)
	tests := []struct {
		name, method, path, authorization, body string
		want                                    int
		wantHeader                              [2]string
	}{
		{name: "a path the routes do not have", method: "GET", path: "/orgs/octo-org/hookz", want: 404},
		{name: "a scheme other than Bearer", method: "GET", path: orgHooks, authorization: "Basic YWRtaW46", want: 401},
		{name: "a token with a space", method: "GET", path: orgHooks, authorization: "Bearer ad min", want: 401},
		{name: "a verifier that fails", method: "GET", path: orgHooks, authorization: "Bearer broken", want: 500},
		{name: "a verifier that is unavailable", method: "GET", path: orgHooks, authorization: "token busy", want: 503,
			wantHeader: [2]string{"Retry-After", "1"}},
		{name: "a body too large", method: "POST", path: orgHooks, authorization: "Bearer admin",
			body: `{"name":"web","x":"` + strings.Repeat("x", 1<<20) + `"}`, want: 413},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.authorization != "" {
				req.Header.Set("Authorization", tt.authorization)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("%d, want %d", resp.StatusCode, tt.want)
			}
			if name := tt.wantHeader[0]; name != "" && resp.Header.Get(name) != tt.wantHeader[1] {
				t.Errorf("%s %q, want %q", name, resp.Header.Get(name), tt.wantHeader[1])
			}
		})
	}
	failures := log.withMessage("request failed")
	if len(failures) != 2 {
		t.Errorf("logged %d failures, want 2: the 500 and the 503", len(failures))
	}
	for _, line := range failures {
		if strings.Contains(fmt.Sprint(line), "broken") {
			t.Errorf("the log shows the token: %v", line)
		}
	}
}

// TestNewRoutesChecksConfig checks that NewRoutes refuses a config it cannot
// work with, and names what is wrong.
func TestNewRoutesChecksConfig(t *testing.T) {
	w := newWorld(t)
	n := newNotifier(t, webhook.Options{Store: w.hooks})
	tests := []struct {
		name string
		cfg  webhook.RoutesConfig
		want string
	}{
		{"no store", webhook.RoutesConfig{Notifier: n}, "RoutesConfig.Store"},
		{"no notifier", webhook.RoutesConfig{Store: w.data}, "RoutesConfig.Notifier"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := webhook.NewRoutes(tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewRoutes: %v, want an error naming %s", err, tt.want)
			}
		})
	}
}
