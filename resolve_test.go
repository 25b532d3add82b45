package issuefields_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A request of each operation on one issue, and how it is expected to be
// redirected.
type resolveOp struct {
	method, suffix, body string
	redirect             int
	message              string
}

var resolveOps = []resolveOp{
	{"GET", "", "", http.StatusMovedPermanently, "Moved Permanently"},
	{"POST", "", writeBody(fieldItem(notesID, `"redirected"`)), http.StatusTemporaryRedirect, "Temporary Redirect"},
	{"PUT", "", writeBody(fieldItem(notesID, `"redirected"`)), http.StatusTemporaryRedirect, "Temporary Redirect"},
	{"DELETE", "/" + itoa(notesID), "", http.StatusTemporaryRedirect, "Temporary Redirect"},
}

func TestOwnerAndRepoMatchCaseInsensitively(t *testing.T) {
	h, s := newFixtureHandler(t)
	want := do(t, h, "GET", valuesPath(org, publicRepo, 1), "", "")
	for _, owner := range []string{"OCTO-ORG", "Octo-Org"} {
		for _, repo := range []string{"HELLO-WORLD", "Hello-World"} {
			if got := do(t, h, "GET", valuesPath(owner, repo, 1), "", ""); got.status != http.StatusOK || got.body != want.body {
				t.Errorf("GET %s/%s: %d %s, want 200 %s", owner, repo, got.status, got.body, want.body)
			}
		}
	}
	r := do(t, h, "POST", valuesPath("OCTO-ORG", "Hello-World", 2), writerToken, writeBody(fieldItem(notesID, `"cased"`)))
	if r.status != http.StatusOK {
		t.Fatalf("POST to OCTO-ORG/Hello-World: status %d: %s", r.status, r.body)
	}
	if got, _ := readStored(t, s, issueAt(org, publicRepo, 2)); len(got) != 1 || got[0].Text != "cased" {
		t.Errorf("the store holds %+v", got)
	}
}

// TestPathParameters checks that issue numbers and field IDs that are not
// written [1-9][0-9]* within int64, and repository names with .git, are 404
// for every operation, and change nothing.
func TestPathParameters(t *testing.T) {
	badNumbers := []string{"0", "01", "+1", "-1", "1.5", "1.0", "0x1", "1e2", "one", "%201", "1%20",
		"9223372036854775808", "99999999999999999999999", "9223372036854775807"}
	type probe struct{ name, method, target, body string }
	var probes []probe
	for _, op := range resolveOps {
		for _, n := range badNumbers {
			probes = append(probes, probe{"issue " + n, op.method,
				"/repos/" + org + "/" + publicRepo + "/issues/" + n + "/issue-field-values" + op.suffix, op.body})
		}
		for _, repo := range []string{publicRepo + ".git", "HELLO-WORLD.GIT"} {
			probes = append(probes, probe{repo, op.method, valuesPath(org, repo, 1) + op.suffix, op.body})
		}
	}
	for _, id := range []string{"0", "01", "+1", "-1", "1.5", "0x1", "9223372036854775808"} {
		probes = append(probes, probe{"field " + id, "DELETE", valuesPath(org, publicRepo, 1) + "/" + id, ""})
	}
	h, s := newFixtureHandler(t)
	key := issueAt(org, publicRepo, 1)
	before, version := readStored(t, s, key)
	for _, p := range probes {
		r := do(t, h, p.method, p.target, writerToken, p.body)
		var e errorResponse
		if r.status != http.StatusNotFound || json.Unmarshal([]byte(r.body), &e) != nil || e.Message != "Not Found" || e.Status != "404" {
			t.Errorf("%s %s (%s): %d %s, want 404 Not Found", p.method, p.target, p.name, r.status, r.body)
		}
	}
	if after, afterVersion := readStored(t, s, key); afterVersion != version {
		t.Errorf("the store changed: %+v became %+v", before, after)
	}
}

func TestRedirects(t *testing.T) {
	type move struct {
		name     string
		from, to func(suffix string) string // paths of the request and of Location
	}
	moves := []move{
		{"renamed repository",
			func(s string) string { return valuesPath(org, "old-name", 1) + s },
			func(s string) string { return valuesPath(org, "renamed", 1) + s }},
		{"renamed repository in another case",
			func(s string) string { return valuesPath("Octo-Org", "OLD-NAME", 1) + s },
			func(s string) string { return valuesPath(org, "renamed", 1) + s }},
		{"transferred issue",
			func(s string) string { return valuesPath(org, publicRepo, 4) + s },
			func(s string) string { return valuesPath(org, publicRepo, 40) + s }},
	}
	for _, m := range moves {
		for _, op := range resolveOps {
			for _, query := range []string{"", "?per_page=2&page=1&x=a%20b"} {
				t.Run(m.name+"/"+op.method+query, func(t *testing.T) {
					h, s := newFixtureHandler(t)
					key := issueAt(org, "renamed", 1)
					before, version := readStored(t, s, key)
					r := do(t, h, op.method, m.from(op.suffix)+query, writerToken, op.body)
					want := "http://example.com" + m.to(op.suffix) + query
					if r.status != op.redirect || r.header.Get("Location") != want {
						t.Errorf("%d, Location %q; want %d, %q", r.status, r.header.Get("Location"), op.redirect, want)
					}
					var e errorResponse
					r.json(t, &e)
					wantBody := errorResponse{Message: op.message, URL: want, Status: itoa(op.redirect), DocumentationURL: e.DocumentationURL}
					if diff := cmp.Diff(wantBody, e); diff != "" || !strings.HasPrefix(e.DocumentationURL, "https://") {
						t.Errorf("body (-want +got):\n%s", diff)
					}
					if after, afterVersion := readStored(t, s, key); afterVersion != version {
						t.Errorf("a redirected request changed the store: %+v became %+v", before, after)
					}
				})
			}
		}
	}
	t.Run("over TLS", func(t *testing.T) {
		h, _ := newFixtureHandler(t)
		r := serve(h, httptest.NewRequest("GET", "https://api.example.com"+valuesPath(org, "old-name", 1), nil))
		if want := "https://api.example.com" + valuesPath(org, "renamed", 1); r.header.Get("Location") != want {
			t.Errorf("Location %q, want %q", r.header.Get("Location"), want)
		}
	})
}

func TestDeletedIssue(t *testing.T) {
	h, _ := newFixtureHandler(t)
	r := do(t, h, "GET", valuesPath(org, publicRepo, 3), "", "")
	var e errorResponse
	r.json(t, &e)
	if r.status != http.StatusGone || e.Message != "This issue was deleted" || e.Status != "410" {
		t.Errorf("GET: %d %s, want 410 This issue was deleted", r.status, r.body)
	}
	for _, op := range resolveOps[1:] {
		r := do(t, h, op.method, valuesPath(org, publicRepo, 3)+op.suffix, writerToken, op.body)
		var e errorResponse
		r.json(t, &e)
		if r.status != http.StatusNotFound || e.Message != "Not Found" {
			t.Errorf("%s: %d %s, want 404 Not Found", op.method, r.status, r.body)
		}
	}
}

func TestUnknownPaths(t *testing.T) {
	values := valuesPath(org, publicRepo, 1)
	paths := []string{
		"/",
		"/repos",
		"/repos/" + org + "/" + publicRepo,
		"/repos/" + org + "/" + publicRepo + "/issues/1",
		"/repos/" + org + "/" + publicRepo + "/issues/1/issue-field-value",
		"/repos/" + org + "/" + publicRepo + "/pulls/1/issue-field-values",
		values + "/",
		values + "/1/",
		values + "/1/extra",
		"/repos/" + org + "/issues/1/issue-field-values",
		"/repos/" + org + "//" + publicRepo + "/issues/1/issue-field-values",
		"/repos/" + org + "/" + publicRepo + "/issues/1/./issue-field-values",
		"/repos/" + org + "/x/../" + publicRepo + "/issues/1/issue-field-values",
		"/v3" + values,
	}
	h, _ := newFixtureHandler(t)
	for _, path := range paths {
		for _, method := range []string{"GET", "POST", "PUT", "DELETE", "PATCH"} {
			r := do(t, h, method, path, writerToken, writeBody())
			var e errorResponse
			if r.status != http.StatusNotFound || r.header.Get("Content-Type") != "application/json; charset=utf-8" ||
				json.Unmarshal([]byte(r.body), &e) != nil || e.Message != "Not Found" || e.Status != "404" {
				t.Errorf("%s %s: %d %q %s, want a 404 JSON body", method, path, r.status, r.header.Get("Content-Type"), r.body)
			}
			if l := r.header.Get("Location"); l != "" {
				t.Errorf("%s %s: Location %q", method, path, l)
			}
		}
	}
}

func TestMethodNotAllowed(t *testing.T) {
	values := valuesPath(org, publicRepo, 1)
	listAllow := []string{"GET", "HEAD", "POST", "PUT"}
	for _, tc := range []struct {
		method, path string
		allow        []string
	}{
		{"DELETE", values, listAllow},
		{"PATCH", values, listAllow},
		{"OPTIONS", values, listAllow},
		{"GET", values + "/1", []string{"DELETE"}},
		{"HEAD", values + "/1", []string{"DELETE"}},
		{"POST", values + "/1", []string{"DELETE"}},
		{"PUT", values + "/1", []string{"DELETE"}},
		{"PATCH", values + "/1", []string{"DELETE"}},
		// A path that is known whatever its parameters answers 405 too.
		{"PATCH", valuesPath("nobody", "nothing", 9), listAllow},
	} {
		h, _ := newFixtureHandler(t)
		r := do(t, h, tc.method, tc.path, writerToken, writeBody())
		allow := strings.Split(r.header.Get("Allow"), ", ")
		slices.Sort(allow)
		if r.status != http.StatusMethodNotAllowed || !cmp.Equal(tc.allow, allow) {
			t.Errorf("%s %s: %d, Allow %q; want 405, Allow %v", tc.method, tc.path, r.status, r.header.Get("Allow"), tc.allow)
		}
		var e errorResponse
		if tc.method != "HEAD" && (json.Unmarshal([]byte(r.body), &e) != nil || e.Status != "405" || e.Message == "") {
			t.Errorf("%s %s: body %s, want a 405 JSON body", tc.method, tc.path, r.body)
		}
		if ct := r.header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Errorf("%s %s: Content-Type %q", tc.method, tc.path, ct)
		}
	}
}

// TestHead checks HEAD through a server: the answer of GET, without a body.
func TestHead(t *testing.T) {
	h, _ := newFixtureHandler(t)
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	for _, path := range []string{
		valuesPath(org, publicRepo, 1),
		valuesPath(org, publicRepo, 2),
		valuesPath(org, publicRepo, 3),
		valuesPath(org, "old-name", 1) + "?page=2",
		valuesPath(org, secretRepo, 1),
		"/nowhere",
	} {
		get, err := client.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		getBody, _ := io.ReadAll(get.Body)
		get.Body.Close()
		head, err := client.Head(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		headBody, _ := io.ReadAll(head.Body)
		head.Body.Close()
		if head.StatusCode != get.StatusCode || len(headBody) != 0 {
			t.Errorf("HEAD %s: %d with %d bytes of body; GET answered %d", path, head.StatusCode, len(headBody), get.StatusCode)
		}
		for _, name := range []string{"Content-Type", "Content-Length", "Location", "Link", "X-Service-Api-Version-Selected"} {
			if head.Header.Get(name) != get.Header.Get(name) {
				t.Errorf("HEAD %s: %s %q, GET's is %q", path, name, head.Header.Get(name), get.Header.Get(name))
			}
		}
		if get.Header.Get("Content-Length") != itoa(len(getBody)) {
			t.Errorf("GET %s: Content-Length %q for %d bytes", path, get.Header.Get("Content-Length"), len(getBody))
		}
	}
}
