package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// answer is a response as a test reads it.
type answer struct {
	status int
	header http.Header
	body   string
}

// send makes a request to the server, with token as a bearer token unless
// it is "", and returns the answer, a redirect included (see do1).
func send(t *testing.T, method, url, token, body string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do1(t, req)
}

// jsonObject decodes a body that must be one JSON object ending with a
// newline.
func jsonObject(t *testing.T, a answer) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(a.body), &v); err != nil || !strings.HasSuffix(a.body, "}\n") {
		t.Fatalf("%d %q: want a JSON object ending with a newline (%v)", a.status, a.body, err)
	}
	if ct := a.header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Content-Type %q, want application/json; charset=utf-8", ct)
	}
	return v
}

// origin returns the scheme and address of a server's base URL.
func origin(base string) string {
	i := strings.Index(base[len("http://"):], "/")
	return base[:len("http://")+i]
}

func TestHealthAndReadinessOutsideThePrefix(t *testing.T) {
	for _, prefix := range []string{"/", "/api/v3"} {
		t.Run(prefix, func(t *testing.T) {
			s := startServer(t, "-prefix", prefix)
			for _, path := range []string{"/healthz", "/readyz"} {
				a := send(t, http.MethodGet, origin(s.base)+path, "", "")
				if v := jsonObject(t, a); a.status != http.StatusOK || v["status"] != "ok" {
					t.Errorf("GET %s = %d %s, want 200 and status ok", path, a.status, a.body)
				}
				a = send(t, http.MethodPost, origin(s.base)+path, "", "")
				if jsonObject(t, a); a.status != http.StatusMethodNotAllowed || a.header.Get("Allow") != "GET, HEAD" {
					t.Errorf("POST %s = %d, Allow %q, want 405 and GET, HEAD", path, a.status, a.header.Get("Allow"))
				}
			}
			if a := send(t, http.MethodGet, s.base+"repos/octo-org/hello-world/issues/3/issue-field-values", "", ""); a.status != http.StatusOK {
				t.Errorf("the API under %s answers %d, want 200", prefix, a.status)
			}
		})
	}
}

// TestUncleanPathsAnswerJSON checks that a path with //, . or .. is answered
// with a JSON 404, by the API under its prefix and by the server elsewhere,
// never with the text/html redirect of http.ServeMux; so is the prefix
// without its trailing slash.
func TestUncleanPathsAnswerJSON(t *testing.T) {
	noRedirects := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	const values = "/repos/octo-org/hello-world/issues/3/issue-field-values"
	for _, prefix := range []string{"", "/api/v3"} {
		t.Run("prefix "+prefix, func(t *testing.T) {
			s := startServer(t, "-prefix", prefix+"/")
			root := origin(s.base)
			paths := []string{
				prefix + "/" + values,
				prefix + "/repos/octo-org//hello-world/issues/3/issue-field-values",
				prefix + values + "/./",
				prefix + "/repos/octo-org/x/../hello-world/issues/3/issue-field-values",
				prefix + "/orgs//octo-org/issue-fields",
				"//healthz",
				"/healthz/../readyz",
			}
			if prefix != "" {
				paths = append(paths, prefix, "//other", prefix+"x//y")
			}
			for _, path := range paths {
				for _, method := range []string{http.MethodGet, http.MethodPost} {
					req, err := http.NewRequest(method, root+path, strings.NewReader(`{"issue_field_values":[]}`))
					if err != nil {
						t.Fatal(err)
					}
					resp, err := noRedirects.Do(req)
					if err != nil {
						t.Fatal(err)
					}
					body, err := io.ReadAll(resp.Body)
					resp.Body.Close()
					if err != nil {
						t.Fatal(err)
					}
					a := answer{resp.StatusCode, resp.Header, string(body)}
					if v := jsonObject(t, a); a.status != http.StatusNotFound || v["message"] == nil || a.header.Get("Location") != "" {
						t.Errorf("%s %s: %d %s, Location %q; want a JSON 404", method, path, a.status, a.body, a.header.Get("Location"))
					}
				}
			}
		})
	}
}

// flakyStore is a memstore.Store whose lookups fail while down is set, as a
// database's do while it is unreachable.
type flakyStore struct {
	*memstore.Store
	down atomic.Bool
}

func (s *flakyStore) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	if s.down.Load() {
		return issuefields.Snapshot{}, fmt.Errorf("%w: connection refused", issuefields.ErrUnavailable)
	}
	return s.Store.Snapshot(ctx, owner, name, number)
}

func TestReadinessAsksTheStore(t *testing.T) {
	store := &flakyStore{Store: memstore.New()}
	s := startCommand(t, opening(store, nil))
	ready := origin(s.base) + "/readyz"
	if a := send(t, http.MethodGet, ready, "", ""); a.status != http.StatusOK {
		t.Fatalf("GET /readyz = %d %s, want 200", a.status, a.body)
	}
	store.down.Store(true)
	a := send(t, http.MethodGet, ready, "", "")
	if v := jsonObject(t, a); a.status != http.StatusServiceUnavailable || v["status"] != "unavailable" || a.header.Get("Retry-After") == "" {
		t.Errorf("GET /readyz with the store down = %d %s (Retry-After %q), want 503 with Retry-After", a.status, a.body, a.header.Get("Retry-After"))
	}
	if strings.Contains(a.body, "connection refused") {
		t.Errorf("the body shows the store's error: %s", a.body)
	}
	if h := send(t, http.MethodGet, origin(s.base)+"/healthz", "", ""); h.status != http.StatusOK {
		t.Errorf("GET /healthz with the store down = %d, want 200: the process is alive", h.status)
	}
	store.down.Store(false)
	if a := send(t, http.MethodGet, ready, "", ""); a.status != http.StatusOK {
		t.Errorf("GET /readyz with the store back = %d, want 200", a.status)
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	if logs := s.logs.String(); !strings.Contains(logs, "not ready") || !strings.Contains(logs, "connection refused") {
		t.Errorf("the log does not give the cause of the 503:\n%s", logs)
	}
}

// TestNotFoundOutsideThePrefixSaysWhereTheAPIIs checks that a client with a
// wrong base URL gets JSON that it can decode, naming the right one.
func TestNotFoundOutsideThePrefixSaysWhereTheAPIIs(t *testing.T) {
	s := startServer(t, "-prefix", "/api/v3")
	for _, path := range []string{"/repos/octo-org/hello-world/issues/1/issue-field-values", "/", "/api/v2/x"} {
		a := send(t, http.MethodGet, origin(s.base)+path, "", "")
		v := jsonObject(t, a)
		if a.status != http.StatusNotFound || v["api_url"] != s.base || !strings.Contains(fmt.Sprint(v["message"]), "/api/v3/") {
			t.Errorf("GET %s = %d %s, want 404 with api_url %s", path, a.status, a.body, s.base)
		}
	}
}

// TestNotFoundInsideThePrefixIsTheAPIs checks that paths under the prefix
// are the API's own, with its error body.
func TestNotFoundInsideThePrefixIsTheAPIs(t *testing.T) {
	s := startServer(t, "-prefix", "/api/v3")
	a := send(t, http.MethodGet, s.base+"nope", "", "")
	if v := jsonObject(t, a); a.status != http.StatusNotFound || v["api_url"] != nil || v["message"] != "Not Found" {
		t.Errorf("GET %snope = %d %s, want the API's 404", s.base, a.status, a.body)
	}
}

var errNoDebugLine = errors.New("the start-up message has no debug listener line")

// debugURL returns the URL of the debug listener from the start-up message.
func debugURL(s *running) (string, error) {
	for _, line := range s.message {
		if rest, ok := strings.CutPrefix(line, "debug listener: profiles on "); ok {
			url, _, _ := strings.Cut(rest, "/debug/pprof/")
			return url, nil
		}
	}
	return "", errNoDebugLine
}
