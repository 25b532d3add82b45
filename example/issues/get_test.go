package issues_test

import (
	"net/http"
	"testing"
)

func TestGetIssue(t *testing.T) {
	w := newWorld(t)
	a := w.do(t, "GET", "/repos/octo-org/hello-world/issues/1", "", "")
	if a.status != http.StatusOK {
		t.Fatalf("status %d %s; want 200", a.status, a.body)
	}
	var got issueObject
	a.decode(t, &got)
	stored := w.issue(t, "octo-org", "hello-world", 1)
	if got.Number != 1 || got.ID != stored.ID || got.Title != "Crash on save" || got.Body == nil || *got.Body != "It crashes." ||
		got.State != "open" || got.User.Login != "octocat" || got.URL != w.server.URL+"/repos/octo-org/hello-world/issues/1" {
		t.Errorf("issue %+v", got)
	}
	values := w.do(t, "GET", "/repos/octo-org/hello-world/issues/1/issue-field-values", "", "")
	if string(got.FieldValues) != trimNewline(values.body) {
		t.Errorf("issue_field_values %s; want the values list %s", got.FieldValues, values.body)
	}
	tag := a.header.Get("ETag")
	if tag == "" || tag != values.header.Get("ETag") {
		t.Errorf("ETag %q; want the values list's %q", tag, values.header.Get("ETag"))
	}
	if p := a.header.Get("X-Accepted-GitHub-Permissions"); p != "issues=read" {
		t.Errorf("permissions header %q; want issues=read", p)
	}

	if a := w.do(t, "GET", "/repos/octo-org/hello-world/issues/1", "", "", "If-None-Match", tag); a.status != http.StatusNotModified || a.body != "" {
		t.Errorf("If-None-Match of the ETag: %d %q; want 304 without a body", a.status, a.body)
	}
	for _, c := range []struct {
		path, token string
		status      int
	}{
		{"/repos/octo-org/hello-world/issues/01", "", http.StatusNotFound},
		{"/repos/octo-org/hello-world/issues/0", "", http.StatusNotFound},
		{"/repos/octo-org/hello-world/issues/9", "", http.StatusNotFound},
		{"/repos/octo-org/hello-world.git/issues/1", "", http.StatusNotFound},
		{"/repos/octo-org/secret/issues/1", "", http.StatusNotFound},
		{"/repos/octo-org/secret/issues/1", outsider, http.StatusNotFound},
		{"/repos/octo-org/secret/issues/1", reader, http.StatusOK},
		{"/repos/octo-org/hello-world/issues/1", classic, http.StatusForbidden},
		{"/repos/octo-org/hello-world/issues/1", "bad", http.StatusUnauthorized},
		{"/repos/OCTO-ORG/Hello-World/issues/1", "", http.StatusOK},
	} {
		if a := w.do(t, "GET", c.path, c.token, ""); a.status != c.status {
			t.Errorf("GET %s with %q: %d %s; want %d", c.path, c.token, a.status, a.body, c.status)
		}
	}
}

// TestGetMoved checks that a renamed repository and a transferred issue
// redirect as the values list does, and a deleted issue is 410.
func TestGetMoved(t *testing.T) {
	w := newWorld(t)
	if err := w.store.RenameRepository("octo-org", "hello-world", "hello"); err != nil {
		t.Fatal(err)
	}
	a := w.do(t, "GET", "/repos/octo-org/hello-world/issues/1", "", "")
	if a.status != http.StatusMovedPermanently || a.header.Get("Location") != w.server.URL+"/repos/octo-org/hello/issues/1" {
		t.Errorf("renamed: %d Location %q", a.status, a.header.Get("Location"))
	}
	for _, c := range []struct {
		method, path, token, body string
		status                    int
		location                  string
	}{
		{"GET", "/repos/octo-org/hello-world/issues?state=all", "", "", http.StatusMovedPermanently, "/repos/octo-org/hello/issues?state=all"},
		{"POST", "/repos/octo-org/hello-world/issues", writer, `{"title": "x"}`, http.StatusTemporaryRedirect, "/repos/octo-org/hello/issues"},
		{"PATCH", "/repos/octo-org/hello-world/issues/1", writer, `{"title": "x"}`, http.StatusTemporaryRedirect, "/repos/octo-org/hello/issues/1"},
	} {
		a := w.do(t, c.method, c.path, c.token, c.body)
		if a.status != c.status || a.header.Get("Location") != w.server.URL+c.location {
			t.Errorf("%s %s of a renamed repository: %d Location %q; want %d %s", c.method, c.path, a.status,
				a.header.Get("Location"), c.status, c.location)
		}
	}
	if err := w.store.DeleteIssue("octo-org", "hello", 2); err != nil {
		t.Fatal(err)
	}
	if a := w.do(t, "GET", "/repos/octo-org/hello/issues/2", "", ""); a.status != http.StatusGone {
		t.Errorf("deleted: %d %s; want 410", a.status, a.body)
	}
	if a := w.do(t, "PATCH", "/repos/octo-org/hello/issues/2", writer, `{"title":"x"}`); a.status != http.StatusNotFound {
		t.Errorf("PATCH of a deleted issue: %d %s; want 404", a.status, a.body)
	}
}

// trimNewline returns s without the newline that ends a body.
func trimNewline(s string) string {
	if n := len(s); n > 0 && s[n-1] == '\n' {
		return s[:n-1]
	}
	return s
}
