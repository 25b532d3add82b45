package issuefields_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/issuefields/issuefields"
)

// wantError is an expected item of a 422's errors[]: field, code and index
// must match; message, if not empty, must be part of the item's message.
type wantError struct {
	field, code string
	index       int // -1 for an error about the body as a whole
	message     string
}

// The body size limit of TestRequestBodyValidation.
const tableBodyLimit = 16000

var (
	// Values at the edge of the text length limit, in characters that take
	// more than one byte of UTF-8 and, for the emoji, two UTF-16 units.
	text1024 = strings.Repeat("😀", 1023) + "é"
	text1025 = strings.Repeat("😀", 1024) + "é"
)

// bodyCases has one row per rule of the contract's section 3. Every row is
// sent to hello-world issue 1, which holds a value of every field.
var bodyCases = []struct {
	name    string
	method  string // POST when empty
	body    string
	status  int
	message string      // the body's message, when the status is not 200
	errors  []wantError // a 422's errors[], in order
	stored  *issuefields.Value
}{
	// Step 1: size, JSON, object.
	{name: "over MaxBodyBytes", body: writeBody(fieldItem(notesID, `"`+strings.Repeat("a", tableBodyLimit)+`"`)), status: 413},
	{name: "over MaxBodyBytes and not JSON", body: strings.Repeat("{", tableBodyLimit+1), status: 413},
	{name: "empty body", body: "", status: 400, message: "Problems parsing JSON"},
	{name: "only whitespace", body: " \n", status: 400, message: "Problems parsing JSON"},
	{name: "invalid UTF-8", body: writeBody(fieldItem(notesID, "\"caf\xe9\"")), status: 400, message: "Problems parsing JSON"},
	{name: "not JSON", body: `{"issue_field_values": [`, status: 400, message: "Problems parsing JSON"},
	{name: "trailing garbage", body: writeBody() + " x", status: 400, message: "Problems parsing JSON"},
	{name: "two JSON values", body: writeBody() + writeBody(), status: 400, message: "Problems parsing JSON"},
	{name: "top-level array", body: `[{"field_id":1,"value":"x"}]`, status: 400, message: "Body should be a JSON object"},
	{name: "top-level string", body: `"issue_field_values"`, status: 400, message: "Body should be a JSON object"},
	{name: "top-level null", body: `null`, status: 400, message: "Body should be a JSON object"},
	{name: "issue_field_values twice, the last empty (PUT would wipe the issue)", method: "PUT",
		body: `{"issue_field_values": [{"field_id": 1, "value": "kept"}], "issue_field_values": []}`, status: 400,
		message: `The key "issue_field_values" appears more than once in one object of the body; send each key once.`},
	{name: "issue_field_values twice, the first null", body: `{"issue_field_values": null, "issue_field_values": [{"field_id": 1, "value": "x"}]}`,
		status: 400, message: `The key "issue_field_values" appears more than once in one object of the body; send each key once.`},
	{name: "an ignored key twice", body: `{"labels": 1, "issue_field_values": [], "labels": 2}`, status: 400,
		message: `The key "labels" appears more than once in one object of the body; send each key once.`},
	{name: "value twice in an item", body: writeBody(`{"field_id": 1, "value": "a", "value": "b"}`), status: 400,
		message: `The key "value" appears more than once in one object of the body; send each key once.`},
	{name: "field_id twice in an item, once escaped", body: writeBody(`{"field_id": 1, "value": "a", "field_\u0069d": 2}`), status: 400,
		message: `The key "field_id" appears more than once in one object of the body; send each key once.`},
	{name: "a key twice and not JSON", body: `{"a": 1, "a": 2, "issue_field_values": [`, status: 400, message: "Problems parsing JSON"},
	{name: "a key twice before a 26th item", body: `{"a": 1, "a": 2, "issue_field_values": [` + strings.Repeat(`1,`, 26) + `1]}`, status: 400,
		message: `The key "a" appears more than once in one object of the body; send each key once.`},

	// Step 2: issue_field_values.
	{name: "issue_field_values missing", body: `{}`, status: 422, message: "Validation Failed",
		errors: []wantError{{"issue_field_values", "missing_field", -1, ""}}},
	{name: "issue_field_values misspelt", body: `{"issue_field_value": []}`, status: 422, message: "Validation Failed",
		errors: []wantError{{"issue_field_values", "missing_field", -1, ""}}},
	{name: "issue_field_values in another case", body: `{"Issue_Field_Values": []}`, status: 422, message: "Validation Failed",
		errors: []wantError{{"issue_field_values", "missing_field", -1, ""}}},
	{name: "issue_field_values null", body: `{"issue_field_values": null}`, status: 422, message: "Validation Failed",
		errors: []wantError{{"issue_field_values", "invalid", -1, ""}}},
	{name: "issue_field_values an object", body: `{"issue_field_values": {"field_id": 1, "value": "x"}}`, status: 422, message: "Validation Failed",
		errors: []wantError{{"issue_field_values", "invalid", -1, ""}}},
	{name: "issue_field_values a string", body: `{"issue_field_values": "[]"}`, status: 422, message: "Validation Failed",
		errors: []wantError{{"issue_field_values", "invalid", -1, ""}}},
	{name: "26 items", body: writeBody(slices.Repeat([]string{fieldItem(notesID, `"x"`)}, 26)...), status: 422, message: "Validation Failed",
		errors: []wantError{{"issue_field_values", "invalid", -1, "25"}}},
	{name: "26 items, refused before the rest of the body is read", body: `{"issue_field_values": [` + strings.Repeat(`1,`, 25) + `1, this is not JSON`,
		status: 422, message: "Validation Failed", errors: []wantError{{"issue_field_values", "invalid", -1, "25"}}},
	{name: "25 items and a trailing comma", body: `{"issue_field_values": [` + strings.Repeat(`1,`, 25) + `]}`, status: 400, message: "Problems parsing JSON"},
	{name: "other top-level keys are ignored", body: `{"labels": ["x"], "issue_field_values": [{"field_id": 1, "value": "kept"}], "z": null}`,
		status: 200, stored: &issuefields.Value{FieldID: notesID, Text: "kept"}},

	// Step 3: items.
	{name: "item a number", body: writeBody(`1`), status: 422, message: "Validation Failed",
		errors: []wantError{{"issue_field_values", "invalid", 0, ""}}},
	{name: "item null", body: writeBody(`null`), status: 422, message: "Validation Failed",
		errors: []wantError{{"issue_field_values", "invalid", 0, ""}}},
	{name: "item an array", body: writeBody(`[1, "x"]`), status: 422, message: "Validation Failed",
		errors: []wantError{{"issue_field_values", "invalid", 0, ""}}},
	{name: "unknown key", body: writeBody(`{"field_id": 1, "value": "x", "name": "Notes"}`), status: 422, message: "Validation Failed",
		errors: []wantError{{"name", "invalid", 0, `"name"`}}},
	{name: "unknown keys in a stable order", body: writeBody(`{"zeta": 1, "field_id": 1, "value": "x", "alpha": 2, "mid": 3}`), status: 422, message: "Validation Failed",
		errors: []wantError{{"alpha", "invalid", 0, ""}, {"mid", "invalid", 0, ""}, {"zeta", "invalid", 0, ""}}},
	{name: "field_id missing", body: writeBody(`{"value": "x"}`), status: 422, message: "Validation Failed",
		errors: []wantError{{"field_id", "missing_field", 0, ""}}},
	{name: "field_id 0", body: writeBody(fieldItem(0, `"x"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"field_id", "invalid", 0, ""}}},
	{name: "field_id -1", body: writeBody(`{"field_id": -1, "value": "x"}`), status: 422, message: "Validation Failed",
		errors: []wantError{{"field_id", "invalid", 0, ""}}},
	{name: "field_id 1.5", body: writeBody(`{"field_id": 1.5, "value": "x"}`), status: 422, message: "Validation Failed",
		errors: []wantError{{"field_id", "invalid", 0, ""}}},
	{name: "field_id 1.0", body: writeBody(`{"field_id": 1.0, "value": "x"}`), status: 422, message: "Validation Failed",
		errors: []wantError{{"field_id", "invalid", 0, ""}}},
	{name: "field_id a string", body: writeBody(`{"field_id": "1", "value": "x"}`), status: 422, message: "Validation Failed",
		errors: []wantError{{"field_id", "invalid", 0, ""}}},
	{name: "field_id with exponent", body: writeBody(`{"field_id": 1e0, "value": "x"}`), status: 422, message: "Validation Failed",
		errors: []wantError{{"field_id", "invalid", 0, ""}}},
	{name: "field_id 1e2", body: writeBody(`{"field_id": 1e2, "value": "x"}`), status: 422, message: "Validation Failed",
		errors: []wantError{{"field_id", "invalid", 0, ""}}},
	{name: "field_id null", body: writeBody(`{"field_id": null, "value": "x"}`), status: 422, message: "Validation Failed",
		errors: []wantError{{"field_id", "invalid", 0, ""}}},
	{name: "field_id 2^63", body: writeBody(`{"field_id": 9223372036854775808, "value": "x"}`), status: 422, message: "Validation Failed",
		errors: []wantError{{"field_id", "invalid", 0, ""}}},
	{name: "field_id twice", body: writeBody(fieldItem(notesID, `"a"`), fieldItem(estimateID, `1`), fieldItem(notesID, `"b"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"field_id", "already_exists", 2, ""}}},
	{name: "field_id unknown", body: writeBody(fieldItem(99, `"x"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"field_id", "invalid", 0, "Issue field with id 99 not found"}}},
	{name: "field_id 2^63-1 unknown", body: writeBody(`{"field_id": 9223372036854775807, "value": "x"}`), status: 422, message: "Validation Failed",
		errors: []wantError{{"field_id", "invalid", 0, "Issue field with id 9223372036854775807 not found"}}},

	// Step 4: values.
	{name: "value missing", body: writeBody(`{"field_id": 1}`), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "missing_field", 0, ""}}},
	{name: "value null", body: writeBody(fieldItem(notesID, `null`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "DELETE"}}},
	{name: "value null with PUT", method: "PUT", body: writeBody(fieldItem(estimateID, `null`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "DELETE"}}},

	{name: "text empty", body: writeBody(fieldItem(notesID, `""`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "1 to 1024"}}},
	{name: "text of 1 character", body: writeBody(fieldItem(notesID, `"😀"`)),
		status: 200, stored: &issuefields.Value{FieldID: notesID, Text: "😀"}},
	{name: "text of 1024 characters", body: writeBody(fieldItem(notesID, `"`+text1024+`"`)),
		status: 200, stored: &issuefields.Value{FieldID: notesID, Text: text1024}},
	{name: "text of 1025 characters", body: writeBody(fieldItem(notesID, `"`+text1025+`"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "1 to 1024"}}},
	{name: "text of 1024 escaped characters", body: writeBody(fieldItem(notesID, `"`+strings.Repeat(`\ud83d\ude00`, 1024)+`"`)),
		status: 200, stored: &issuefields.Value{FieldID: notesID, Text: strings.Repeat("😀", 1024)}},
	{name: "text with a lone high surrogate escape", body: writeBody(fieldItem(notesID, `"ab\ud800c"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "surrogate"}}},
	{name: "text with a lone low surrogate escape", body: writeBody(fieldItem(notesID, `"\udc00"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "surrogate"}}},
	{name: "text with an escaped backslash before u", body: writeBody(fieldItem(notesID, `"\\ud800"`)),
		status: 200, stored: &issuefields.Value{FieldID: notesID, Text: `\ud800`}},
	{name: "text with a U+FFFD of its own", body: writeBody(fieldItem(notesID, `"\ufffd"`)),
		status: 200, stored: &issuefields.Value{FieldID: notesID, Text: "\ufffd"}},
	{name: "text a number", body: writeBody(fieldItem(notesID, `5`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "string"}}},
	{name: "text a boolean", body: writeBody(fieldItem(notesID, `true`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, ""}}},
	{name: "text an object", body: writeBody(fieldItem(notesID, `{"text": "x"}`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, ""}}},
	{name: "text an array", body: writeBody(fieldItem(notesID, `["x"]`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "array"}}},

	{name: "single_select by name", body: writeBody(fieldItem(priorityID, `"Medium"`)),
		status: 200, stored: &issuefields.Value{FieldID: priorityID, OptionIDs: []int64{12}}},
	{name: "single_select unknown name", body: writeBody(fieldItem(priorityID, `"Urgent"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, `"High", "Medium", "Low"`}}},
	{name: "single_select name in another case", body: writeBody(fieldItem(priorityID, `"high"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, `"High", "Medium", "Low"`}}},
	{name: "single_select name with spaces", body: writeBody(fieldItem(priorityID, `" High"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, `"High", "Medium", "Low"`}}},
	{name: "single_select option id", body: writeBody(fieldItem(priorityID, `11`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, `name of one of its options ("High", "Medium", "Low")`}}},
	{name: "single_select array", body: writeBody(fieldItem(priorityID, `["High"]`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "array"}}},

	{name: "number integer", body: writeBody(fieldItem(estimateID, `8`)),
		status: 200, stored: &issuefields.Value{FieldID: estimateID, Number: 8}},
	{name: "number fraction with exponent", body: writeBody(fieldItem(estimateID, `-1.5e-3`)),
		status: 200, stored: &issuefields.Value{FieldID: estimateID, Number: -0.0015}},
	{name: "number as a string", body: writeBody(fieldItem(estimateID, `"5"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "JSON number"}}},
	{name: "number 1e400", body: writeBody(fieldItem(estimateID, `1e400`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "1e400"}}},
	{name: "number -1e400", body: writeBody(fieldItem(estimateID, `-1e400`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, ""}}},
	{name: "number 1e-400, which rounds to zero", body: writeBody(fieldItem(estimateID, `1e-400`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "1e-400"}}},
	{name: "number zero with an exponent", body: writeBody(fieldItem(estimateID, `-0.0e-400`)),
		status: 200, stored: &issuefields.Value{FieldID: estimateID, Number: 0}},
	{name: "number a boolean", body: writeBody(fieldItem(estimateID, `false`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, ""}}},
	{name: "number array", body: writeBody(fieldItem(estimateID, `[5]`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "array"}}},

	{name: "date", body: writeBody(fieldItem(dueID, `"2024-02-29"`)),
		status: 200, stored: &issuefields.Value{FieldID: dueID, Date: "2024-02-29"}},
	{name: "date 2025-02-29", body: writeBody(fieldItem(dueID, `"2025-02-29"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "2025-02-29"}}},
	{name: "date 2025-02-30", body: writeBody(fieldItem(dueID, `"2025-02-30"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "YYYY-MM-DD"}}},
	{name: "date 2025-13-01", body: writeBody(fieldItem(dueID, `"2025-13-01"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, ""}}},
	{name: "date without leading zeros", body: writeBody(fieldItem(dueID, `"2025-1-5"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "YYYY-MM-DD"}}},
	{name: "date with time", body: writeBody(fieldItem(dueID, `"2025-01-05T00:00:00Z"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, ""}}},
	{name: "date a number", body: writeBody(fieldItem(dueID, `20250105`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "YYYY-MM-DD"}}},
	{name: "date array", body: writeBody(fieldItem(dueID, `["2025-01-05"]`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "array"}}},

	{name: "multi_select", body: writeBody(fieldItem(labelsID, `["Docs", "Backend"]`)),
		status: 200, stored: &issuefields.Value{FieldID: labelsID, OptionIDs: []int64{52, 53}}},
	{name: "multi_select with PUT", method: "PUT", body: writeBody(fieldItem(labelsID, `["Docs"]`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "POST"}}},
	{name: "multi_select string with PUT", method: "PUT", body: writeBody(fieldItem(labelsID, `"Docs"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "POST"}}},
	{name: "multi_select empty array", body: writeBody(fieldItem(labelsID, `[]`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "non-empty"}}},
	{name: "multi_select duplicate name", body: writeBody(fieldItem(labelsID, `["Docs", "Frontend", "Docs"]`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, `"Docs"`}}},
	{name: "multi_select unknown name", body: writeBody(fieldItem(labelsID, `["Docs", "Design"]`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, `"Frontend", "Backend", "Docs"`}}},
	{name: "multi_select name in another case", body: writeBody(fieldItem(labelsID, `["docs"]`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, `"Frontend", "Backend", "Docs"`}}},
	{name: "multi_select a string", body: writeBody(fieldItem(labelsID, `"Docs"`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "array"}}},
	{name: "multi_select option ids", body: writeBody(fieldItem(labelsID, `[51]`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, ""}}},
	{name: "multi_select null option", body: writeBody(fieldItem(labelsID, `[null]`)), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, ""}}},

	// Step 5: every invalid item is reported; nothing is written.
	{name: "every invalid item is reported", body: writeBody(
		fieldItem(notesID, `"valid"`),
		fieldItem(0, `"x"`),
		fieldItem(99, `"x"`),
		fieldItem(estimateID, `"5"`),
		`{"field_id": 4}`,
		`7`,
		fieldItem(priorityID, `null`),
		fieldItem(notesID, `"again"`),
		fieldItem(labelsID, `["Docs"]`),
	), status: 422, message: "Validation Failed",
		errors: []wantError{
			{"field_id", "invalid", 1, ""},
			{"field_id", "invalid", 2, "Issue field with id 99 not found"},
			{"value", "invalid", 3, ""},
			{"value", "missing_field", 4, ""},
			{"issue_field_values", "invalid", 5, ""},
			{"value", "invalid", 6, ""},
			{"field_id", "already_exists", 7, ""},
		}},
	{name: "PUT reports every invalid item", method: "PUT", body: writeBody(
		fieldItem(labelsID, `["Docs"]`),
		fieldItem(notesID, `""`),
		fieldItem(estimateID, `3`),
	), status: 422, message: "Validation Failed",
		errors: []wantError{{"value", "invalid", 0, "POST"}, {"value", "invalid", 1, ""}}},
}

func TestRequestBodyValidation(t *testing.T) {
	for _, tc := range bodyCases {
		t.Run(tc.name, func(t *testing.T) {
			s := newFixtureStore(t)
			h := newConfiguredHandler(t, issuefields.Config{Store: s, MaxBodyBytes: tableBodyLimit})
			key := issueAt(org, publicRepo, 1)
			before, beforeVersion := readStored(t, s, key)
			method := tc.method
			if method == "" {
				method = "POST"
			}
			r := do(t, h, method, valuesPath(org, publicRepo, 1), writerToken, tc.body)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			after, afterVersion := readStored(t, s, key)
			if tc.status == http.StatusOK {
				i := slices.IndexFunc(after, func(v issuefields.Value) bool { return v.FieldID == tc.stored.FieldID })
				if i < 0 {
					t.Fatalf("the store holds no value of field %d: %+v", tc.stored.FieldID, after)
				}
				if diff := cmp.Diff(*tc.stored, after[i]); diff != "" {
					t.Errorf("stored value (-want +got):\n%s", diff)
				}
				return
			}
			if afterVersion != beforeVersion || !cmp.Equal(before, after) {
				t.Errorf("a refused request changed the store: before %+v (version %s), after %+v (version %s)", before, beforeVersion, after, afterVersion)
			}
			var e errorResponse
			r.json(t, &e)
			if e.Message == "" || tc.message != "" && e.Message != tc.message {
				t.Errorf("message %q, want %q", e.Message, tc.message)
			}
			if len(e.Errors) != len(tc.errors) {
				t.Fatalf("errors %+v, want %d of them: %+v", e.Errors, len(tc.errors), tc.errors)
			}
			for i, want := range tc.errors {
				got := e.Errors[i]
				index := -1
				if got.Index != nil {
					index = *got.Index
				}
				if got.Resource != "IssueFieldValue" || got.Field != want.field || got.Code != want.code || index != want.index ||
					!strings.Contains(got.Message, want.message) || got.Message == "" {
					t.Errorf("errors[%d] = {resource %q field %q code %q index %d message %q}, want {IssueFieldValue %q %q %d message containing %q}",
						i, got.Resource, got.Field, got.Code, index, got.Message, want.field, want.code, want.index, want.message)
				}
			}
		})
	}
}

func TestBodySizeLimit(t *testing.T) {
	valid := writeBody(fieldItem(notesID, `"fits"`))
	for _, tc := range []struct {
		name   string
		limit  int64 // Config.MaxBodyBytes
		size   int
		status int
	}{
		{"exactly the limit", 100, 100, http.StatusOK},
		{"one byte over the limit", 100, 101, http.StatusRequestEntityTooLarge},
		{"default limit", 0, defaultMaxBodyBytes, http.StatusOK},
		{"one byte over the default limit", 0, defaultMaxBodyBytes + 1, http.StatusRequestEntityTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newFixtureStore(t)
			h := newConfiguredHandler(t, issuefields.Config{Store: s, MaxBodyBytes: tc.limit})
			key := issueAt(org, publicRepo, 2)
			body := valid + strings.Repeat(" ", tc.size-len(valid))
			r := do(t, h, "PUT", valuesPath(org, publicRepo, 2), writerToken, body)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			values, _ := readStored(t, s, key)
			if written := len(values) == 1; written != (tc.status == http.StatusOK) {
				t.Errorf("after %d the store holds %+v", r.status, values)
			}
			if r.status == http.StatusRequestEntityTooLarge {
				var e errorResponse
				r.json(t, &e)
				if e.Status != "413" || e.Message == "" {
					t.Errorf("413 body %s", r.body)
				}
			}
		})
	}
}
