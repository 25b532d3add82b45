package webhook_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/issuefields/issuefields/webhook"
)

// badHookURLs are config.url values that a hook may not have, each with
// why.
var badHookURLs = []struct{ why, url string }{
	{"a space in the query", "http://127.0.0.1:9/x?a=b c"},
	{"a space in the path", "http://127.0.0.1:9/a b"},
	{"a tab", "http://127.0.0.1:9/\tx"},
	{"a line feed", "http://127.0.0.1:9/x\n"},
	{"a carriage return and a line feed in the query", "http://127.0.0.1:9/x?a=1\r\nX-Injected: 1"},
	{"a NUL", "http://127.0.0.1:9/\x00"},
	{"a DEL", "http://127.0.0.1:9/\x7f"},
	{"a C1 control", "http://127.0.0.1:9/\u0085"},
	{"a no-break space", "http://127.0.0.1:9/\u00a0"},
	{"a line separator in the host", "http://a\u2028b/"},
	{"a percent-encoded space in the host", "http://exa%20mple.com/"},
	{"a percent-encoded CR LF in the host", "http://a%0d%0ab/"},
	{"a percent-encoded line separator in the host", "http://a%e2%80%a8b/"},
	{"a percent-encoded ideographic space in the host", "http://a%e3%80%80b/"},
	{"no host", "http:///hook"},
	{"only a port", "http://:8080/hook"},
	{"no scheme", "//hooks.example.test/"},
	{"a relative URL", "/hook"},
	{"another scheme", "ftp://hooks.example.test/"},
	{"a bad escape", "http://hooks.example.test/%zz"},
	{"a URL one byte too long", "https://hooks.example.test/" + strings.Repeat("a", webhook.MaxHookURLBytes-len("https://hooks.example.test/")+1)},
}

// TestRoutesRefuseBadHookURLs checks that creating a hook, a hook's PATCH
// and PATCH .../config refuse each bad config.url with 422 in GitHub's
// validation-error shape, naming config.url, and change nothing.
func TestRoutesRefuseBadHookURLs(t *testing.T) {
	a := newAPI(t)
	orgHook := a.addHook(t, orgScope("octo-org"), a.rc.URL)
	repoHook := a.addHook(t, repoScope(a.helloWorld), a.rc.URL)
	for _, bad := range badHookURLs {
		quoted, err := json.Marshal(bad.url)
		if err != nil {
			t.Fatal(err)
		}
		url := string(quoted)
		for _, route := range []struct{ method, path, body string }{
			{"POST", orgHooks, `{"name":"web","config":{"url":` + url + `}}`},
			{"POST", repoHooks, `{"config":{"url":` + url + `}}`},
			{"PATCH", orgHooks + "/" + itoa(orgHook.ID), `{"config":{"url":` + url + `}}`},
			{"PATCH", repoHooks + "/" + itoa(repoHook.ID), `{"config":{"url":` + url + `}}`},
			{"PATCH", orgHooks + "/" + itoa(orgHook.ID) + "/config", `{"url":` + url + `}`},
			{"PATCH", repoHooks + "/" + itoa(repoHook.ID) + "/config", `{"url":` + url + `}`},
		} {
			got := a.do(t, route.method, route.path, "admin", route.body)
			var body struct {
				Message string `json:"message"`
				Errors  []struct {
					Resource, Field, Code, Message string
				} `json:"errors"`
			}
			if got.status == http.StatusUnprocessableEntity {
				got.json(t, &body)
			}
			if got.status != http.StatusUnprocessableEntity || body.Message != "Validation Failed" || len(body.Errors) != 1 ||
				body.Errors[0].Resource != "Hook" || body.Errors[0].Field != "config.url" || body.Errors[0].Code != "invalid" ||
				!strings.HasPrefix(body.Errors[0].Message, `"url" is refused: the URL`) {
				t.Errorf("%s %s with %s (%s): %d %s, want 422 Validation Failed with one error, invalid config.url",
					route.method, route.path, url, bad.why, got.status, got.body)
			}
		}
	}
	for _, scope := range []struct {
		path string
		id   int64
	}{{orgHooks, orgHook.ID}, {repoHooks, repoHook.ID}} {
		var hooks []struct {
			ID     int64 `json:"id"`
			Config struct {
				URL string `json:"url"`
			} `json:"config"`
		}
		a.mustDo(t, http.StatusOK, "GET", scope.path, "admin", "").json(t, &hooks)
		if len(hooks) != 1 || hooks[0].ID != scope.id || hooks[0].Config.URL != a.rc.URL {
			t.Errorf("after the refused requests, %s lists %+v, want hook %d with the URL %s", scope.path, hooks, scope.id, a.rc.URL)
		}
	}
}

// TestRoutesTakeGoodHookURLs checks that URLs with their special
// characters percent-encoded, or with letters beyond ASCII in the host, are
// taken as given.
func TestRoutesTakeGoodHookURLs(t *testing.T) {
	a := newAPI(t)
	for _, url := range []string{
		"http://127.0.0.1:9/x?a=b%20c",
		"https://hooks.example.test/a%0Ab?c=%0D%0A",
		"https://bücher.example/hook",
		"http://[::1]:3000/hook",
		"https://hooks.example.test/" + strings.Repeat("a", webhook.MaxHookURLBytes-len("https://hooks.example.test/")),
	} {
		quoted, err := json.Marshal(url)
		if err != nil {
			t.Fatal(err)
		}
		var created struct {
			Config struct {
				URL string `json:"url"`
			} `json:"config"`
		}
		a.mustDo(t, http.StatusCreated, "POST", repoHooks, "admin", `{"active":false,"config":{"url":`+string(quoted)+`}}`).json(t, &created)
		if created.Config.URL != url {
			t.Errorf("created a hook with the URL %q, want %q", created.Config.URL, url)
		}
	}
}

// TestCheckHookURLNamesTheProblem checks that CheckHookURL's error says what
// is wrong, and never repeats a password of the URL.
func TestCheckHookURLNamesTheProblem(t *testing.T) {
	for _, tt := range []struct{ url, want string }{
		{"http://127.0.0.1:9/x?a=b c", "the URL holds a space (U+0020) at byte 24, which a URL must percent-encode (%20)"},
		{"http://h/\r", "the URL holds the control character U+000D at byte 9, which a URL must percent-encode (%0D)"},
		{"http://h/\u00a0", "the URL holds the white space U+00A0 at byte 9, which a URL must percent-encode (%C2%A0)"},
		{"http://a%e2%80%a8b/", "the URL's host holds the white space U+2028 once percent-decoded"},
		{"http://user:hunter2@exa%20mple.com/", `the URL does not parse: invalid URL escape "%20"`},
		{"ftp://user:hunter2@example.com/", "the URL is not an absolute http or https URL with a host"},
		{"https://user:hunter2@example.com/hook", ""},
	} {
		got := ""
		if err := webhook.CheckHookURL(tt.url); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("CheckHookURL(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}
