package issuefields_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
)

func TestAPIVersionHeader(t *testing.T) {
	for _, tc := range []struct {
		name     string
		header   []string // name, value to send; none for no header
		status   int
		selected string
	}{
		{"absent", nil, http.StatusOK, "2026-03-10"},
		{"empty", []string{"X-Service-Api-Version", ""}, http.StatusOK, "2026-03-10"},
		{"2026-03-10", []string{"X-Service-Api-Version", "2026-03-10"}, http.StatusOK, "2026-03-10"},
		{"2022-11-28", []string{"X-Service-Api-Version", "2022-11-28"}, http.StatusOK, "2022-11-28"},
		{"another date", []string{"X-Service-Api-Version", "2024-01-01"}, http.StatusBadRequest, ""},
		{"a word", []string{"X-Service-Api-Version", "latest"}, http.StatusBadRequest, ""},
		{"with spaces", []string{"X-Service-Api-Version", "2026-03-10 "}, http.StatusBadRequest, ""},
		{"another vendor's header is ignored", []string{"X-GitHub-Api-Version", "1999-01-01"}, http.StatusOK, "2026-03-10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			type request struct{ method, target, body string }
			for _, rq := range []request{
				{"GET", valuesPath(org, publicRepo, 1), ""},
				{"POST", valuesPath(org, publicRepo, 2), writeBody(fieldItem(notesID, `"v"`))},
			} {
				h, s := newFixtureHandler(t)
				r := doWithHeader(t, h, rq.method, rq.target, writerToken, rq.body, tc.header...)
				if r.status != tc.status {
					t.Fatalf("%s: status %d, want %d: %s", rq.method, r.status, tc.status, r.body)
				}
				if got := r.header.Get("X-Service-Api-Version-Selected"); got != tc.selected {
					t.Errorf("%s: X-Service-Api-Version-Selected %q, want %q", rq.method, got, tc.selected)
				}
				values, _ := readStored(t, s, issueAt(org, publicRepo, 2))
				if rq.method == "POST" && (len(values) == 1) != (tc.status == http.StatusOK) {
					t.Errorf("POST answered %d and the store holds %+v", r.status, values)
				}
				if tc.status != http.StatusBadRequest {
					continue
				}
				var e errorResponse
				r.json(t, &e)
				if e.Status != "400" || !strings.Contains(e.Message, "2026-03-10") || !strings.Contains(e.Message, "2022-11-28") {
					t.Errorf("%s: body %s, want a 400 naming both supported versions", rq.method, r.body)
				}
			}
		})
	}
}

// TestSelectedVersionOnEveryAnswer checks that answers other than 200 carry
// the selected version too.
func TestSelectedVersionOnEveryAnswer(t *testing.T) {
	h, _ := newFixtureHandler(t)
	for _, rq := range []struct {
		method, target, body string
		status               int
	}{
		{"GET", "/nowhere", "", 404},
		{"PATCH", valuesPath(org, publicRepo, 1), "", 405},
		{"GET", valuesPath(org, publicRepo, 3), "", 410},
		{"GET", valuesPath(org, "old-name", 1), "", 301},
		{"POST", valuesPath(org, publicRepo, 1), writeBody(fieldItem(99, `1`)), 422},
		{"DELETE", valuesPath(org, publicRepo, 1) + "/1", "", 204},
	} {
		r := doWithHeader(t, h, rq.method, rq.target, writerToken, rq.body, "X-Service-Api-Version", "2022-11-28")
		if r.status != rq.status || r.header.Get("X-Service-Api-Version-Selected") != "2022-11-28" {
			t.Errorf("%s %s: %d, X-Service-Api-Version-Selected %q; want %d, 2022-11-28",
				rq.method, rq.target, r.status, r.header.Get("X-Service-Api-Version-Selected"), rq.status)
		}
	}
}

func TestVendorHeaders(t *testing.T) {
	h := newConfiguredHandler(t, issuefields.Config{Store: newFixtureStore(t), Vendor: "GitHub"})
	for _, tc := range []struct {
		name, method, target, body, version string
		status                              int
		selected, permissions               string
	}{
		{"list", "GET", valuesPath(org, publicRepo, 1), "", "2022-11-28", 200, "2022-11-28", "issues=read"},
		{"list without version", "GET", valuesPath(org, publicRepo, 1), "", "", 200, "2026-03-10", "issues=read"},
		{"add", "POST", valuesPath(org, publicRepo, 1), writeBody(fieldItem(notesID, `"x"`)), "2026-03-10", 200, "2026-03-10", "issues=write; pull_requests=write"},
		{"unsupported version", "GET", valuesPath(org, publicRepo, 1), "", "2020-01-01", 400, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			header := []string{"X-Service-Api-Version", "not a version"}
			if tc.version != "" {
				header = append(header, "X-GitHub-Api-Version", tc.version)
			}
			r := doWithHeader(t, h, tc.method, tc.target, writerToken, tc.body, header...)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			if got := r.header.Get("X-GitHub-Api-Version-Selected"); got != tc.selected {
				t.Errorf("X-GitHub-Api-Version-Selected %q, want %q", got, tc.selected)
			}
			if tc.permissions != "" {
				if got := r.header.Get("X-Accepted-GitHub-Permissions"); got != tc.permissions {
					t.Errorf("X-Accepted-GitHub-Permissions %q, want %q", got, tc.permissions)
				}
			}
			if r.header.Get("X-GitHub-Request-Id") == "" {
				t.Error("no X-GitHub-Request-Id")
			}
			for name := range r.header {
				if strings.Contains(strings.ToLower(name), "service") {
					t.Errorf("header %s with Vendor GitHub", name)
				}
			}
		})
	}
}

// TestRequestIDs checks that every answer has its own request id, and that
// the request's log line carries it.
func TestRequestIDs(t *testing.T) {
	var log bytes.Buffer
	s := newFixtureStore(t)
	h := newConfiguredHandler(t, issuefields.Config{Store: s, Logger: slog.New(slog.NewJSONHandler(&log, nil))})
	requests := []struct {
		method, target, body, version string
		status                        int
	}{
		{"GET", valuesPath(org, publicRepo, 1), "", "", 200},
		{"GET", valuesPath(org, publicRepo, 1), "", "", 200},
		{"POST", valuesPath(org, publicRepo, 1), writeBody(fieldItem(notesID, `"x"`)), "", 200},
		{"PUT", valuesPath(org, publicRepo, 1), writeBody(fieldItem(notesID, `""`)), "", 422},
		{"DELETE", valuesPath(org, publicRepo, 1) + "/1", "", "", 204},
		{"GET", valuesPath(org, publicRepo, 3), "", "", 410},
		{"GET", valuesPath(org, "old-name", 1), "", "", 301},
		{"GET", "/nowhere", "", "", 404},
		{"GET", valuesPath(org, publicRepo, 0), "", "", 404},
		{"PATCH", valuesPath(org, publicRepo, 1), "", "", 405},
		{"GET", valuesPath(org, publicRepo, 1), "", "1.0", 400},
		{"POST", valuesPath(org, publicRepo, 1), "{", "", 400},
	}
	ids := map[string]string{} // request id → method and target
	for _, rq := range requests {
		log.Reset()
		var header []string
		if rq.version != "" {
			header = []string{"X-Service-Api-Version", rq.version}
		}
		r := doWithHeader(t, h, rq.method, rq.target, writerToken, rq.body, header...)
		what := rq.method + " " + rq.target
		if r.status != rq.status {
			t.Errorf("%s: status %d, want %d: %s", what, r.status, rq.status, r.body)
		}
		id := r.header.Get("X-Service-Request-Id")
		if id == "" {
			t.Errorf("%s: no X-Service-Request-Id", what)
			continue
		}
		if other, ok := ids[id]; ok {
			t.Errorf("%s: request id %q was already given to %s", what, id, other)
		}
		ids[id] = what

		var lines []map[string]any
		sc := bufio.NewScanner(&log)
		for sc.Scan() {
			var line map[string]any
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				t.Fatalf("log line is not JSON: %v: %s", err, sc.Text())
			}
			if line["msg"] == "request" {
				lines = append(lines, line)
			}
		}
		if len(lines) != 1 {
			t.Errorf("%s: %d request log lines, want 1", what, len(lines))
			continue
		}
		if lines[0]["request_id"] != id || lines[0]["method"] != rq.method || lines[0]["status"] != float64(rq.status) {
			t.Errorf("%s: log line %v, want request_id %q, method %s, status %d", what, lines[0], id, rq.method, rq.status)
		}
	}
}

// TestPermissionsHeaderOnEveryAnswer checks that every answer carries
// X-Accepted-Service-Permissions exactly once: the route's permissions for a
// request to a route, whatever the answer, a panic's 500 included, and an
// empty value for a path or a method the API does not have.
func TestPermissionsHeaderOnEveryAnswer(t *testing.T) {
	const read, write = "issues=read", "issues=write; pull_requests=write"
	issue1 := valuesPath(org, publicRepo, 1)
	s := &panickingStore{Store: newFixtureStore(t), method: "Snapshot", message: "boom"}
	h := newConfiguredHandler(t, issuefields.Config{Store: s})
	check := func(r response, what string, status int, want string) {
		t.Helper()
		if got := r.header["X-Accepted-Service-Permissions"]; r.status != status || len(got) != 1 || got[0] != want {
			t.Errorf("%s: %d with X-Accepted-Service-Permissions %q; want %d with %q", what, r.status, got, status, want)
		}
	}
	for _, rq := range []struct {
		method, target, token, body, version string
		status                               int
		want                                 string
	}{
		{"GET", issue1, writerToken, "", "", 200, read},
		{"GET", issue1, writerToken, "", "1.0", 400, read},
		{"POST", issue1, "", writeBody(), "", 401, write},
		{"GET", issue1, classicToken, "", "", 403, read},
		{"GET", valuesPath(org, publicRepo, 3), writerToken, "", "", 410, read},
		{"GET", valuesPath(org, "old-name", 1), writerToken, "", "", 301, read},
		{"POST", issue1, writerToken, writeBody(fieldItem(99, `1`)), "", 422, write},
		{"DELETE", issue1 + "/" + itoa(dueID), writerToken, "", "", 204, write},
		{"GET", "/nowhere", writerToken, "", "", 404, ""},
		{"PATCH", issue1, writerToken, "", "", 405, ""},
	} {
		var header []string
		if rq.version != "" {
			header = []string{"X-Service-Api-Version", rq.version}
		}
		check(doWithHeader(t, h, rq.method, rq.target, rq.token, rq.body, header...), rq.method+" "+rq.target, rq.status, rq.want)
	}
	s.armed.Store(true)
	check(do(t, h, "GET", issue1, writerToken, ""), "GET whose store panics", http.StatusInternalServerError, read)
}

// TestConflictingAPIVersionHeaders checks that a request with two version
// headers of different values is refused with a 400 that says so, and changes
// nothing, while the same value twice is served.
func TestConflictingAPIVersionHeaders(t *testing.T) {
	for _, tc := range []struct {
		name     string
		versions []string
		status   int
	}{
		{"the same value twice", []string{"2022-11-28", "2022-11-28"}, http.StatusOK},
		{"two supported values", []string{"2026-03-10", "2022-11-28"}, http.StatusBadRequest},
		{"supported then unsupported", []string{"2022-11-28", "1999-01-01"}, http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, s := newFixtureHandler(t)
			req := httptest.NewRequest("POST", valuesPath(org, publicRepo, 2), strings.NewReader(writeBody(fieldItem(notesID, `"v"`))))
			req.Header.Set("Authorization", "Bearer "+writerToken)
			for _, v := range tc.versions {
				req.Header.Add("X-Service-Api-Version", v)
			}
			r := serve(h, req)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			values, _ := readStored(t, s, issueAt(org, publicRepo, 2))
			if (len(values) == 1) != (tc.status == http.StatusOK) {
				t.Errorf("answered %d and the store holds %+v", r.status, values)
			}
			if tc.status == http.StatusOK {
				return
			}
			var e errorResponse
			r.json(t, &e)
			if !strings.Contains(e.Message, "different values") || !strings.Contains(e.Message, tc.versions[1]) {
				t.Errorf("message %q, want one that says the headers differ and names both values", e.Message)
			}
		})
	}
}

// TestNoSniffOnEveryAnswer checks that every answer, whatever its status and
// route, carries X-Content-Type-Options: nosniff once, as GitHub's do.
func TestNoSniffOnEveryAnswer(t *testing.T) {
	issue1 := valuesPath(org, publicRepo, 1)
	faulty := &faultyStore{Store: newFixtureStore(t), err: errStoreDown}
	h := newConfiguredHandler(t, issuefields.Config{Store: faulty, Verifier: fieldsVerifier})
	panicking := &panickingStore{Store: newFixtureStore(t), method: "Snapshot", message: "boom"}
	panicking.armed.Store(true)
	for _, rq := range []struct {
		name, method, target, token, body, version string
		// failing is the method of the store that fails; with "panic",
		// the store panics.
		failing string
		status  int
	}{
		{name: "a list", method: "GET", target: issue1, token: writerToken, status: 200},
		{name: "an add", method: "POST", target: issue1, token: writerToken, body: writeBody(fieldItem(notesID, `"x"`)), status: 200},
		{name: "a delete", method: "DELETE", target: issue1 + "/" + itoa(dueID), token: writerToken, status: 204},
		{name: "a moved repository", method: "GET", target: valuesPath(org, "old-name", 1), token: writerToken, status: 301},
		{name: "an unsupported version", method: "GET", target: issue1, token: writerToken, version: "1.0", status: 400},
		{name: "anonymous", method: "POST", target: issue1, body: writeBody(), status: 401},
		{name: "a classic token", method: "GET", target: issue1, token: classicToken, status: 403},
		{name: "an unknown path", method: "GET", target: "/nowhere", token: writerToken, status: 404},
		{name: "a path with //", method: "GET", target: "/repos//" + org, token: writerToken, status: 404},
		{name: "another method", method: "PATCH", target: issue1, token: writerToken, status: 405},
		{name: "a deleted issue", method: "GET", target: valuesPath(org, publicRepo, 3), token: writerToken, status: 410},
		{name: "an invalid value", method: "POST", target: issue1, token: writerToken, body: writeBody(fieldItem(99, `1`)), status: 422},
		{name: "a store that is down", method: "GET", target: issue1, token: writerToken, failing: "Snapshot", status: 503},
		{name: "a store that panics", method: "GET", target: issue1, token: writerToken, failing: "panic", status: 500},
		{name: "the organization's fields", method: "GET", target: "/orgs/" + org + "/issue-fields", token: fieldsAdminToken, status: 200},
		{name: "an unknown field", method: "PATCH", target: "/orgs/" + org + "/issue-fields/999", token: fieldsAdminToken, body: "{}", status: 404},
	} {
		t.Run(rq.name, func(t *testing.T) {
			served := h
			faulty.failing = rq.failing
			if rq.failing == "panic" {
				served = newConfiguredHandler(t, issuefields.Config{Store: panicking})
			}
			var header []string
			if rq.version != "" {
				header = []string{"X-Service-Api-Version", rq.version}
			}
			r := doWithHeader(t, served, rq.method, rq.target, rq.token, rq.body, header...)
			if got := r.header["X-Content-Type-Options"]; r.status != rq.status || len(got) != 1 || got[0] != "nosniff" {
				t.Errorf("%s %s: %d with X-Content-Type-Options %q; want %d with nosniff", rq.method, rq.target, r.status, got, rq.status)
			}
		})
	}
}
