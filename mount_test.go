package issuefields_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/issuefields/issuefields"
)

// answerNothing is the Serve of the Routes that the tests of New never call.
func answerNothing(*issuefields.Call) error { return nil }

// TestNewRefusesRoutesThatCollide checks that New refuses a Route that
// lacks what it needs, or whose path matches a request that one of the
// API's routes or another Route matches, naming it and what it collides
// with; and that it takes Routes that share one path, spelled the same, with
// different methods.
func TestNewRefusesRoutesThatCollide(t *testing.T) {
	route := func(method, path string) issuefields.Route {
		return issuefields.Route{Method: method, Path: path, Serve: answerNothing}
	}
	tests := []struct {
		name   string
		routes []issuefields.Route
		want   string // "" for a config that New takes
	}{
		{"no method", []issuefields.Route{route("", "/things")}, "Config.Routes[0] ( /things) has no Method"},
		{"no path", []issuefields.Route{route("GET", "")}, "Config.Routes[0] (GET ) has a Path that does not begin with /"},
		{"a path with a host", []issuefields.Route{route("GET", "example.com/things")}, "does not begin with /"},
		{"no Serve", []issuefields.Route{{Method: "GET", Path: "/things"}}, "Config.Routes[0] (GET /things) has no Serve"},
		{"a pattern ServeMux refuses", []issuefields.Route{route("GET", "/things/{id")}, "is not a pattern of http.ServeMux"},
		{"two methods", []issuefields.Route{route("GET POST", "/things")}, "has a Method that is not one word"},
		{"a method ServeMux refuses", []issuefields.Route{route("GET,POST", "/things")}, "is not a pattern of http.ServeMux"},
		{"the API's route", []issuefields.Route{route("GET", "/repos/{owner}/{repo}/issues/{issue_number}/issue-field-values")},
			"Config.Routes[0] (GET /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values) collides with the API's route GET /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values"},
		{"the API's route, its wildcards named otherwise", []issuefields.Route{route("POST", "/orgs/{login}/issue-fields")},
			"collides with the API's route POST /orgs/{org}/issue-fields"},
		{"HEAD on one of the API's GETs", []issuefields.Route{route("HEAD", "/orgs/{org}/issue-fields")},
			"collides with the API's route GET /orgs/{org}/issue-fields"},
		{"an issue of the API's routes", []issuefields.Route{route("GET", "/repos/octo-org/hello-world/issues/1/issue-field-values")},
			"collides with the API's route GET /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values"},
		{"another method on the API's path spelled otherwise", []issuefields.Route{route("PUT", "/orgs/{login}/issue-fields")},
			"collides with the API's route GET /orgs/{org}/issue-fields"},
		{"everything below /orgs/", []issuefields.Route{route("PATCH", "/orgs/")}, "collides with the API's route"},
		{"every path", []issuefields.Route{route("GET", "/{path...}")}, "collides with the API's route"},
		{"another Route", []issuefields.Route{route("GET", "/things/{id}"), route("GET", "/things/{thing}")},
			"Config.Routes[1] (GET /things/{thing}) collides with Config.Routes[0] (GET /things/{id})"},
		{"another Route's path, with another method", []issuefields.Route{route("GET", "/things/{id}"), route("POST", "/things/mine")},
			"Config.Routes[1] (POST /things/mine) collides with Config.Routes[0] (GET /things/{id})"},
		{"a Route below another's trailing slash", []issuefields.Route{route("GET", "/things/"), route("POST", "/things/a/b")},
			"Config.Routes[1] (POST /things/a/b) collides with Config.Routes[0] (GET /things/)"},
		{"one path, spelled the same, with two methods", []issuefields.Route{route("GET", "/things/{id}"), route("DELETE", "/things/{id}")}, ""},
		{"one more method on the API's path", []issuefields.Route{route("PUT", "/orgs/{org}/issue-fields")}, ""},
		{"a path that ends where another's trailing slash begins", []issuefields.Route{route("GET", "/things"), route("GET", "/things/{id}")}, ""},
		{"paths that differ by a literal", []issuefields.Route{route("GET", "/orgs/{org}/hooks"), route("GET", "/repos/{owner}/{repo}/hooks")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := issuefields.New(issuefields.Config{Store: newFixtureStore(t), Verifier: fixtureVerifier, Routes: tt.routes})
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("New: %v, want a handler", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("New: %v, want an error that says %q", err, tt.want)
			}
		})
	}
}

// newRouteHandler returns a handler over the fixture that serves routes
// besides the API, logging to logger (nil for nowhere), and with a
// secondary rate limit of two writes an hour.
func newRouteHandler(t *testing.T, logger *slog.Logger, routes ...issuefields.Route) *issuefields.Handler {
	t.Helper()
	return newConfiguredHandler(t, issuefields.Config{Store: newFixtureStore(t), Routes: routes, Logger: logger,
		DocumentationURL: "https://docs.example.test/api", WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: 2}})
}

// TestRouteCall checks what a Route's Serve gets: the request, whose
// context carries the caller's Principal, the caller (nil when anonymous,
// whom RequireToken refuses 401), and an answer written as the API's, with
// the Route's permissions header on every answer and its documentation URL
// (the handler's, when it gives none) in its errors.
func TestRouteCall(t *testing.T) {
	whoami := issuefields.Route{Method: "GET", Path: "/users/{name}/whoami", Permissions: "metadata=read",
		Serve: func(c *issuefields.Call) error {
			if err := c.RequireToken(); err != nil {
				return err
			}
			fromContext, _ := issuefields.PrincipalFromContext(c.Request().Context())
			c.Header().Set("X-Name", c.Request().PathValue("name"))
			return c.WriteJSON(http.StatusOK, map[string]string{"login": c.Principal().Login, "in_context": fromContext.Login})
		}}
	documented := issuefields.Route{Method: "DELETE", Path: "/users/{name}/whoami", DocumentationURL: "https://docs.example.test/whoami",
		Serve: func(c *issuefields.Call) error {
			if c.Principal() != nil {
				c.WriteHeader(http.StatusNoContent)
				return nil
			}
			return c.RequireToken()
		}}
	h := newRouteHandler(t, nil, whoami, documented)
	tests := []struct {
		name, method, token string
		want                int
		wantBody            string // its JSON, or what the error's message says
		wantDoc             string
		wantPermissions     string
	}{
		{"a caller with a token", "GET", writerToken, 200, `{"in_context":"writer","login":"writer"}`, "", "metadata=read"},
		{"an anonymous caller", "GET", "", 401, "Requires authentication", "https://docs.example.test/api", "metadata=read"},
		{"bad credentials", "GET", unknownToken, 401, "Bad credentials", "https://docs.example.test/api", "metadata=read"},
		{"a Route's documentation", "DELETE", "", 401, "Requires authentication", "https://docs.example.test/whoami", ""},
		{"an answer without a body", "DELETE", writerToken, 204, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := do(t, h, tt.method, "/users/octocat/whoami", tt.token, "")
			if r.status != tt.want {
				t.Fatalf("%d %s, want %d", r.status, r.body, tt.want)
			}
			if got := r.header.Get("X-Accepted-Service-Permissions"); got != tt.wantPermissions {
				t.Errorf("X-Accepted-Service-Permissions %q, want %q", got, tt.wantPermissions)
			}
			if r.header.Get("X-Service-Request-Id") == "" || r.header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("headers %v, want a request id and nosniff", r.header)
			}
			switch {
			case tt.want == http.StatusOK:
				if r.body != tt.wantBody+"\n" || r.header.Get("X-Name") != "octocat" {
					t.Errorf("body %q, X-Name %q; want %s and octocat", r.body, r.header.Get("X-Name"), tt.wantBody)
				}
			case tt.want == http.StatusNoContent:
				if r.body != "" {
					t.Errorf("body %q, want none", r.body)
				}
			default:
				var e errorResponse
				r.json(t, &e)
				if e.Message != tt.wantBody || e.DocumentationURL != tt.wantDoc || e.Status != itoa(tt.want) {
					t.Errorf("body %s, want the message %q and the documentation %s", r.body, tt.wantBody, tt.wantDoc)
				}
			}
		})
	}
}

// TestRouteReadObject checks that ReadObject returns the members of a body,
// and refuses, as the API does, one that is empty.
func TestRouteReadObject(t *testing.T) {
	echo := issuefields.Route{Method: "POST", Path: "/echo", Serve: func(c *issuefields.Call) error {
		members, err := c.ReadObject()
		if err != nil {
			return err
		}
		return c.WriteJSON(http.StatusOK, members)
	}}
	h := newRouteHandler(t, nil, echo)
	if r := do(t, h, "POST", "/echo", writerToken, ` {"a": [1, {"b": null}], "c" : "d"} `); r.status != http.StatusOK || r.body != `{"a":[1,{"b":null}],"c":"d"}`+"\n" {
		t.Errorf("echo: %d %s, want the members", r.status, r.body)
	}
	if r := do(t, h, "POST", "/echo", writerToken, ""); r.status != http.StatusBadRequest || !strings.Contains(r.body, "Problems parsing JSON") {
		t.Errorf("an empty body: %d %s, want 400 Problems parsing JSON", r.status, r.body)
	}
}

// TestRouteLimitWrite checks that a Route's writes count toward the
// secondary rate limit of the values routes' writes, once a request however
// often the Route asks, and are refused with its 422 past it.
func TestRouteLimitWrite(t *testing.T) {
	write := issuefields.Route{Method: "POST", Path: "/things", Serve: func(c *issuefields.Call) error {
		for range 2 {
			if err := c.LimitWrite(); err != nil {
				return err
			}
		}
		c.WriteHeader(http.StatusNoContent)
		return nil
	}}
	h := newRouteHandler(t, nil, write)
	// The limit is two writes an hour: one of the Route, one of the API.
	if r := do(t, h, "POST", "/things", writerToken, ""); r.status != http.StatusNoContent {
		t.Fatalf("the first write: %d %s, want 204", r.status, r.body)
	}
	if r := do(t, h, "DELETE", valuesPath(org, publicRepo, 1)+"/"+itoa(notesID), writerToken, ""); r.status != http.StatusNoContent {
		t.Fatalf("the second write, of a value: %d %s, want 204", r.status, r.body)
	}
	r := do(t, h, "POST", "/things", writerToken, "")
	if r.status != http.StatusUnprocessableEntity || r.header.Get("Retry-After") == "" || !strings.Contains(r.body, "secondary rate limit") {
		t.Errorf("the third write: %d, Retry-After %q, %s; want 422 for the secondary rate limit", r.status, r.header.Get("Retry-After"), r.body)
	}
}

// TestRouteExplain checks that Explain gives a Route that writes its errors
// in its own shape the status and message the API answers them with, and
// logs the cause of a 500, never shown, with the request id, once however
// often the route asks about it.
func TestRouteExplain(t *testing.T) {
	errBroken := errors.New("the disk is on fire")
	causes := map[string]error{"missing": issuefields.ErrNotFound, "busy": issuefields.ErrUnavailable, "broken": errBroken}
	graph := issuefields.Route{Method: "POST", Path: "/graph/{what}", Serve: func(c *issuefields.Call) error {
		err := causes[c.Request().PathValue("what")]
		c.Explain(err) // a route may ask once to decide, and again to answer
		status, message := c.Explain(err)
		return c.WriteJSON(http.StatusOK, map[string]any{"errors": []any{map[string]any{"status": status, "message": message}}})
	}}
	rh := &recordHandler{}
	h := newRouteHandler(t, slog.New(rh), graph)
	tests := []struct {
		what string
		want string
	}{
		{"missing", `{"errors":[{"message":"Not Found","status":404}]}`},
		{"busy", `{"errors":[{"message":"The service is temporarily unavailable. Please retry later.","status":503}]}`},
		{"broken", `{"errors":[{"message":"Internal server error. The failure was logged with this request's id.","status":500}]}`},
	}
	ids := map[string]string{}
	for _, tt := range tests {
		r := do(t, h, "POST", "/graph/"+tt.what, writerToken, "")
		if r.status != http.StatusOK || r.body != tt.want+"\n" {
			t.Errorf("%s: %d %s, want 200 %s", tt.what, r.status, r.body, tt.want)
		}
		ids[tt.what] = r.header.Get("X-Service-Request-Id")
	}
	var failures []string
	for _, rec := range rh.records {
		if rec.Message != "request failed" {
			continue
		}
		attrs := map[string]string{}
		rec.Attrs(func(a slog.Attr) bool {
			attrs[a.Key] = a.Value.String()
			return true
		})
		failures = append(failures, fmt.Sprintf("%s %s %s", attrs["request_id"], attrs["status"], attrs["error"]))
	}
	want := []string{ids["busy"] + " 503 " + issuefields.ErrUnavailable.Error(), ids["broken"] + " 500 " + errBroken.Error()}
	if !slices.Equal(failures, want) {
		t.Errorf("logged failures %q, want %q", failures, want)
	}
}

// TestRouteRefusals checks the refusals a Call gives a Route: NotAccessible
// worded by the token's kind, Invalid with its items, BadRequest with its
// message.
func TestRouteRefusals(t *testing.T) {
	refuse := issuefields.Route{Method: "POST", Path: "/refuse/{how}", Serve: func(c *issuefields.Call) error {
		switch c.Request().PathValue("how") {
		case "not-accessible":
			return c.NotAccessible("the permission things=write")
		case "invalid":
			return c.Invalid(map[string]string{"resource": "Thing", "code": "missing_field"})
		}
		return c.BadRequest(`"how" must be one of not-accessible and invalid.`)
	}}
	h := newRouteHandler(t, nil, refuse)
	tests := []struct {
		how, token string
		want       int
		wantBody   string
	}{
		{"not-accessible", writerToken, 403, `{"message":"Resource not accessible by personal access token: it needs the permission things=write.","documentation_url":"https://docs.example.test/api","status":"403"}`},
		{"not-accessible", appUserToken, 403, `{"message":"Resource not accessible by integration: it needs the permission things=write.","documentation_url":"https://docs.example.test/api","status":"403"}`},
		{"not-accessible", "", 401, `{"message":"Requires authentication","documentation_url":"https://docs.example.test/api","status":"401"}`},
		{"invalid", writerToken, 422, `{"message":"Validation Failed","documentation_url":"https://docs.example.test/api","status":"422","errors":[{"code":"missing_field","resource":"Thing"}]}`},
		{"other", writerToken, 400, `{"message":"\"how\" must be one of not-accessible and invalid.","documentation_url":"https://docs.example.test/api","status":"400"}`},
	}
	for _, tt := range tests {
		r := do(t, h, "POST", "/refuse/"+tt.how, tt.token, "")
		var got, want any
		r.json(t, &got)
		if err := json.Unmarshal([]byte(tt.wantBody), &want); err != nil {
			t.Fatal(err)
		}
		if r.status != tt.want || !cmp.Equal(got, want) {
			t.Errorf("%s with %q: %d %s, want %d %s", tt.how, tt.token, r.status, r.body, tt.want, tt.wantBody)
		}
	}
}
