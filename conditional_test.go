package issuefields_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// doConditional sends a request to h with one header line name: value for
// each of values. token may be "" for no Authorization header.
func doConditional(t testing.TB, h http.Handler, method, target, token, body, name string, values ...string) response {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for _, v := range values {
		req.Header.Add(name, v)
	}
	return serve(h, req)
}

// strongETag returns the ETag of r, failing the test unless it is one strong
// entity tag: a quoted string without a W/ prefix.
func strongETag(t testing.TB, r response) string {
	t.Helper()
	tags := r.header.Values("ETag")
	if len(tags) != 1 {
		t.Fatalf("%d answer has ETag %q, want exactly one", r.status, tags)
	}
	tag := tags[0]
	opaque, ok := strings.CutPrefix(tag, `"`)
	opaque, ok2 := strings.CutSuffix(opaque, `"`)
	if !ok || !ok2 || opaque == "" || strings.ContainsAny(opaque, "\" ,\t") {
		t.Fatalf("ETag %q is not a strong entity tag", tag)
	}
	return tag
}

// listETag lists the values of issue number of org/publicRepo and returns
// the answer's ETag.
func listETag(t testing.TB, h http.Handler, number int) string {
	t.Helper()
	r := do(t, h, "GET", valuesPath(org, publicRepo, number), writerToken, "")
	if r.status != http.StatusOK {
		t.Fatalf("GET: status %d: %s", r.status, r.body)
	}
	return strongETag(t, r)
}

// TestETagOnEveryAnswer checks that every list and every successful write
// carries one strong ETag, the 204 of a delete included, and that a write's
// ETag is the one the list gives right after it.
func TestETagOnEveryAnswer(t *testing.T) {
	h, _ := newFixtureHandler(t)
	issue1, issue2 := valuesPath(org, publicRepo, 1), valuesPath(org, publicRepo, 2)
	steps := []struct {
		name, method, target, body string
		anonymous                  bool
		status                     int
		// list is the issue whose list must have the write's ETag after it.
		list int
	}{
		{name: "list", method: "GET", target: issue1, status: http.StatusOK},
		{name: "anonymous list", method: "GET", target: issue1, anonymous: true, status: http.StatusOK},
		{name: "list of an issue without values", method: "GET", target: issue2, status: http.StatusOK},
		{name: "second page", method: "GET", target: issue1 + "?per_page=2&page=2", status: http.StatusOK},
		{name: "page past the end", method: "GET", target: issue1 + "?page=9", status: http.StatusOK},
		{name: "list of a private repository", method: "GET", target: valuesPath(org, secretRepo, 1), status: http.StatusOK},
		{name: "add", method: "POST", target: issue1, body: writeBody(fieldItem(notesID, `"Reviewed"`)), status: http.StatusOK, list: 1},
		{name: "add that changes nothing", method: "POST", target: issue1, body: writeBody(fieldItem(notesID, `"Reviewed"`)), status: http.StatusOK, list: 1},
		{name: "set", method: "PUT", target: issue2, body: writeBody(fieldItem(estimateID, `3`)), status: http.StatusOK, list: 2},
		{name: "set that clears", method: "PUT", target: issue2, body: writeBody(), status: http.StatusOK, list: 2},
		{name: "delete", method: "DELETE", target: issue1 + "/" + itoa(dueID), status: http.StatusNoContent, list: 1},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			token := writerToken
			if st.anonymous {
				token = ""
			}
			r := do(t, h, st.method, st.target, token, st.body)
			if r.status != st.status {
				t.Fatalf("status %d, want %d: %s", r.status, st.status, r.body)
			}
			tag := strongETag(t, r)
			if st.list != 0 {
				if listed := listETag(t, h, st.list); listed != tag {
					t.Errorf("the write answered ETag %s, the list right after it %s", tag, listed)
				}
			}
		})
	}
}

// TestIfNoneMatch checks that a list whose ETag a client already has is
// answered 304 without a body, and that any other list is answered in full.
func TestIfNoneMatch(t *testing.T) {
	h, _ := newFixtureHandler(t)
	path := valuesPath(org, publicRepo, 1)
	full := do(t, h, "GET", path, writerToken, "")
	tag := strongETag(t, full)
	tests := []struct {
		name   string
		values []string // header lines of If-None-Match
		want   int
	}{
		{"the ETag", []string{tag}, http.StatusNotModified},
		{"the ETag in a list", []string{`"other", ` + tag + `, "more"`}, http.StatusNotModified},
		{"the ETag in a list without spaces", []string{`"other",` + tag}, http.StatusNotModified},
		{"the ETag as a weak tag", []string{"W/" + tag}, http.StatusNotModified},
		{"the ETag as a weak tag in a list", []string{`W/"other", W/` + tag}, http.StatusNotModified},
		{"the ETag on a second header line", []string{`"other"`, tag}, http.StatusNotModified},
		{"any tag", []string{"*"}, http.StatusNotModified},
		{"another tag", []string{`"other"`}, http.StatusOK},
		{"other tags, weak and strong", []string{`"a", W/"b"`}, http.StatusOK},
		{"the ETag without its quotes", []string{strings.Trim(tag, `"`)}, http.StatusOK},
		{"the ETag with a letter more", []string{strings.TrimSuffix(tag, `"`) + `x"`}, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, token := range []string{writerToken, ""} {
				r := doConditional(t, h, "GET", path, token, "", "If-None-Match", tt.values...)
				if r.status != tt.want {
					t.Fatalf("If-None-Match %q: status %d, want %d: %s", tt.values, r.status, tt.want, r.body)
				}
				if got := strongETag(t, r); got != tag {
					t.Errorf("ETag %s, want %s", got, tag)
				}
				switch r.status {
				case http.StatusNotModified:
					if r.body != "" {
						t.Errorf("304 with a body: %q", r.body)
					}
				case http.StatusOK:
					if r.body != full.body {
						t.Errorf("body %s, want %s", r.body, full.body)
					}
				}
			}
		})
	}
}

// TestETagFollowsValues checks that the ETag changes with every write that
// changed something and stays after one that changed nothing, so that a
// client's If-None-Match never hides a change.
func TestETagFollowsValues(t *testing.T) {
	h, _ := newFixtureHandler(t)
	path := valuesPath(org, publicRepo, 1)
	last := listETag(t, h, 1)
	for _, w := range []struct {
		name, method, suffix, body string
		changes                    bool
	}{
		{"add of a new value", "POST", "", writeBody(fieldItem(notesID, `"Reviewed"`)), true},
		{"add of the same value", "POST", "", writeBody(fieldItem(notesID, `"Reviewed"`)), false},
		{"add of the same options in another order", "POST", "", writeBody(fieldItem(labelsID, `["Backend","Frontend"]`)), false},
		{"set", "PUT", "", writeBody(fieldItem(notesID, `"Reviewed"`), fieldItem(estimateID, `8`)), true},
		{"set of the same values", "PUT", "", writeBody(fieldItem(estimateID, `8`), fieldItem(notesID, `"Reviewed"`)), false},
		{"delete", "DELETE", "/" + itoa(estimateID), "", true},
		{"add back the value a write before removed", "POST", "", writeBody(fieldItem(estimateID, `8`)), true},
		{"clear", "POST", "", writeBody(), true},
		{"clear again", "PUT", "", writeBody(), false},
	} {
		before := do(t, h, "GET", path, writerToken, "")
		r := do(t, h, w.method, path+w.suffix, writerToken, w.body)
		if r.status != http.StatusOK && r.status != http.StatusNoContent {
			t.Fatalf("%s: status %d: %s", w.name, r.status, r.body)
		}
		tag := strongETag(t, r)
		switch {
		case !w.changes && tag != last:
			t.Errorf("%s changed nothing, yet the ETag %s became %s", w.name, last, tag)
		case w.changes && tag == last:
			t.Errorf("%s changed the values, yet the ETag %s stayed", w.name, tag)
		}
		prev := last
		last = tag
		// A client that holds the ETag from before the write sees the
		// change, and one that holds the new ETag does not download again.
		stale := doConditional(t, h, "GET", path, writerToken, "", "If-None-Match", prev)
		if w.changes && (stale.status != http.StatusOK || stale.body == before.body) {
			t.Errorf("%s: If-None-Match with the ETag from before: %d %s, want 200 with the new values", w.name, stale.status, stale.body)
		}
		if current := doConditional(t, h, "GET", path, writerToken, "", "If-None-Match", tag); current.status != http.StatusNotModified {
			t.Errorf("%s: If-None-Match with the ETag of the write: status %d, want 304", w.name, current.status)
		}
	}
}

// editFields changes the field definitions of the fixture's organization in
// s with edit, which gets a copy of them to change.
func editFields(t testing.TB, s *memstore.Store, edit func([]issuefields.Field)) {
	t.Helper()
	_, err := s.ChangeFields(context.Background(), org, func(current []issuefields.Field) ([]issuefields.Field, error) {
		edited := slices.Clone(current)
		for i := range edited {
			edited[i].Options = slices.Clone(edited[i].Options)
		}
		edit(edited)
		return edited, nil
	})
	if err != nil {
		t.Fatalf("ChangeFields: %v", err)
	}
}

// TestETagFollowsFieldDefinitions checks that the ETag changes when a field
// definition that the list is rendered from changes, although the values
// stay: a client's If-None-Match must not hide a new field name, and its
// If-Match must not write over values it saw under old definitions.
func TestETagFollowsFieldDefinitions(t *testing.T) {
	edits := []struct {
		name string
		edit func([]issuefields.Field)
		// shows is in the list after the edit, hides is not.
		shows, hides string
	}{
		{"field renamed", func(fs []issuefields.Field) { fs[0].Name = "Remarks" }, `"Remarks"`, `"Notes"`},
		{"option renamed", func(fs []issuefields.Field) { fs[1].Options[0].Name = "Urgent" }, `"Urgent"`, `"High"`},
		{"option recoloured", func(fs []issuefields.Field) { fs[1].Options[0].Color = "orange" }, `"orange"`, `"red"`},
		{"selected options removed", func(fs []issuefields.Field) { fs[4].Options = fs[4].Options[2:] }, `"Estimate"`, `"Labels"`},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			s := newFixtureStore(t)
			h := newConfiguredHandler(t, issuefields.Config{Store: s})
			path := valuesPath(org, publicRepo, 1)
			before := do(t, h, "GET", path, writerToken, "")
			old := strongETag(t, before)

			editFields(t, s, e.edit)
			r := doConditional(t, h, "GET", path, writerToken, "", "If-None-Match", old)
			if r.status != http.StatusOK {
				t.Fatalf("If-None-Match with the ETag from before the edit: status %d, want 200", r.status)
			}
			tag := strongETag(t, r)
			if tag == old {
				t.Errorf("the ETag %s stayed although the list changed from\n%s\nto\n%s", tag, before.body, r.body)
			}
			if !strings.Contains(r.body, e.shows) || strings.Contains(r.body, e.hides) {
				t.Errorf("the list after the edit does not show it: %s", r.body)
			}

			key := issueAt(org, publicRepo, 1)
			values, version := readStored(t, s, key)
			body := writeBody(fieldItem(estimateID, `13`))
			if w := doConditional(t, h, "POST", path, writerToken, body, "If-Match", old); w.status != http.StatusPreconditionFailed {
				t.Errorf("add with If-Match from before the edit: status %d, want 412: %s", w.status, w.body)
			}
			if got, gotVersion := readStored(t, s, key); gotVersion != version || !cmp.Equal(got, values) {
				t.Errorf("a refused write changed the store: %+v became %+v", values, got)
			}
			if w := doConditional(t, h, "POST", path, writerToken, body, "If-Match", tag); w.status != http.StatusOK {
				t.Errorf("add with If-Match from after the edit: status %d, want 200: %s", w.status, w.body)
			}
		})
	}
}

// TestIfMatch checks each write under an If-Match header: it is refused with
// 412 and changes nothing when no listed tag is the current ETag (a weak tag
// never is), and it goes through when one is, or for *.
func TestIfMatch(t *testing.T) {
	writes := []struct {
		method, suffix, body string
		success              int
	}{
		{"POST", "", writeBody(fieldItem(estimateID, `8`)), http.StatusOK},
		{"PUT", "", writeBody(fieldItem(notesID, `"Rewritten"`), fieldItem(estimateID, `8`)), http.StatusOK},
		{"DELETE", "/" + itoa(dueID), "", http.StatusNoContent},
	}
	// Each condition gets the ETag of the values from before a concurrent
	// write (stale) and the current one.
	conditions := []struct {
		name   string
		values func(stale, current string) []string
		ok     bool
	}{
		{"stale ETag", func(stale, _ string) []string { return []string{stale} }, false},
		{"stale ETags in a list", func(stale, _ string) []string { return []string{`"other", ` + stale} }, false},
		{"current ETag as a weak tag", func(_, current string) []string { return []string{"W/" + current} }, false},
		{"current ETag without its quotes", func(_, current string) []string { return []string{strings.Trim(current, `"`)} }, false},
		{"unknown ETag", func(string, string) []string { return []string{`"nonsense"`} }, false},
		{"current ETag", func(_, current string) []string { return []string{current} }, true},
		{"current ETag in a list", func(stale, current string) []string { return []string{stale + ", " + current} }, true},
		{"current ETag on a second header line", func(stale, current string) []string { return []string{stale, current} }, true},
		{"any ETag", func(string, string) []string { return []string{"*"} }, true},
	}
	for _, w := range writes {
		for _, c := range conditions {
			t.Run(w.method+"/"+c.name, func(t *testing.T) {
				h, s := newFixtureHandler(t)
				path := valuesPath(org, publicRepo, 1)
				stale := listETag(t, h, 1)
				other := do(t, h, "POST", path, writerToken, writeBody(fieldItem(notesID, `"Written by someone else"`)))
				if other.status != http.StatusOK {
					t.Fatalf("concurrent write: status %d: %s", other.status, other.body)
				}
				current := strongETag(t, other)
				key := issueAt(org, publicRepo, 1)
				values, version := readStored(t, s, key)

				r := doConditional(t, h, w.method, path+w.suffix, writerToken, w.body, "If-Match", c.values(stale, current)...)

				got, gotVersion := readStored(t, s, key)
				if !c.ok {
					var e errorResponse
					r.json(t, &e)
					if r.status != http.StatusPreconditionFailed || e.Status != "412" || e.Message == "" {
						t.Errorf("status %d %s, want 412 with a message", r.status, r.body)
					}
					if gotVersion != version || !cmp.Equal(got, values) {
						t.Errorf("a refused write changed the store (version %q → %q): %+v became %+v", version, gotVersion, values, got)
					}
					return
				}
				if r.status != w.success {
					t.Fatalf("status %d, want %d: %s", r.status, w.success, r.body)
				}
				if gotVersion == version {
					t.Errorf("the write left the store as it was: %+v", got)
				}
				if tag := strongETag(t, r); tag != listETag(t, h, 1) || tag == current {
					t.Errorf("the write answered ETag %s; want the new ETag of the list", tag)
				}
			})
		}
	}
}

// TestIfMatchReadModifyWrite has two clients read an issue's values and write
// back their change at the same moment, each under the ETag it read: exactly
// one wins, the other gets 412 and, reading again, writes over the winner's
// values knowingly.
func TestIfMatchReadModifyWrite(t *testing.T) {
	const rounds = 20
	h, s := newFixtureHandler(t)
	path := valuesPath(org, publicRepo, 2)
	key := issueAt(org, publicRepo, 2)
	for round := range rounds {
		tag := listETag(t, h, 2)
		bodies := []string{
			writeBody(fieldItem(notesID, `"client A, round `+itoa(round)+`"`)),
			writeBody(fieldItem(notesID, `"client B, round `+itoa(round)+`"`)),
		}
		// Two principals, so that the secondary rate limit counts each
		// client's writes apart.
		tokens := []string{writerToken, appUserToken}
		statuses := make([]int, len(bodies))
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i, body := range bodies {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				statuses[i] = doConditional(t, h, "POST", path, tokens[i], body, "If-Match", tag).status
			}()
		}
		close(start)
		wg.Wait()
		winner := slices.Index(statuses, http.StatusOK)
		if winner < 0 || slices.Index(statuses, http.StatusPreconditionFailed) != 1-winner {
			t.Fatalf("round %d: statuses %v, want one 200 and one 412", round, statuses)
		}
		got, _ := readStored(t, s, key)
		want := []issuefields.Value{{FieldID: notesID, Text: []string{"client A", "client B"}[winner] + ", round " + itoa(round)}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("round %d: stored values (-want +got):\n%s", round, diff)
		}
		// The loser reads again and writes under the new ETag.
		retry := doConditional(t, h, "POST", path, tokens[1-winner], bodies[1-winner], "If-Match", listETag(t, h, 2))
		if retry.status != http.StatusOK {
			t.Fatalf("round %d: the loser's write under the new ETag: status %d: %s", round, retry.status, retry.body)
		}
	}
}

// TestETagAcrossRestarts checks that an ETag taken from an in-memory store
// does not match the values of a store made again from the same data, as
// after a restart, once the two have been written the same number of times
// with different values: a stale If-None-Match gets the list, and a stale
// If-Match write is refused and changes nothing.
func TestETagAcrossRestarts(t *testing.T) {
	path := valuesPath(org, publicRepo, 1)
	before, _ := newFixtureHandler(t)
	if r := do(t, before, "POST", path, writerToken, writeBody(fieldItem(notesID, `"Before the restart"`))); r.status != http.StatusOK {
		t.Fatalf("write before the restart: %d %s", r.status, r.body)
	}
	stale := listETag(t, before, 1)

	after, s := newFixtureHandler(t)
	if r := do(t, after, "POST", path, writerToken, writeBody(fieldItem(notesID, `"After the restart"`))); r.status != http.StatusOK {
		t.Fatalf("write after the restart: %d %s", r.status, r.body)
	}
	if r := doWithHeader(t, after, "GET", path, writerToken, "", "If-None-Match", stale); r.status != http.StatusOK {
		t.Errorf("list with the ETag from before the restart: status %d, want 200", r.status)
	}
	key := issueAt(org, publicRepo, 1)
	values, version := readStored(t, s, key)
	r := doWithHeader(t, after, "PUT", path, writerToken, writeBody(), "If-Match", stale)
	if r.status != http.StatusPreconditionFailed {
		t.Errorf("write with If-Match from before the restart: status %d, want 412", r.status)
	}
	if got, gotVersion := readStored(t, s, key); gotVersion != version || !cmp.Equal(got, values) {
		t.Errorf("the refused write changed the store: %+v became %+v", values, got)
	}
}
