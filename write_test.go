package issuefields_test

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/issuefields/issuefields"
)

// byFieldID orders values by field ID, so that stored values compare
// whatever order the store keeps them in.
var byFieldID = cmpopts.SortSlices(func(a, b issuefields.Value) bool { return a.FieldID < b.FieldID })

// fixtureValuesWith returns the fixture's values of issue 1 with the value of
// each field in changed replaced, and those of the fields in removed left out.
func fixtureValuesWith(changed []issuefields.Value, removed ...int64) []issuefields.Value {
	var out []issuefields.Value
	for _, v := range fixtureValues {
		if slices.Contains(removed, v.FieldID) {
			continue
		}
		if i := slices.IndexFunc(changed, func(c issuefields.Value) bool { return c.FieldID == v.FieldID }); i >= 0 {
			v = changed[i]
		}
		out = append(out, v)
	}
	for _, c := range changed {
		if !slices.ContainsFunc(out, func(v issuefields.Value) bool { return v.FieldID == c.FieldID }) {
			out = append(out, c)
		}
	}
	return out
}

func TestWrites(t *testing.T) {
	for _, tc := range []struct {
		name   string
		method string
		issue  int // of hello-world; issue 1 holds fixtureValues, issue 2 nothing
		body   string
		want   []issuefields.Value // what the store holds afterwards
	}{
		{"add merges", "POST", 1, writeBody(fieldItem(notesID, `"Reviewed"`), fieldItem(estimateID, `8`)),
			fixtureValuesWith([]issuefields.Value{{FieldID: notesID, Text: "Reviewed"}, {FieldID: estimateID, Number: 8}})},
		{"add to an issue without values", "POST", 2, writeBody(fieldItem(dueID, `"2026-01-31"`)),
			[]issuefields.Value{{FieldID: dueID, Date: "2026-01-31"}}},
		{"add replaces a multi_select's options", "POST", 1, writeBody(fieldItem(labelsID, `["Docs"]`)),
			fixtureValuesWith([]issuefields.Value{{FieldID: labelsID, OptionIDs: []int64{53}}})},
		{"add with an empty array clears", "POST", 1, writeBody(), nil},
		{"set replaces", "PUT", 1, writeBody(fieldItem(estimateID, `13`), fieldItem(priorityID, `"Low"`)),
			[]issuefields.Value{{FieldID: priorityID, OptionIDs: []int64{13}}, {FieldID: estimateID, Number: 13}}},
		{"set to an issue without values", "PUT", 2, writeBody(fieldItem(notesID, `"n"`)),
			[]issuefields.Value{{FieldID: notesID, Text: "n"}}},
		{"set with an empty array clears", "PUT", 1, writeBody(), nil},
		{"set with an empty array on an issue without values", "PUT", 2, writeBody(), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, s := newFixtureHandler(t)
			path := valuesPath(org, publicRepo, tc.issue)
			r := do(t, h, tc.method, path, writerToken, tc.body)
			if r.status != http.StatusOK {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			got, _ := readStored(t, s, issueAt(org, publicRepo, int64(tc.issue)))
			if diff := cmp.Diff(tc.want, got, byFieldID, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("stored values (-want +got):\n%s", diff)
			}
			if list := do(t, h, "GET", path, "", ""); r.body != list.body {
				t.Errorf("the %s answered\n%s\nbut the list is\n%s", tc.method, r.body, list.body)
			}
			if len(tc.want) == 0 && r.body != "[]\n" {
				t.Errorf("body %s, want []", r.body)
			}
		})
	}
}

func TestDelete(t *testing.T) {
	h, s := newFixtureHandler(t)
	key := issueAt(org, publicRepo, 1)
	target := valuesPath(org, publicRepo, 1) + "/" + itoa(estimateID)
	r := do(t, h, "DELETE", target, writerToken, "")
	if r.status != http.StatusNoContent || r.body != "" {
		t.Fatalf("first DELETE: %d %q, want 204 and no body", r.status, r.body)
	}
	want := fixtureValuesWith(nil, estimateID)
	got, _ := readStored(t, s, key)
	if diff := cmp.Diff(want, got, byFieldID); diff != "" {
		t.Errorf("stored values after DELETE (-want +got):\n%s", diff)
	}
	if ids := fieldIDs(t, do(t, h, "GET", valuesPath(org, publicRepo, 1), "", "")); slices.Contains(ids, estimateID) {
		t.Errorf("the list still has field %d: %v", estimateID, ids)
	}
	r = do(t, h, "DELETE", target, writerToken, "")
	if r.status != http.StatusNotFound {
		t.Errorf("second DELETE: status %d, want 404: %s", r.status, r.body)
	}
	if again, _ := readStored(t, s, key); !cmp.Equal(got, again) {
		t.Errorf("the second DELETE changed the store: %+v", again)
	}
}

func TestDeleteNotFound(t *testing.T) {
	for _, tc := range []struct {
		name   string
		issue  int
		field  string
		status int
	}{
		{"field without a value", 2, itoa(notesID), http.StatusNotFound},
		{"unknown field", 1, "99", http.StatusNotFound},
		{"field id 0", 1, "0", http.StatusNotFound},
		{"field id with a leading zero", 1, "01", http.StatusNotFound},
		{"field id negative", 1, "-1", http.StatusNotFound},
		{"field id with a sign", 1, "+1", http.StatusNotFound},
		{"field id a fraction", 1, "1.0", http.StatusNotFound},
		{"field id a name", 1, "Notes", http.StatusNotFound},
		{"field id 2^63", 1, "9223372036854775808", http.StatusNotFound},
		{"field id 2^63-1", 1, "9223372036854775807", http.StatusNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, s := newFixtureHandler(t)
			key := issueAt(org, publicRepo, int64(tc.issue))
			before, beforeVersion := readStored(t, s, key)
			r := do(t, h, "DELETE", valuesPath(org, publicRepo, tc.issue)+"/"+tc.field, writerToken, "")
			if r.status != tc.status {
				t.Errorf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			var e errorResponse
			r.json(t, &e)
			if e.Message != "Not Found" || e.Status != "404" {
				t.Errorf("body %s", r.body)
			}
			after, afterVersion := readStored(t, s, key)
			if afterVersion != beforeVersion || !cmp.Equal(before, after) {
				t.Errorf("the store changed: %+v, then %+v", before, after)
			}
		})
	}
}

// TestWriteAnswersWholeList checks that add and set answer with every value of
// the issue, however many, while a list is paginated.
func TestWriteAnswersWholeList(t *testing.T) {
	const fields, filled = 60, 45
	s := newWideStore(t, fields, filled)
	h := newConfiguredHandler(t, issuefields.Config{Store: s})
	path := valuesPath(wideOrg, wideRepo, 1)

	list := do(t, h, "GET", path, "", "")
	if got := fieldIDs(t, list); len(got) != defaultPerPage || list.header.Get("Link") == "" {
		t.Fatalf("a list of %d values answered %d items, Link %q; want a first page of %d", filled, len(got), list.header.Get("Link"), defaultPerPage)
	}

	r := do(t, h, "POST", path, writerToken, writeBody(fieldItem(50, `"fifty"`)))
	if got, want := fieldIDs(t, r), append(idRange(1, filled), 50); r.status != http.StatusOK || !cmp.Equal(want, got) {
		t.Errorf("POST: status %d, field ids %v, want 200 and %v", r.status, got, want)
	}
	if l := r.header.Get("Link"); l != "" {
		t.Errorf("POST answered with Link %q", l)
	}

	var items []string
	for id := 21; id <= 20+maxItems; id++ {
		items = append(items, fieldItem(id, fmt.Sprintf(`"v%d"`, id)))
	}
	r = do(t, h, "PUT", path+"?per_page=5&page=2", writerToken, writeBody(items...))
	if got, want := fieldIDs(t, r), idRange(21, 20+maxItems); r.status != http.StatusOK || !cmp.Equal(want, got) {
		t.Errorf("PUT of %d items: status %d, field ids %v, want 200 and %v", maxItems, r.status, got, want)
	}
	if l := r.header.Get("Link"); l != "" {
		t.Errorf("PUT answered with Link %q", l)
	}
	stored, _ := readStored(t, s, issueAt(wideOrg, wideRepo, 1))
	if len(stored) != maxItems {
		t.Errorf("the store holds %d values after the PUT, want %d", len(stored), maxItems)
	}
}

// TestWriteOfSameValuesChangesNothing checks that a write that leaves the
// values as they are is not stored: the store's version stays.
func TestWriteOfSameValuesChangesNothing(t *testing.T) {
	for _, tc := range []struct{ name, method, body string }{
		{"add of one current value", "POST", writeBody(fieldItem(estimateID, `5`))},
		{"add of a current value written otherwise", "POST", writeBody(fieldItem(estimateID, `5.0e0`))},
		{"add of current options in another order", "POST", writeBody(fieldItem(labelsID, `["Backend", "Frontend"]`))},
		{"set of every current value, in another order", "PUT", writeBody(
			fieldItem(dueID, `"2025-12-25"`), fieldItem(notesID, `"Needs a design review"`),
			fieldItem(estimateID, `5`), fieldItem(priorityID, `"High"`))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, s := newFixtureHandler(t)
			key := issueAt(org, publicRepo, 1)
			if tc.method == "PUT" {
				// A set cannot write the multi_select field, so start without it.
				if r := do(t, h, "DELETE", valuesPath(org, publicRepo, 1)+"/"+itoa(labelsID), writerToken, ""); r.status != http.StatusNoContent {
					t.Fatalf("DELETE: status %d: %s", r.status, r.body)
				}
			}
			before, beforeVersion := readStored(t, s, key)
			r := do(t, h, tc.method, valuesPath(org, publicRepo, 1), writerToken, tc.body)
			if r.status != http.StatusOK {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			after, afterVersion := readStored(t, s, key)
			if afterVersion != beforeVersion {
				t.Errorf("version %q became %q: values %+v became %+v", beforeVersion, afterVersion, before, after)
			}
			if got := len(fieldIDs(t, r)); got != len(before) {
				t.Errorf("the answer has %d items, want %d", got, len(before))
			}
		})
	}
	t.Run("clearing an issue without values", func(t *testing.T) {
		h, s := newFixtureHandler(t)
		key := issueAt(org, publicRepo, 2)
		_, before := readStored(t, s, key)
		for _, method := range []string{"POST", "PUT"} {
			if r := do(t, h, method, valuesPath(org, publicRepo, 2), writerToken, writeBody()); r.status != http.StatusOK || r.body != "[]\n" {
				t.Errorf("%s: %d %s, want 200 []", method, r.status, r.body)
			}
		}
		if _, after := readStored(t, s, key); after != before {
			t.Errorf("version %q became %q", before, after)
		}
	})
}

// TestConcurrentAddsAllLand checks that concurrent adds of different fields
// to one issue lose none of each other's values.
func TestConcurrentAddsAllLand(t *testing.T) {
	const writers = 40
	s := newWideStore(t, writers, 0)
	h := newConfiguredHandler(t, issuefields.Config{Store: s})
	path := valuesPath(wideOrg, wideRepo, 1)
	var wg sync.WaitGroup
	errs := make(chan string, writers)
	for id := 1; id <= writers; id++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := writeBody(fieldItem(id, fmt.Sprintf(`"writer %d"`, id)))
			// 503 means the write lost too many races and changed
			// nothing; a client retries it.
			for attempt := 0; attempt < 20; attempt++ {
				r := do(t, h, "POST", path, writerToken, body)
				switch r.status {
				case http.StatusOK:
					return
				case http.StatusServiceUnavailable:
					continue
				}
				errs <- fmt.Sprintf("writer %d: status %d: %s", id, r.status, r.body)
				return
			}
			errs <- fmt.Sprintf("writer %d: 503 twenty times", id)
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	var want []issuefields.Value
	for id := 1; id <= writers; id++ {
		want = append(want, issuefields.Value{FieldID: int64(id), Text: fmt.Sprintf("writer %d", id)})
	}
	got, _ := readStored(t, s, issueAt(wideOrg, wideRepo, 1))
	if diff := cmp.Diff(want, got, byFieldID); diff != "" {
		t.Errorf("stored values (-want +got):\n%s", diff)
	}
}

// TestUserOwnedRepository checks that a repository owned by a user, which has
// no fields, lists no values and refuses every item of a write.
func TestUserOwnedRepository(t *testing.T) {
	h, s := newFixtureHandler(t)
	path := valuesPath("octocat", "personal", 1)
	key := issueAt("octocat", "personal", 1)
	_, version := readStored(t, s, key)
	if r := do(t, h, "GET", path, "", ""); r.status != http.StatusOK || r.body != "[]\n" {
		t.Errorf("GET: %d %s, want 200 []", r.status, r.body)
	}
	body := writeBody(fieldItem(notesID, `"x"`), fieldItem(estimateID, `1`))
	for _, method := range []string{"POST", "PUT"} {
		r := do(t, h, method, path, writerToken, body)
		var e errorResponse
		r.json(t, &e)
		if r.status != http.StatusUnprocessableEntity || len(e.Errors) != 2 {
			t.Fatalf("%s: status %d, body %s; want 422 with two errors", method, r.status, r.body)
		}
		for i, fe := range e.Errors {
			want := fmt.Sprintf("Issue field with id %d not found", []int{notesID, estimateID}[i])
			if fe.Field != "field_id" || fe.Index == nil || *fe.Index != i || fe.Message != want {
				t.Errorf("%s: errors[%d] = %+v, want field_id, index %d, %q", method, i, fe, i, want)
			}
		}
	}
	if r := do(t, h, "DELETE", path+"/"+itoa(notesID), writerToken, ""); r.status != http.StatusNotFound {
		t.Errorf("DELETE: status %d, want 404: %s", r.status, r.body)
	}
	if _, after := readStored(t, s, key); after != version {
		t.Errorf("the store changed: version %q became %q", version, after)
	}
}
