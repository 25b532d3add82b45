package server

import (
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
)

// wantStatus is the status that the contract gives a request refused with
// err, or 200 for nil.
func wantStatus(err error) int {
	switch {
	case err == nil:
		return http.StatusOK
	case errors.Is(err, issuefields.ErrBadCredentials):
		return http.StatusUnauthorized
	case errors.Is(err, issuefields.ErrNotFound):
		return http.StatusNotFound
	}
	return http.StatusForbidden
}

// demoHandler returns the demo data and a handler that serves it.
func demoHandler(t *testing.T) (*dataset, http.Handler) {
	t.Helper()
	d := loadDemo(t)
	h, err := issuefields.New(issuefields.Config{Store: d.store, Verifier: d.tokens, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return d, h
}

// sendAs sends method to path with token and a body of {}, which a write
// refuses with 422 once the token may write, so that nothing changes.
func sendAs(h http.Handler, method, path, token string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, strings.NewReader(`{}`))
	r.Header.Set("Authorization", "Bearer "+token)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestAccessMatchesTheHandler checks that what the start-up message says
// each demo token may do in each repository is what the handler does.
func TestAccessMatchesTheHandler(t *testing.T) {
	d, h := demoHandler(t)
	for _, td := range d.file.Tokens {
		for i, rd := range d.file.Repositories {
			repo := d.repos[i]
			want := accessOf(d.tokens.entry(td.Token), repo, time.Now())
			path := valuesPath(repo.Owner, repo.Name, liveIssues(rd)[0].Number)
			if got := sendAs(h, http.MethodGet, path, td.Token).Code; got != wantStatus(want.list) {
				t.Errorf("%s lists %s/%s: status %d, the start-up message says %v", td.Token, repo.Owner, repo.Name, got, want.list)
			}
			w := sendAs(h, http.MethodPost, path, td.Token)
			wantWrite := wantStatus(want.write)
			if wantWrite == http.StatusOK {
				wantWrite = http.StatusUnprocessableEntity
			}
			if w.Code != wantWrite {
				t.Errorf("%s writes to %s/%s: status %d, the start-up message says %v", td.Token, repo.Owner, repo.Name, w.Code, want.write)
			}
			if noPush := strings.Contains(w.Body.String(), "push access"); noPush != errors.Is(want.write, issuefields.ErrNoPushAccess) {
				t.Errorf("%s writes to %s/%s: %s; the start-up message says %v", td.Token, repo.Owner, repo.Name, w.Body, want.write)
			}
		}
	}
}

// TestFieldAccessMatchesTheHandler checks that what the start-up message says
// each demo token may do with each organization's fields is what the handler
// does.
func TestFieldAccessMatchesTheHandler(t *testing.T) {
	d, h := demoHandler(t)
	managers := 0
	for _, td := range d.file.Tokens {
		for _, org := range d.organizations() {
			phrase := fieldsPhrase(d.tokens.entry(td.Token), org)
			path := "/orgs/" + org + "/issue-fields"
			if got := sendAs(h, http.MethodGet, path, td.Token).Code; (got == http.StatusOK) != (phrase != "") {
				t.Errorf("%s lists the fields of %s: status %d; the start-up message says %q", td.Token, org, got, phrase)
			}
			manages := strings.HasPrefix(phrase, "manage")
			if got := sendAs(h, http.MethodPost, path, td.Token).Code; (got == http.StatusUnprocessableEntity) != manages {
				t.Errorf("%s creates a field of %s: status %d; the start-up message says %q", td.Token, org, got, phrase)
			}
			if manages {
				managers++
			}
		}
	}
	if managers == 0 {
		t.Errorf("no demo token may manage fields")
	}
}
