package standin_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/issuefields/issuefields/example/standin"
)

// serve serves a request from remote to the tools of cfg, and returns the
// answer.
func serve(cfg standin.Config, method, path, remote, authorization string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "http://127.0.0.1:8080"+path, nil)
	req.RemoteAddr = remote
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	w := httptest.NewRecorder()
	standin.New(cfg).ServeHTTP(w, req)
	return w
}

func TestOnlyLoopbackWithoutAnAdminToken(t *testing.T) {
	hosts := []string{"127.0.0.1:8080"}
	for _, tc := range []struct {
		name, remote, token, authorization string
		want                               int
	}{
		{"IPv4 loopback", "127.0.0.1:5000", "", "", http.StatusOK},
		{"another IPv4 loopback address", "127.1.2.3:5000", "", "", http.StatusOK},
		{"IPv6 loopback", "[::1]:5000", "", "", http.StatusOK},
		{"another host", "192.0.2.7:5000", "", "", http.StatusNotFound},
		{"another host with the admin token", "192.0.2.7:5000", "let-me-in", "Bearer let-me-in", http.StatusOK},
		{"another host without it", "192.0.2.7:5000", "let-me-in", "", http.StatusUnauthorized},
	} {
		cfg := standin.Config{AdminToken: tc.token, Hosts: hosts}
		if w := serve(cfg, "GET", "/_issuefields/requests", tc.remote, tc.authorization); w.Code != tc.want {
			t.Errorf("%s: GET /_issuefields/requests = %d %s, want %d", tc.name, w.Code, w.Body, tc.want)
		}
	}
}

// record serves each body as a POST through j's Record, with a handler
// that reads the body and answers 201, and returns what j lists.
func record(t *testing.T, j *standin.Journal, query string, bodies ...string) []standin.Request {
	t.Helper()
	h := j.Record(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusCreated)
	}), func(token string) string { return "login-of-" + strings.TrimSuffix(token, "-token") })
	for _, body := range bodies {
		req := httptest.NewRequest("POST", "/orgs/octo-org/hooks?"+query, strings.NewReader(body))
		req.Header.Set("Authorization", "token octocat-token")
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	return j.Requests()
}

func TestRecordMasksSecretsAndKeepsBodiesBounded(t *testing.T) {
	long := `{"text": "` + strings.Repeat("x", 64<<10) + `"}`
	got := record(t, new(standin.Journal), "access_token=abc&page=2",
		`{"config": {"secret": "one", "url": "u"}, "list": [{"SECRET": {"deep": "two"}}], "secret": 3}`,
		`{"secret": "three"`,
		long,
	)
	longest, broken, masked := got[0], got[1], got[2]
	if string(masked.Body) != `{"config":{"secret":"********","url":"u"},"list":[{"SECRET":"********"}],"secret":"********"}` {
		t.Errorf("recorded body %s, want every secret masked", masked.Body)
	}
	if masked.Query != "access_token=%2A%2A%2A%2A%2A%2A%2A%2A&page=2" || masked.Login != "login-of-octocat" || masked.Status != http.StatusCreated {
		t.Errorf("recorded %+v, want the token in the query masked, the caller's login and 201", masked)
	}
	if broken.Body != nil || broken.BodySize != int64(len(`{"secret": "three"`)) {
		t.Errorf("a body that is not JSON was recorded as %s (%d bytes), want only its size", broken.Body, broken.BodySize)
	}
	if longest.Body != nil || longest.BodySize != int64(len(long)) {
		t.Errorf("a body over 64 KiB was recorded as %d bytes of body and size %d, want only its size", len(longest.Body), longest.BodySize)
	}
	b, _ := json.Marshal(got)
	for _, secret := range []string{"one", "two", "three", "abc", "octocat-token"} {
		if strings.Contains(string(b), `"`+secret) {
			t.Errorf("the recorded requests show %q: %s", secret, b)
		}
	}
}

func TestJournalKeepsTheNewest1000(t *testing.T) {
	j := new(standin.Journal)
	bodies := make([]string, 1001)
	for i := range bodies {
		bodies[i] = strconv.Itoa(i)
	}
	got := record(t, j, "", bodies...)
	if len(got) != 1000 || string(got[0].Body) != "1000" || string(got[999].Body) != "1" {
		t.Errorf("the journal lists %d requests, from %s to %s; want 1000, from 1000 to 1", len(got), got[0].Body, got[len(got)-1].Body)
	}
	j.Clear()
	if got := j.Requests(); len(got) != 0 {
		t.Errorf("after Clear, the journal lists %d requests, want none", len(got))
	}
}
