package issuefields_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
)

// The tests of a Call's answer methods serve routes that answer what each
// method gives: IssueNumber and NotModified on GET of an issue, Page on a
// list of 45 items, MayRead on a repository.

// answerRoutes are the routes of the tests over s.
func answerRoutes(s issuefields.Store) []issuefields.Route {
	return []issuefields.Route{
		{Method: "GET", Path: issueRoutePath, Serve: func(c *issuefields.Call) error {
			number, err := c.IssueNumber("issue_number")
			if err != nil {
				return err
			}
			snap, err := c.ReadIssue(c.Request().PathValue("owner"), c.Request().PathValue("repo"), number)
			if err != nil {
				return err
			}
			if c.NotModified(c.ETag(snap)) {
				return nil
			}
			return c.WriteJSON(http.StatusOK, map[string]int64{"number": number})
		}},
		{Method: "GET", Path: "/pages", Serve: func(c *issuefields.Call) error {
			lo, hi := c.Page(45)
			return c.WriteJSON(http.StatusOK, []int{lo, hi})
		}},
		{Method: "GET", Path: "/may/{owner}/{repo}", Serve: func(c *issuefields.Call) error {
			// The repository as a search finds it, without ReadIssue's refusals.
			snap, err := s.Snapshot(c.Request().Context(), c.Request().PathValue("owner"), c.Request().PathValue("repo"), 0)
			if err != nil {
				return err
			}
			may, err := c.MayRead(snap.Repository)
			if err != nil {
				return err
			}
			return c.WriteJSON(http.StatusOK, map[string]bool{"may": may})
		}},
	}
}

func TestCallIssueNumberAndNotModified(t *testing.T) {
	s := newFixtureStore(t)
	h := newConfiguredHandler(t, issuefields.Config{Store: s, Routes: answerRoutes(s)})
	for _, number := range []string{"0", "01", "+1", "1.5", "0x1", "9223372036854775808"} {
		if r := do(t, h, "GET", "/repos/"+org+"/"+publicRepo+"/issues/"+number, readerToken, ""); r.status != http.StatusNotFound {
			t.Errorf("issue %q: %d; want 404, as the values routes", number, r.status)
		}
	}
	r := do(t, h, "GET", issuePath(org, publicRepo, 1), readerToken, "")
	list := do(t, h, "GET", valuesPath(org, publicRepo, 1), readerToken, "")
	tag := r.header.Get("ETag")
	if r.status != http.StatusOK || tag == "" || tag != list.header.Get("ETag") {
		t.Fatalf("GET: %d, ETag %q; want 200 with the values list's ETag %q", r.status, tag, list.header.Get("ETag"))
	}
	for header, want := range map[string]int{tag: 304, "W/" + tag: 304, "*": 304, `"other", ` + tag: 304, `"other"`: 200} {
		r := doWithHeader(t, h, "GET", issuePath(org, publicRepo, 1), readerToken, "", "If-None-Match", header)
		if r.status != want || r.header.Get("ETag") != tag || want == 304 && r.body != "" {
			t.Errorf("If-None-Match %s: %d, ETag %q, body %q; want %d with the ETag", header, r.status, r.header.Get("ETag"), r.body, want)
		}
	}
}

func TestCallPage(t *testing.T) {
	s := newFixtureStore(t)
	h := newConfiguredHandler(t, issuefields.Config{Store: s, Routes: answerRoutes(s),
		BaseURL: "https://api.example.com"})
	for _, c := range []struct {
		query, body, link string
	}{
		{"", "[0,30]", `<https://api.example.com/pages?page=2>; rel="next", <https://api.example.com/pages?page=2>; rel="last"`},
		{"?per_page=20&page=2", "[20,40]", `rel="first", ` + "<https://api.example.com/pages?page=1&per_page=20>"},
		{"?per_page=200", "[0,45]", ""},
		{"?per_page=x&page=-1", "[0,30]", `rel="next"`},
		{"?page=9", "[45,45]", `rel="first"`},
	} {
		r := do(t, h, "GET", "/pages"+c.query, "", "")
		if strings.TrimSpace(r.body) != c.body || !strings.Contains(r.header.Get("Link"), c.link) || c.link == "" && r.header.Get("Link") != "" {
			t.Errorf("/pages%s: %s, Link %q; want %s, Link with %q", c.query, r.body, r.header.Get("Link"), c.body, c.link)
		}
	}
}

func TestCallMayRead(t *testing.T) {
	s := newFixtureStore(t)
	h := newConfiguredHandler(t, issuefields.Config{Store: s, Routes: answerRoutes(s)})
	for _, c := range []struct {
		repo, token string
		status      int
		body        string
	}{
		{publicRepo, "", 200, `{"may":true}`},
		{publicRepo, blindToken, 200, `{"may":true}`},
		{secretRepo, readerToken, 200, `{"may":true}`},
		{secretRepo, "", 200, `{"may":false}`},
		{secretRepo, blindToken, 200, `{"may":false}`},
		{secretRepo, visibleOnlyToken, 200, `{"may":false}`},
		{publicRepo, classicToken, 403, ""}, // whatever the repository
	} {
		r := do(t, h, "GET", "/may/"+org+"/"+c.repo, c.token, "")
		if r.status != c.status || c.body != "" && strings.TrimSpace(r.body) != c.body {
			t.Errorf("%s with %q: %d %s; want %d %s", c.repo, c.token, r.status, r.body, c.status, c.body)
		}
	}
}
