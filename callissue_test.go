package issuefields_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// The tests of a Call's issue methods serve a small issue API through
// Routes, as a host's issue routes would: GET and PATCH of an issue, and
// POST of a new one, each answering the issue's title, number, ID and
// issue_field_values.

const (
	issueRoutePath  = "/repos/{owner}/{repo}/issues/{issue_number}"
	issuesRoutePath = "/repos/{owner}/{repo}/issues"
)

// issueAnswer is what the test routes answer of an issue.
type issueAnswer struct {
	Number      int64           `json:"number"`
	ID          int64           `json:"id"`
	Title       string          `json:"title"`
	FieldValues json.RawMessage `json:"issue_field_values"`
}

// answerIssue answers the issue of snap, with its ETag.
func answerIssue(c *issuefields.Call, status int, snap issuefields.Snapshot) error {
	c.Header().Set("ETag", c.ETag(snap))
	return c.WriteJSON(status, issueAnswer{Number: snap.Issue.Number, ID: snap.Issue.ID, Title: snap.Issue.Title,
		FieldValues: c.RenderValues(snap)})
}

// issueBody is the body of the test routes' PATCH and POST.
type issueBody struct {
	Title       *string            `json:"title"`
	FieldValues *[]json.RawMessage `json:"issue_field_values"`
}

// readIssueBody authorizes the caller of c to write issues of snap's
// repository (issues=write), and reads the body.
func readIssueBody(c *issuefields.Call, snap issuefields.Snapshot) (issueBody, error) {
	var body issueBody
	p := c.Principal()
	perms, err := p.Permissions(c.Request().Context(), snap.Repository)
	if err != nil {
		return body, err
	}
	if perms.Issues != issuefields.PermissionWrite {
		return body, c.NotAccessible("the permission issues=write")
	}
	if err := c.LimitWrite(); err != nil {
		return body, err
	}
	members, err := c.ReadObject()
	if err != nil {
		return body, err
	}
	raw, _ := json.Marshal(members)
	return body, json.Unmarshal(raw, &body)
}

// apply returns issue with what body gives: its title, and its values,
// which replace the issue's.
func (body issueBody) apply(c *issuefields.Call, snap issuefields.Snapshot) (issuefields.Issue, error) {
	issue := snap.Issue
	if body.Title != nil {
		issue.Title = *body.Title
	}
	if body.FieldValues != nil {
		values, err := c.ParseValues(*body.FieldValues, snap.Fields, true)
		if err != nil {
			return issue, err
		}
		issue.Values = values
	}
	return issue, nil
}

// issueRoutes are the test routes; changes counts the calls of the PATCH's
// change and of the POST's build.
func issueRoutes(changes *int) []issuefields.Route {
	get := func(c *issuefields.Call) error {
		number, err := c.IssueNumber("issue_number")
		if err != nil {
			return err
		}
		snap, err := c.ReadIssue(c.Request().PathValue("owner"), c.Request().PathValue("repo"), number)
		if err != nil {
			return err
		}
		return answerIssue(c, http.StatusOK, snap)
	}
	patch := func(c *issuefields.Call) error {
		owner, name := c.Request().PathValue("owner"), c.Request().PathValue("repo")
		number, err := c.IssueNumber("issue_number")
		if err != nil {
			return err
		}
		snap, err := c.ReadIssue(owner, name, number)
		if err != nil {
			return err
		}
		body, err := readIssueBody(c, snap)
		if err != nil {
			return err
		}
		made, err := c.UpdateIssue(owner, name, number, issuefields.ActionSet, func(snap issuefields.Snapshot) (issuefields.Issue, error) {
			*changes++
			return body.apply(c, snap)
		})
		if err != nil {
			return err
		}
		return answerIssue(c, http.StatusOK, made)
	}
	post := func(c *issuefields.Call) error {
		owner, name := c.Request().PathValue("owner"), c.Request().PathValue("repo")
		snap, err := c.ReadIssue(owner, name, 0)
		if err != nil {
			return err
		}
		body, err := readIssueBody(c, snap)
		if err != nil {
			return err
		}
		_, made, err := c.CreateIssue(owner, name, func(snap issuefields.Snapshot) (issuefields.Issue, error) {
			*changes++
			return body.apply(c, snap)
		})
		if err != nil {
			return err
		}
		return answerIssue(c, http.StatusCreated, made)
	}
	return []issuefields.Route{
		{Method: "GET", Path: issueRoutePath, Permissions: "issues=read", Serve: get},
		{Method: "PATCH", Path: issueRoutePath, Permissions: "issues=write", Serve: patch},
		{Method: "POST", Path: issuesRoutePath, Permissions: "issues=write", Serve: post},
	}
}

// issuePath returns the test routes' path of issue number of owner/repo.
func issuePath(owner, repo string, number int) string {
	return "/repos/" + owner + "/" + repo + "/issues/" + itoa(number)
}

// newIssueRoutesHandler returns a handler of the test routes over s, whose
// events go to events (nil for none); changes counts their decisions.
func newIssueRoutesHandler(t *testing.T, s issuefields.Store, events *[]issuefields.Event, changes *int) *issuefields.Handler {
	t.Helper()
	cfg := issuefields.Config{Store: s, Routes: issueRoutes(changes)}
	if events != nil {
		var mu sync.Mutex
		cfg.Notifier = issuefields.NotifierFunc(func(_ context.Context, e issuefields.Event) error {
			mu.Lock()
			defer mu.Unlock()
			*events = append(*events, e)
			return nil
		})
	}
	return newConfiguredHandler(t, cfg)
}

// TestRouteReadsAnIssueAsTheValuesList checks that ReadIssue finds an issue
// as the values list does, and that the issue's issue_field_values and ETag
// are the list's: a renamed repository and a transferred issue redirect with
// 301 below the new path, a deleted issue is 410, a private repository that
// the caller may not see is 404.
func TestRouteReadsAnIssueAsTheValuesList(t *testing.T) {
	var changes int
	h := newIssueRoutesHandler(t, newFixtureStore(t), nil, &changes)
	list := do(t, h, "GET", valuesPath(org, publicRepo, 1), readerToken, "")
	r := do(t, h, "GET", issuePath(org, publicRepo, 1), readerToken, "")
	if r.status != http.StatusOK {
		t.Fatalf("GET the issue: %d %s", r.status, r.body)
	}
	var got issueAnswer
	r.json(t, &got)
	if string(got.FieldValues)+"\n" != list.body {
		t.Errorf("issue_field_values %s\nwant the list %s", got.FieldValues, list.body)
	}
	if r.header.Get("ETag") != list.header.Get("ETag") {
		t.Errorf("ETag %s, want the list's %s", r.header.Get("ETag"), list.header.Get("ETag"))
	}
	tests := []struct {
		name, path, token string
		status            int
		location          string
	}{
		{"a renamed repository", issuePath(org, "old-name", 1), readerToken, 301, "http://example.com" + issuePath(org, "renamed", 1)},
		{"a transferred issue", issuePath(org, publicRepo, 4) + "?x=1", readerToken, 301, "http://example.com" + issuePath(org, publicRepo, 40) + "?x=1"},
		{"a deleted issue", issuePath(org, publicRepo, 3), readerToken, 410, ""},
		{"a missing issue", issuePath(org, publicRepo, 99), readerToken, 404, ""},
		{"a repository the caller may not see", issuePath(org, secretRepo, 1), blindToken, 404, ""},
		{"an anonymous caller of a public repository", issuePath(org, publicRepo, 1), "", 200, ""},
		{"a token of a kind not accepted", issuePath(org, publicRepo, 1), classicToken, 403, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := do(t, h, "GET", tt.path, tt.token, "")
			if r.status != tt.status || r.header.Get("Location") != tt.location {
				t.Errorf("%d, Location %q: %s; want %d, %q", r.status, r.header.Get("Location"), r.body, tt.status, tt.location)
			}
		})
	}
}

// TestRouteUpdatesAnIssueAsTheValuesRoutes checks that UpdateIssue writes
// as the values routes do: a change of title and values is one new version
// (the values list's ETag changes, and so does the issue's), values
// validated as PUT validates them, If-Match checked, one Event for the
// values that changed and none for a title alone, nothing stored for a
// change that changes nothing, and a deleted issue 404 and a transferred
// one 307.
func TestRouteUpdatesAnIssueAsTheValuesRoutes(t *testing.T) {
	var events []issuefields.Event
	var changes int
	s := newFixtureStore(t)
	h := newIssueRoutesHandler(t, s, &events, &changes)
	path := issuePath(org, publicRepo, 2)
	before := do(t, h, "GET", valuesPath(org, publicRepo, 2), readerToken, "").header.Get("ETag")

	r := do(t, h, "PATCH", path, writerToken, `{"title": "Renamed", "issue_field_values": [{"field_id": 1, "value": "new notes"}]}`)
	if r.status != http.StatusOK {
		t.Fatalf("PATCH: %d %s", r.status, r.body)
	}
	list := do(t, h, "GET", valuesPath(org, publicRepo, 2), readerToken, "")
	if tag := list.header.Get("ETag"); tag == before || r.header.Get("ETag") != tag {
		t.Errorf("ETag after the PATCH: the issue's %s, the list's %s, before %s; want a new one, the same for both", r.header.Get("ETag"), tag, before)
	}
	var got issueAnswer
	r.json(t, &got)
	if got.Title != "Renamed" || string(got.FieldValues)+"\n" != list.body {
		t.Errorf("PATCH answered %+v; want the title Renamed and the list %s", got, list.body)
	}
	snap, _ := s.Snapshot(context.Background(), org, publicRepo, 2)
	if snap.Issue.Title != "Renamed" || snap.Issue.UpdatedAt.IsZero() {
		t.Errorf("the store holds %+v, want the title Renamed and an UpdatedAt", snap.Issue)
	}
	if len(events) != 1 || events[0].Action != issuefields.ActionSet || len(events[0].Changes) != 1 ||
		events[0].Changes[0].After.Text != "new notes" || events[0].Issue.Title != "Renamed" {
		t.Errorf("events %+v; want one set of Notes, on the issue as renamed", events)
	}

	events = nil
	tag := r.header.Get("ETag")
	r = do(t, h, "PATCH", path, writerToken, `{"title": "Renamed again"}`)
	if r.status != http.StatusOK || r.header.Get("ETag") == tag || len(events) != 0 {
		t.Errorf("PATCH of the title: %d, ETag %s (was %s), %d events; want 200, a new ETag and no event", r.status, r.header.Get("ETag"), tag, len(events))
	}
	tag = r.header.Get("ETag")
	r = do(t, h, "PATCH", path, writerToken, `{"title": "Renamed again", "issue_field_values": [{"field_id": 1, "value": "new notes"}]}`)
	if r.status != http.StatusOK || r.header.Get("ETag") != tag || len(events) != 0 {
		t.Errorf("PATCH that changes nothing: %d, ETag %s (was %s), %d events; want 200, the same ETag and no event", r.status, r.header.Get("ETag"), tag, len(events))
	}

	r = doWithHeader(t, h, "PATCH", path, writerToken, `{"title": "Stale"}`, "If-Match", before)
	if r.status != http.StatusPreconditionFailed {
		t.Errorf("PATCH with a stale If-Match: %d %s, want 412", r.status, r.body)
	}
	r = doWithHeader(t, h, "PATCH", path, writerToken, `{"title": "Fresh"}`, "If-Match", tag)
	if r.status != http.StatusOK {
		t.Errorf("PATCH with a current If-Match: %d %s, want 200", r.status, r.body)
	}

	bad := `[{"field_id": 2, "value": "Urgent"}, {"field_id": 999, "value": 1}, {"value": 2}]`
	patched := do(t, h, "PATCH", path, writerToken, `{"title": "Refused", "issue_field_values": `+bad+`}`)
	put := do(t, h, "PUT", valuesPath(org, publicRepo, 2), writerToken, `{"issue_field_values": `+bad+`}`)
	if patched.status != http.StatusUnprocessableEntity || put.status != http.StatusUnprocessableEntity {
		t.Fatalf("bad items: PATCH %d, PUT %d; want 422 for both", patched.status, put.status)
	}
	var patchErrs, putErrs struct{ Errors []map[string]any }
	patched.json(t, &patchErrs)
	put.json(t, &putErrs)
	if diff := cmp.Diff(putErrs.Errors, patchErrs.Errors); diff != "" || len(putErrs.Errors) != 3 {
		t.Errorf("the errors of PATCH differ from PUT's (-PUT +PATCH):\n%s", diff)
	}
	if snap, _ := s.Snapshot(context.Background(), org, publicRepo, 2); snap.Issue.Title != "Fresh" {
		t.Errorf("after the refused PATCH the title is %q, want Fresh", snap.Issue.Title)
	}

	for _, tt := range []struct {
		name, path string
		status     int
		location   string
	}{
		{"a deleted issue", issuePath(org, publicRepo, 3), 404, ""},
		{"a transferred issue", issuePath(org, publicRepo, 4), 307, "http://example.com" + issuePath(org, publicRepo, 40)},
		{"a renamed repository", issuePath(org, "old-name", 1), 307, "http://example.com" + issuePath(org, "renamed", 1)},
	} {
		r := do(t, h, "PATCH", tt.path, writerToken, `{"title": "x"}`)
		if r.status != tt.status || r.header.Get("Location") != tt.location {
			t.Errorf("%s: %d, Location %q: %s; want %d, %q", tt.name, r.status, r.header.Get("Location"), r.body, tt.status, tt.location)
		}
	}
	if r := do(t, h, "PATCH", path, "", `{"title": "x"}`); r.status != http.StatusUnauthorized {
		t.Errorf("an anonymous PATCH: %d, want 401", r.status)
	}
	if r := do(t, h, "PATCH", path, readerToken, `{"title": "x"}`); r.status != http.StatusForbidden {
		t.Errorf("a PATCH without issues=write: %d, want the route's 403", r.status)
	}
}

// changedOnce is a memstore whose first UpdateIssue and first CreateIssue
// give ErrChanged, as if another server had written in between.
type changedOnce struct {
	*memstore.Store
	updated, created bool
}

func (s *changedOnce) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	if !s.updated {
		s.updated = true
		return "", fmt.Errorf("once: %w", issuefields.ErrChanged)
	}
	return s.Store.UpdateIssue(ctx, snap, next)
}

func (s *changedOnce) CreateIssue(ctx context.Context, snap issuefields.Snapshot, issue issuefields.Issue) (issuefields.Issue, error) {
	if !s.created {
		s.created = true
		return issuefields.Issue{}, fmt.Errorf("once: %w", issuefields.ErrChanged)
	}
	return s.Store.CreateIssue(ctx, snap, issue)
}

// TestRouteWriteDecidesAgainOnChange checks that UpdateIssue and
// CreateIssue decide again on a fresh Snapshot when the store changed since
// the one they decided on, and store once.
func TestRouteWriteDecidesAgainOnChange(t *testing.T) {
	var changes int
	s := &changedOnce{Store: newFixtureStore(t)}
	h := newIssueRoutesHandler(t, s, nil, &changes)
	if r := do(t, h, "PATCH", issuePath(org, publicRepo, 2), writerToken, `{"title": "Twice"}`); r.status != http.StatusOK || changes != 2 {
		t.Errorf("PATCH: %d %s, change called %d times; want 200 and 2", r.status, r.body, changes)
	}
	changes = 0
	r := do(t, h, "POST", "/repos/"+org+"/"+publicRepo+"/issues", writerToken, `{"title": "Made"}`)
	var got issueAnswer
	r.json(t, &got)
	if r.status != http.StatusCreated || changes != 2 || got.Number != 41 {
		t.Errorf("POST: %d %s, build called %d times; want 201, issue 41 and 2", r.status, r.body, changes)
	}
}

// TestRouteCreatesIssues checks that CreateIssue creates an issue with the
// repository's next number (one above every number it has had) and a new
// ID, with its values validated as the add route validates them; that the
// issue is then read as any other; and that a Store that is not an
// IssueStore creates none (404).
func TestRouteCreatesIssues(t *testing.T) {
	var changes int
	h := newIssueRoutesHandler(t, newFixtureStore(t), nil, &changes)
	create := func(repo, body string) (response, issueAnswer) {
		r := do(t, h, "POST", "/repos/"+org+"/"+repo+"/issues", writerToken, body)
		var got issueAnswer
		if r.status == http.StatusCreated {
			r.json(t, &got)
		}
		return r, got
	}
	r, first := create(publicRepo, `{"title": "First", "issue_field_values": [{"field_id": 5, "value": ["Docs"]}]}`)
	if r.status != http.StatusCreated || first.Number != 41 || first.ID <= 0 || first.ID >= 1<<31 {
		t.Fatalf("create: %d %s; want 201, issue 41 with an ID below 2^31", r.status, r.body)
	}
	_, second := create(publicRepo, `{"title": "Second"}`)
	if second.Number != 42 || second.ID == first.ID {
		t.Errorf("second create: %+v; want issue 42 with another ID than %d", second, first.ID)
	}
	read := do(t, h, "GET", issuePath(org, publicRepo, 41), readerToken, "")
	var got issueAnswer
	read.json(t, &got)
	if read.status != http.StatusOK || got.Title != "First" || !strings.Contains(string(got.FieldValues), `"Docs"`) {
		t.Errorf("GET the created issue: %d %s", read.status, read.body)
	}
	if r, _ := create(publicRepo, `{"title": "Bad", "issue_field_values": [{"field_id": 999, "value": 1}]}`); r.status != http.StatusUnprocessableEntity {
		t.Errorf("create with a bad item: %d, want 422", r.status)
	}
	if _, third := create(publicRepo, `{"title": "Third"}`); third.Number != 43 {
		t.Errorf("a create after a refused one got issue %d, want 43: a refused create uses no number", third.Number)
	}
	if r := do(t, h, "POST", "/repos/"+org+"/old-name/issues", writerToken, `{"title": "x"}`); r.status != http.StatusTemporaryRedirect ||
		r.header.Get("Location") != "http://example.com/repos/"+org+"/renamed/issues" {
		t.Errorf("create in a renamed repository: %d, Location %q; want 307 to the new name", r.status, r.header.Get("Location"))
	}

	plain := newIssueRoutesHandler(t, plainStore{newFixtureStore(t)}, nil, &changes)
	if r := do(t, plain, "POST", "/repos/"+org+"/"+publicRepo+"/issues", writerToken, `{"title": "x"}`); r.status != http.StatusNotFound {
		t.Errorf("create over a store without IssueStore: %d, want 404", r.status)
	}
}

// plainStore is a Store and nothing else.
type plainStore struct{ issuefields.Store }
