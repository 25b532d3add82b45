package server

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
)

// TestOutcomesMatchTheHandler checks that what the start-up message says
// each demo token may do is what the handler does, for every token and
// repository of the demo data.
func TestOutcomesMatchTheHandler(t *testing.T) {
	d := loadDemo(t)
	h, err := issuefields.New(issuefields.Config{Store: d.store, Verifier: d.tokens, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	for _, td := range d.file.Tokens {
		for i, rd := range d.file.Repositories {
			repo := d.repos[i]
			want := outcomeOf(d.tokens.entry(td.Token), repo, time.Now())
			path := valuesPath(repo.Owner, repo.Name, liveIssues(rd)[0].Number)
			serve := func(method string) *httptest.ResponseRecorder {
				// A write with a body that lacks issue_field_values: 422 if
				// the token may write, so nothing changes either way.
				r := httptest.NewRequest(method, path, strings.NewReader(`{}`))
				r.Header.Set("Authorization", "Bearer "+td.Token)
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				return w
			}
			if got := serve(http.MethodGet).Code; got != want.list {
				t.Errorf("%s lists %s/%s: status %d, the start-up message says %d", td.Token, repo.Owner, repo.Name, got, want.list)
			}
			w := serve(http.MethodPost)
			wantWrite := want.write
			if wantWrite == http.StatusOK {
				wantWrite = http.StatusUnprocessableEntity
			}
			if w.Code != wantWrite {
				t.Errorf("%s writes to %s/%s: status %d, the start-up message says %d", td.Token, repo.Owner, repo.Name, w.Code, want.write)
			}
			if noPush := strings.Contains(w.Body.String(), "push access"); noPush != want.noPush {
				t.Errorf("%s writes to %s/%s: %s; the start-up message says no push access: %t", td.Token, repo.Owner, repo.Name, w.Body, want.noPush)
			}
		}
	}
}
