package issuefields_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
)

// TestMountPrefix mounts the handler under several prefixes and checks that
// every URL it writes keeps the prefix, and that it serves nothing outside.
func TestMountPrefix(t *testing.T) {
	for _, mount := range []struct {
		name   string
		prefix string // as given to ServeMux.Handle
		noMux  bool   // StripPrefix alone is the server's handler
	}{
		{"root", "", false},
		{"api", "/api", false},
		{"deep", "/a/b/c/", false},
		{"api without ServeMux", "/api", true},
	} {
		t.Run(mount.name, func(t *testing.T) {
			h, s := newFixtureHandler(t)
			strip := strings.TrimSuffix(mount.prefix, "/")
			var root http.Handler = h
			switch {
			case mount.noMux:
				root = http.StripPrefix(strip, h)
			case mount.prefix != "":
				mux := http.NewServeMux()
				mux.Handle(strip+"/", http.StripPrefix(strip, h))
				root = mux
			}
			srv := httptest.NewServer(root)
			defer srv.Close()
			base := srv.URL + strip

			noRedirects := *srv.Client()
			noRedirects.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
			send := func(client *http.Client, method, url, body string) response {
				t.Helper()
				req, err := http.NewRequest(method, url, strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Authorization", "Bearer "+writerToken)
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, err := io.ReadAll(resp.Body)
				if err != nil {
					t.Fatal(err)
				}
				return response{status: resp.StatusCode, header: resp.Header, body: string(b)}
			}

			if r := send(&noRedirects, "GET", base+valuesPath(org, publicRepo, 1), ""); r.status != http.StatusOK || len(fieldIDs(t, r)) != len(fixtureValues) {
				t.Errorf("GET: %d %s", r.status, r.body)
			}

			page := valuesPath(org, publicRepo, 1)
			r := send(&noRedirects, "GET", base+page+"?per_page=2&page=2", "")
			links := parseLink(t, r.header.Get("Link"))
			if len(links) != 4 {
				t.Errorf("Link %q, want four links", r.header.Get("Link"))
			}
			for rel, u := range links {
				if got := u.Scheme + "://" + u.Host + u.Path; got != base+page || u.Query().Get("per_page") != "2" {
					t.Errorf("link %s is %s, want %s?per_page=2&page=…", rel, u, base+page)
				}
			}

			for _, rd := range []struct {
				method, from, to, body string
				status                 int
			}{
				{"GET", valuesPath(org, "old-name", 1) + "?page=1", valuesPath(org, "renamed", 1) + "?page=1", "", http.StatusMovedPermanently},
				{"POST", valuesPath(org, "old-name", 1), valuesPath(org, "renamed", 1), writeBody(), http.StatusTemporaryRedirect},
				{"DELETE", valuesPath(org, publicRepo, 4) + "/1", valuesPath(org, publicRepo, 40) + "/1", "", http.StatusTemporaryRedirect},
			} {
				r := send(&noRedirects, rd.method, base+rd.from, rd.body)
				var e errorResponse
				_ = json.Unmarshal([]byte(r.body), &e)
				if want := base + rd.to; r.status != rd.status || r.header.Get("Location") != want || e.URL != want {
					t.Errorf("%s %s: %d, Location %q, url %q; want %d to %s", rd.method, rd.from, r.status, r.header.Get("Location"), e.URL, rd.status, want)
				}
			}

			// A client that follows the redirects repeats the method and body.
			client := srv.Client()
			if r := send(client, "POST", base+valuesPath(org, "old-name", 1), writeBody(fieldItem(notesID, `"followed"`))); r.status != http.StatusOK {
				t.Errorf("POST following the redirect: %d %s", r.status, r.body)
			}
			if got, _ := readStored(t, s, issueAt(org, "renamed", 1)); len(got) != 1 || got[0].Text != "followed" {
				t.Errorf("after the redirected POST the store holds %+v", got)
			}
			if r := send(client, "GET", base+valuesPath(org, "old-name", 1), ""); r.status != http.StatusOK || len(fieldIDs(t, r)) != 1 {
				t.Errorf("GET following the redirect: %d %s", r.status, r.body)
			}

			// A path with // or .. is not one of the API's.
			dirty := base + "/repos/" + org + "//" + publicRepo + "/issues/1/issue-field-values"
			r = send(&noRedirects, "GET", dirty, "")
			if loc, err := url.Parse(r.header.Get("Location")); r.status != http.StatusNotFound && (err != nil || !strings.HasPrefix(loc.Path, strip+"/repos/")) {
				t.Errorf("GET %s: %d, Location %q; want 404 or a redirect under the prefix", dirty, r.status, r.header.Get("Location"))
			}

			if strip == "" {
				return
			}
			outside := []string{
				srv.URL + valuesPath(org, publicRepo, 1),
				srv.URL + "/other" + strip + valuesPath(org, publicRepo, 1),
			}
			if !mount.noMux {
				// StripPrefix alone would pass this on as "x/repos/…".
				outside = append(outside, srv.URL+strip+"x"+valuesPath(org, publicRepo, 1))
			}
			for _, outside := range outside {
				r := send(&noRedirects, "GET", outside, "")
				if r.status != http.StatusNotFound || r.header.Get("X-Service-Request-Id") != "" {
					t.Errorf("GET %s: %d, request id %q; want the host's 404", outside, r.status, r.header.Get("X-Service-Request-Id"))
				}
			}
		})
	}
}

// TestURLsUseRequestHost checks that the URLs the handler writes use the
// request's host and scheme.
func TestURLsUseRequestHost(t *testing.T) {
	h, _ := newFixtureHandler(t)
	for _, base := range []string{"http://api.example.org", "https://api.example.org:8443"} {
		r := serve(h, httptest.NewRequest("GET", base+valuesPath(org, publicRepo, 1)+"?per_page=1", nil))
		for rel, u := range parseLink(t, r.header.Get("Link")) {
			if !strings.HasPrefix(u.String(), base+"/repos/") {
				t.Errorf("%s: link %s is %s", base, rel, u)
			}
		}
		r = serve(h, httptest.NewRequest("GET", base+valuesPath(org, "old-name", 1), nil))
		if want := base + valuesPath(org, "renamed", 1); r.header.Get("Location") != want {
			t.Errorf("%s: Location %q, want %q", base, r.header.Get("Location"), want)
		}
	}
}

// TestBaseURL checks that with Config.BaseURL every absolute URL the
// handler writes is under it, whatever Host and scheme the request names.
func TestBaseURL(t *testing.T) {
	for _, base := range []string{"https://api.example.com/api/v3", "https://api.example.com/api/v3/"} {
		h := newConfiguredHandler(t, issuefields.Config{Store: newFixtureStore(t), BaseURL: base})
		want := "https://api.example.com/api/v3"
		r := serve(h, httptest.NewRequest("GET", "http://evil.example"+valuesPath(org, publicRepo, 1)+"?per_page=1", nil))
		links := parseLink(t, r.header.Get("Link"))
		if len(links) == 0 {
			t.Fatalf("BaseURL %s: no Link in %d %s", base, r.status, r.body)
		}
		for rel, u := range links {
			if !strings.HasPrefix(u.String(), want+"/repos/") {
				t.Errorf("BaseURL %s: link %s is %s, want one under %s", base, rel, u, want)
			}
		}
		r = serve(h, httptest.NewRequest("GET", "http://evil.example"+valuesPath(org, "old-name", 1), nil))
		if loc := want + valuesPath(org, "renamed", 1); r.header.Get("Location") != loc || !strings.Contains(r.body, loc) {
			t.Errorf("BaseURL %s: Location %q and body %s, want %q in both", base, r.header.Get("Location"), r.body, loc)
		}
	}
}

// TestBaseURLRefused checks that New refuses a BaseURL that is not an
// absolute http or https URL without a query, and names the field.
func TestBaseURLRefused(t *testing.T) {
	for _, base := range []string{"api.example.com", "/api/v3", "ftp://api.example.com", "https://api.example.com/?a=1", "https://%zz"} {
		_, err := issuefields.New(issuefields.Config{Store: newFixtureStore(t), Verifier: fixtureVerifier, BaseURL: base})
		if err == nil || !strings.Contains(err.Error(), "Config.BaseURL") {
			t.Errorf("New with BaseURL %q: error %v, want one about Config.BaseURL", base, err)
		}
	}
}

// TestMountBeforeServeMux mounts the handler as docs/behaviour.md says a
// host does to have every path under its prefix answered by the handler: the
// host's ServeMux would redirect a path with // or .. to its clean form,
// with a text/html 307, before the handler saw it.
func TestMountBeforeServeMux(t *testing.T) {
	h, _ := newFixtureHandler(t)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "home\n") })
	api := http.StripPrefix("/api", h)
	root := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			api.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
	values := valuesPath(org, publicRepo, 1)
	if r := serve(root, httptest.NewRequest("GET", "/api"+values, nil)); r.status != http.StatusOK {
		t.Errorf("GET /api%s: %d %s, want 200", values, r.status, r.body)
	}
	for _, path := range []string{
		"/api/" + values,
		"/api/repos/" + org + "//" + publicRepo + "/issues/1/issue-field-values",
		"/api/repos/" + org + "/x/../" + publicRepo + "/issues/1/issue-field-values",
		"/api/orgs//" + org + "/issue-fields",
	} {
		r := serve(root, httptest.NewRequest("POST", path, strings.NewReader(writeBody())))
		var e errorResponse
		if r.status != http.StatusNotFound || r.header.Get("Content-Type") != "application/json; charset=utf-8" ||
			json.Unmarshal([]byte(r.body), &e) != nil || e.Message != "Not Found" || r.header.Get("Location") != "" {
			t.Errorf("POST %s: %d %q %s, Location %q; want the handler's JSON 404", path, r.status, r.header.Get("Content-Type"), r.body, r.header.Get("Location"))
		}
	}
	if r := serve(root, httptest.NewRequest("GET", "/", nil)); r.body != "home\n" {
		t.Errorf("GET /: %d %s, want the host's home page", r.status, r.body)
	}
}
