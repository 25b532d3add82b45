package issuefields_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// decodeItems decodes a list body keeping numbers as they were written, so
// that 5 and 5.0 differ.
func decodeItems(t testing.TB, body string) []map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var items []map[string]any
	if err := dec.Decode(&items); err != nil {
		t.Fatalf("body is not a JSON array of objects: %v\n%s", err, body)
	}
	if dec.More() {
		t.Fatalf("body has more than one JSON value:\n%s", body)
	}
	return items
}

// nodeIDs removes the node_id of every item and returns them in order.
func nodeIDs(t testing.TB, items []map[string]any) []string {
	t.Helper()
	ids := make([]string, len(items))
	for i, it := range items {
		id, ok := it["node_id"].(string)
		if !ok {
			t.Fatalf("item %d: node_id is %#v, want a string", i, it["node_id"])
		}
		ids[i] = id
		delete(it, "node_id")
	}
	return ids
}

// The list of hello-world issue 1, without node_ids.
const fixtureList = `[
	{"issue_field_id": 1, "issue_field_name": "Notes", "data_type": "text", "value": "Needs a design review"},
	{"issue_field_id": 2, "issue_field_name": "Priority", "data_type": "single_select", "value": 11,
	 "single_select_option": {"id": 11, "name": "High", "color": "red"}},
	{"issue_field_id": 3, "issue_field_name": "Estimate", "data_type": "number", "value": 5},
	{"issue_field_id": 4, "issue_field_name": "Due", "data_type": "date", "value": "2025-12-25"},
	{"issue_field_id": 5, "issue_field_name": "Labels", "data_type": "multi_select", "value": "Frontend,Backend",
	 "multi_select_options": [{"id": 51, "name": "Frontend", "color": "blue"}, {"id": 52, "name": "Backend", "color": "green"}]}
]`

func TestListShowsEveryDataType(t *testing.T) {
	h, _ := newFixtureHandler(t)
	r := do(t, h, "GET", valuesPath(org, publicRepo, 1), "", "")
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", r.status, r.body)
	}
	got := decodeItems(t, r.body)
	ids := nodeIDs(t, got)
	if diff := cmp.Diff(decodeItems(t, fixtureList), got); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}
	urlSafe := regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	prefixes := []string{"IFT_", "IFSS_", "IFN_", "IFD_", "IFMS_"} // in field order
	seen := map[string]bool{}
	for i, id := range ids {
		if !strings.HasPrefix(id, prefixes[i]) || len(id) == len(prefixes[i]) {
			t.Errorf("item %d: node_id %q, want %q and more", i, id, prefixes[i])
		}
		if !urlSafe.MatchString(id) {
			t.Errorf("item %d: node_id %q is not URL-safe", i, id)
		}
		if seen[id] {
			t.Errorf("node_id %q is used twice", id)
		}
		seen[id] = true
	}
}

func TestEmptyListIsAnEmptyArray(t *testing.T) {
	h, _ := newFixtureHandler(t)
	for _, tc := range []struct{ name, method, path, body string }{
		{"issue without values", "GET", valuesPath(org, publicRepo, 2), ""},
		{"repository owned by a user", "GET", valuesPath("octocat", "personal", 1), ""},
		{"add clearing every value", "POST", valuesPath(org, publicRepo, 1), writeBody()},
		{"set clearing every value", "PUT", valuesPath(org, secretRepo, 1), writeBody()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := do(t, h, tc.method, tc.path, writerToken, tc.body)
			if r.status != http.StatusOK || r.body != "[]\n" {
				t.Errorf("%s %s: %d %q, want 200 []", tc.method, tc.path, r.status, r.body)
			}
		})
	}
}

// TestValueShapes writes one value per row and checks the item of the
// answer, as JSON, without its node_id.
func TestValueShapes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		field int
		value string // as sent
		want  string // the item of the answer, without node_id
	}{
		{"integer", estimateID, `5`, `{"issue_field_id":3,"issue_field_name":"Estimate","data_type":"number","value":5}`},
		{"integer with exponent", estimateID, `1e2`, `{"issue_field_id":3,"issue_field_name":"Estimate","data_type":"number","value":100}`},
		{"integer with fraction zero", estimateID, `7.0`, `{"issue_field_id":3,"issue_field_name":"Estimate","data_type":"number","value":7}`},
		{"negative", estimateID, `-3`, `{"issue_field_id":3,"issue_field_name":"Estimate","data_type":"number","value":-3}`},
		{"negative zero", estimateID, `-0`, `{"issue_field_id":3,"issue_field_name":"Estimate","data_type":"number","value":0}`},
		{"fraction", estimateID, `2.5`, `{"issue_field_id":3,"issue_field_name":"Estimate","data_type":"number","value":2.5}`},
		{"large integer", estimateID, `1234567890123`, `{"issue_field_id":3,"issue_field_name":"Estimate","data_type":"number","value":1234567890123}`},
		{"text", notesID, `"héllo, <wörld> & \"you\""`, `{"issue_field_id":1,"issue_field_name":"Notes","data_type":"text","value":"héllo, <wörld> & \"you\""}`},
		{"date", dueID, `"2024-02-29"`, `{"issue_field_id":4,"issue_field_name":"Due","data_type":"date","value":"2024-02-29"}`},
		{"single_select", priorityID, `"Low"`, `{"issue_field_id":2,"issue_field_name":"Priority","data_type":"single_select","value":13,
			"single_select_option":{"id":13,"name":"Low","color":"green"}}`},
		{"multi_select in the field's option order", labelsID, `["Docs","Frontend"]`, `{"issue_field_id":5,"issue_field_name":"Labels","data_type":"multi_select",
			"value":"Frontend,Docs","multi_select_options":[{"id":51,"name":"Frontend","color":"blue"},{"id":53,"name":"Docs","color":"gray"}]}`},
		{"multi_select with one option", labelsID, `["Backend"]`, `{"issue_field_id":5,"issue_field_name":"Labels","data_type":"multi_select",
			"value":"Backend","multi_select_options":[{"id":52,"name":"Backend","color":"green"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := newFixtureHandler(t)
			path := valuesPath(org, publicRepo, 2)
			w := do(t, h, "POST", path, writerToken, writeBody(fieldItem(tc.field, tc.value)))
			if w.status != http.StatusOK {
				t.Fatalf("POST: status %d: %s", w.status, w.body)
			}
			want := decodeItems(t, "["+tc.want+"]")
			for name, r := range map[string]response{"POST": w, "GET": do(t, h, "GET", path, "", "")} {
				got := decodeItems(t, r.body)
				nodeIDs(t, got)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s answer (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}

func TestNodeIDsAreStable(t *testing.T) {
	h, s := newFixtureHandler(t)
	list := func(owner, repo string, number int) []string {
		t.Helper()
		r := do(t, h, "GET", valuesPath(owner, repo, number), writerToken, "")
		if r.status != http.StatusOK {
			t.Fatalf("GET %s/%s#%d: status %d: %s", owner, repo, number, r.status, r.body)
		}
		return nodeIDs(t, decodeItems(t, r.body))
	}
	first := list(org, publicRepo, 1)
	if again := list(org, publicRepo, 1); !cmp.Equal(first, again) {
		t.Errorf("node_ids changed between two lists:\n%v\n%v", first, again)
	}
	w := do(t, h, "POST", valuesPath(org, publicRepo, 1), writerToken, writeBody(fieldItem(notesID, `"changed"`)))
	if got := nodeIDs(t, decodeItems(t, w.body)); !cmp.Equal(first, got) {
		t.Errorf("node_ids of the add's answer differ from the list's:\n%v\n%v", first, got)
	}
	other := list(org, secretRepo, 1)
	for i := range first {
		if first[i] == other[i] {
			t.Errorf("the values of field %d on two issues share the node_id %q", i+1, first[i])
		}
	}
	if err := s.RenameRepository(org, publicRepo, "hello-universe"); err != nil {
		t.Fatal(err)
	}
	if renamed := list(org, "hello-universe", 1); !cmp.Equal(first, renamed) {
		t.Errorf("node_ids changed when the repository was renamed:\n%v\n%v", first, renamed)
	}
}

func TestItemsAreInFieldOrder(t *testing.T) {
	t.Run("fixture", func(t *testing.T) {
		h, _ := newFixtureHandler(t)
		body := writeBody(fieldItem(labelsID, `["Docs"]`), fieldItem(dueID, `"2025-01-01"`), fieldItem(estimateID, `1`),
			fieldItem(priorityID, `"Low"`), fieldItem(notesID, `"x"`))
		path := valuesPath(org, publicRepo, 2)
		want := []int64{notesID, priorityID, estimateID, dueID, labelsID}
		if got := fieldIDs(t, do(t, h, "POST", path, writerToken, body)); !cmp.Equal(want, got) {
			t.Errorf("POST answer: field ids %v, want %v", got, want)
		}
		if got := fieldIDs(t, do(t, h, "GET", path, "", "")); !cmp.Equal(want, got) {
			t.Errorf("GET answer: field ids %v, want %v", got, want)
		}
	})
	t.Run("positions are not IDs", func(t *testing.T) {
		s := memstore.New()
		for _, err := range []error{
			s.AddOrganization("acme"),
			s.AddField("acme", issuefields.Field{ID: 30, Name: "C", DataType: issuefields.DataTypeText}),
			s.AddField("acme", issuefields.Field{ID: 10, Name: "A", DataType: issuefields.DataTypeNumber}),
			s.AddField("acme", issuefields.Field{ID: 20, Name: "B", DataType: issuefields.DataTypeDate}),
		} {
			if err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.AddRepository("acme", "app", false); err != nil {
			t.Fatal(err)
		}
		if err := s.AddIssue("acme", "app", 7); err != nil {
			t.Fatal(err)
		}
		h := newConfiguredHandler(t, issuefields.Config{Store: s})
		path := valuesPath("acme", "app", 7)
		w := do(t, h, "PUT", path, writerToken, writeBody(fieldItem(20, `"2025-03-01"`), fieldItem(10, `2`), fieldItem(30, `"c"`)))
		want := []int64{30, 10, 20}
		if got := fieldIDs(t, w); !cmp.Equal(want, got) {
			t.Errorf("PUT answer: field ids %v, want %v", got, want)
		}
		if got := fieldIDs(t, do(t, h, "GET", path, "", "")); !cmp.Equal(want, got) {
			t.Errorf("GET answer: field ids %v, want %v", got, want)
		}
	})
}

func TestContentTypeIsJSONWhateverAccept(t *testing.T) {
	h, _ := newFixtureHandler(t)
	accepts := []string{
		"",
		"application/json",
		"application/vnd.service+json",
		"application/vnd.github+json",
		"text/html",
		"application/xml;q=0.9, image/png",
		"*/*",
		"text/plain; charset=latin1",
		";;; =garbage, ,",
	}
	requests := []struct {
		method, path, body string
		status             int
	}{
		{"GET", valuesPath(org, publicRepo, 1), "", http.StatusOK},
		{"POST", valuesPath(org, publicRepo, 1), writeBody(fieldItem(notesID, `"x"`)), http.StatusOK},
		{"POST", valuesPath(org, publicRepo, 1), writeBody(fieldItem(99, `"x"`)), http.StatusUnprocessableEntity},
		{"GET", "/nowhere", "", http.StatusNotFound},
	}
	for _, accept := range accepts {
		for _, rq := range requests {
			r := doWithHeader(t, h, rq.method, rq.path, writerToken, rq.body, "Accept", accept)
			if r.status != rq.status {
				t.Errorf("%s %s with Accept %q: status %d, want %d", rq.method, rq.path, accept, r.status, rq.status)
			}
			if ct := r.header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("%s %s with Accept %q: Content-Type %q", rq.method, rq.path, accept, ct)
			}
			wantStart := "{"
			if rq.status == http.StatusOK {
				wantStart = "["
			}
			if !json.Valid([]byte(r.body)) || !strings.HasPrefix(r.body, wantStart) {
				t.Errorf("%s %s with Accept %q: body is not the JSON expected: %s", rq.method, rq.path, accept, r.body)
			}
		}
	}
}

// TestJSONBodiesEndWithANewline checks that every kind of JSON body ends its
// last line, so that a body printed by curl does not run into the prompt.
func TestJSONBodiesEndWithANewline(t *testing.T) {
	h, _ := newFixtureHandler(t)
	for _, tc := range []struct{ name, method, path, token, body string }{
		{"list", "GET", valuesPath(org, publicRepo, 1), "", ""},
		{"empty list", "GET", valuesPath(org, publicRepo, 2), "", ""},
		{"page of a list", "GET", valuesPath(org, publicRepo, 1) + "?per_page=2&page=2", "", ""},
		{"page past the end", "GET", valuesPath(org, publicRepo, 1) + "?page=9", "", ""},
		{"add", "POST", valuesPath(org, publicRepo, 2), writerToken, writeBody(fieldItem(notesID, `"x"`))},
		{"not found", "GET", valuesPath(org, "missing", 1), "", ""},
		{"bad credentials", "GET", valuesPath(org, publicRepo, 1), "unknown-token", ""},
		{"validation failed", "POST", valuesPath(org, publicRepo, 2), writerToken, writeBody(fieldItem(99, `"x"`))},
		{"moved", "GET", valuesPath(org, publicRepo, 4), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := do(t, h, tc.method, tc.path, tc.token, tc.body)
			if !strings.HasSuffix(r.body, "\n") || strings.HasSuffix(r.body, "\n\n") || !json.Valid([]byte(r.body)) {
				t.Errorf("%s %s: %d %q, want JSON ending with one newline", tc.method, tc.path, r.status, r.body)
			}
		})
	}
}
