package issuefields_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/issuefields/issuefields"
)

// fuzzBodyLimit is Config.MaxBodyBytes in FuzzRequestBody.
const fuzzBodyLimit = 4096

// FuzzRequestBody sends arbitrary bodies as an add (POST) and as a set (PUT)
// to hello-world issue 1 of the fixture, and checks the handler against
// judgeBody, an independent reading of the contract's section 3: the status,
// which items a 422 reports, and what the store holds afterwards.
func FuzzRequestBody(f *testing.F) {
	for _, seed := range []string{
		writeBody(fieldItem(notesID, `"n"`), fieldItem(priorityID, `"Medium"`), fieldItem(estimateID, `3.25`), fieldItem(dueID, `"2030-01-31"`)),
		writeBody(fieldItem(labelsID, `["Backend","Docs"]`)),
		writeBody(),
		"  " + writeBody(fieldItem(estimateID, ` 7 `)) + "\n",
		`{"issue_field_values": [{"value": "x", "field_id": 1}], "other": {"nested": [1, 2]}}`,
		"\xef\xbb\xbf" + writeBody(),
		"",
		`{"issue_field_values": [` + strings.Repeat(fieldItem(notesID, `"x"`)+",", 30) + `1]}`,
		writeBody(fieldItem(notesID, `"`+strings.Repeat("x", fuzzBodyLimit)+`"`)),
	} {
		f.Add([]byte(seed))
	}
	// One store serves every input: each starts by putting the fixture's
	// values back on the issue, the only one the requests can change.
	s := newFixtureStore(f)
	h := newConfiguredHandler(f, issuefields.Config{Store: s, MaxBodyBytes: fuzzBodyLimit,
		WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: -1}})
	key := issueAt(org, publicRepo, 1)
	f.Fuzz(func(t *testing.T, body []byte) {
		if surrogateOrReplacementEscape.Match(body) || bytes.Contains(body, []byte("\uFFFD")) {
			// encoding/json, which judgeBody reads with, turns a lone
			// surrogate escape into U+FFFD, so it cannot tell one from a
			// U+FFFD that was sent; TestRequestBodyValidation's rows judge both.
			t.Skip("surrogate escapes and U+FFFD are judged by TestRequestBodyValidation")
		}
		for _, method := range []string{"POST", "PUT"} {
			if err := s.SetValues(org, publicRepo, 1, fixtureValues); err != nil {
				t.Fatal(err)
			}
			before, version := readStored(t, s, key)

			r := do(t, h, method, valuesPath(org, publicRepo, 1), writerToken, string(body))

			want := judgeBody(body, method == "POST")
			if r.status != want.status {
				t.Fatalf("%s of %q: status %d, want %d: %s", method, body, r.status, want.status, r.body)
			}
			after, afterVersion := readStored(t, s, key)
			if r.status == http.StatusOK {
				expected := want.values
				if method == "POST" && len(want.values) > 0 {
					expected = fixtureValuesWith(want.values)
				}
				if diff := cmp.Diff(expected, after, byFieldID, cmpopts.EquateEmpty()); diff != "" {
					t.Fatalf("%s of %q: stored values (-want +got):\n%s", method, body, diff)
				}
				if n := len(fieldIDs(t, r)); n != len(after) {
					t.Fatalf("%s of %q: the answer has %d items, the store %d values", method, body, n, len(after))
				}
				continue
			}
			if afterVersion != version {
				t.Fatalf("%s of %q answered %d and changed the store: %+v became %+v", method, body, r.status, before, after)
			}
			var e errorResponse
			r.json(t, &e)
			if e.Status != strconv.Itoa(r.status) || e.Message == "" {
				t.Fatalf("%s of %q: error body %s", method, body, r.body)
			}
			if r.status != http.StatusUnprocessableEntity {
				continue
			}
			var indexes []int
			for _, fe := range e.Errors {
				// Field may be "": an unknown key is named as it was sent.
				if fe.Resource != "IssueFieldValue" || fe.Code == "" || fe.Message == "" {
					t.Fatalf("%s of %q: incomplete error %+v", method, body, fe)
				}
				if fe.Index != nil && !slices.Contains(indexes, *fe.Index) {
					indexes = append(indexes, *fe.Index)
				}
			}
			if want.invalid == nil && (len(e.Errors) != 1 || e.Errors[0].Index != nil) {
				t.Fatalf("%s of %q: errors %+v, want one about the whole array", method, body, e.Errors)
			}
			if !cmp.Equal(want.invalid, indexes) {
				t.Fatalf("%s of %q: errors name items %v, want %v: %s", method, body, indexes, want.invalid, r.body)
			}
		}
	})
}

// verdict is what the contract calls for in answer to a body.
type verdict struct {
	status int
	// invalid lists the indexes of the invalid items of a 422 about items,
	// in order; it is nil for a 422 about the body as a whole.
	invalid []int
	// values are the values that a 200 writes, in the store's form.
	values []issuefields.Value
}

var (
	// surrogateOrReplacementEscape matches a \u escape of a UTF-16
	// surrogate or of U+FFFD.
	surrogateOrReplacementEscape = regexp.MustCompile(`(?i)\\u(fffd|d[89a-f][0-9a-f]{2})`)
	positiveInteger              = regexp.MustCompile(`^[1-9][0-9]*$`)
	dateLayout                   = regexp.MustCompile(`^([0-9]{4})-([0-9]{2})-([0-9]{2})$`)
)

// judgeBody reads body as the contract's section 3 says, for an add (post)
// or a set, written to an issue of the fixture's organization.
func judgeBody(body []byte, post bool) verdict {
	if len(body) > fuzzBodyLimit {
		return verdict{status: http.StatusRequestEntityTooLarge}
	}
	if status := streamVerdict(body); status != 0 {
		return verdict{status: status}
	}
	if !utf8.Valid(body) || !json.Valid(body) {
		return verdict{status: http.StatusBadRequest}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var top any
	if err := dec.Decode(&top); err != nil {
		return verdict{status: http.StatusBadRequest}
	}
	object, ok := top.(map[string]any)
	if !ok {
		return verdict{status: http.StatusBadRequest}
	}
	items, ok := object["issue_field_values"].([]any)
	if !ok || len(items) > 25 {
		return verdict{status: http.StatusUnprocessableEntity}
	}
	v := verdict{status: http.StatusOK, values: []issuefields.Value{}}
	seen := map[int64]bool{}
	for i, raw := range items {
		value, ok := judgeItem(raw, post, seen)
		if !ok {
			v.status = http.StatusUnprocessableEntity
			v.invalid = append(v.invalid, i)
			continue
		}
		v.values = append(v.values, value)
	}
	if v.status != http.StatusOK {
		v.values = nil
	}
	return v
}

// streamVerdict reads body as a stream of tokens, as the contract's steps 1
// and 2 decide while the body arrives: a body whose issue_field_values array
// reaches a 26th item is refused when that item begins, with 422, or with 400
// if a key appeared twice in one object before it; a body that repeats a key
// anywhere is a 400. It returns 0 when neither applies, or the body is not
// JSON before either.
func streamVerdict(body []byte) int {
	type frame struct {
		object, items bool
		keys          map[string]bool
		// expectKey is set when the object's next string token is a key.
		expectKey bool
		count     int
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	// A number out of float64's range is still a token: the handler does
	// not read numbers before it has seen the whole body's keys.
	dec.UseNumber()
	var stack []*frame
	duplicate, itemsSeen, lastKey := false, false, ""
	for started := false; !started || len(stack) > 0; started = true {
		top := (*frame)(nil)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.items && top.count == maxItems {
			offset := int(dec.InputOffset())
			rest := bytes.TrimLeft(body[offset:], " \t\r\n")
			if len(rest) > 0 && rest[0] == ',' {
				rest = bytes.TrimLeft(rest[1:], " \t\r\n")
				if len(rest) > 0 && strings.IndexByte(`{["-0123456789tfn`, rest[0]) >= 0 {
					if duplicate || !utf8.Valid(body[:offset]) {
						return http.StatusBadRequest
					}
					return http.StatusUnprocessableEntity
				}
			}
		}
		tok, err := dec.Token()
		if err != nil {
			return 0
		}
		if key, ok := tok.(string); ok && top != nil && top.object && top.expectKey {
			duplicate = duplicate || top.keys[key]
			top.keys[key], top.expectKey, lastKey = true, false, key
			continue
		}
		if top != nil && top.items && tok != json.Delim(']') {
			top.count++
		}
		if top != nil && top.object {
			top.expectKey = true
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, keys: map[string]bool{}, expectKey: true})
		case json.Delim('['):
			items := len(stack) == 1 && lastKey == "issue_field_values" && !itemsSeen
			itemsSeen = itemsSeen || items
			stack = append(stack, &frame{items: items})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 1 && stack[0].object && tok != json.Delim('{') {
			itemsSeen = itemsSeen || lastKey == "issue_field_values"
		}
	}
	if duplicate {
		return http.StatusBadRequest
	}
	return 0
}

// judgeItem reads one item; seen holds the field IDs of the items before.
func judgeItem(raw any, post bool, seen map[int64]bool) (issuefields.Value, bool) {
	item, ok := raw.(map[string]any)
	if !ok {
		return issuefields.Value{}, false
	}
	number, _ := item["field_id"].(json.Number)
	if !positiveInteger.MatchString(string(number)) {
		return issuefields.Value{}, false
	}
	id, err := strconv.ParseInt(string(number), 10, 64)
	if err != nil {
		return issuefields.Value{}, false
	}
	duplicate := seen[id]
	seen[id] = true
	value, present := item["value"]
	if duplicate || len(item) != 2 || !present {
		return issuefields.Value{}, false
	}
	i := slices.IndexFunc(fixtureFields, func(f issuefields.Field) bool { return f.ID == id })
	if i < 0 {
		return issuefields.Value{}, false
	}
	field := fixtureFields[i]
	out := issuefields.Value{FieldID: id}
	optionID := func(name any) (int64, bool) {
		for _, o := range field.Options {
			if o.Name == name {
				return o.ID, true
			}
		}
		return 0, false
	}
	switch field.DataType {
	case issuefields.DataTypeText:
		s, ok := value.(string)
		if n := utf8.RuneCountInString(s); !ok || n < 1 || n > 1024 {
			return out, false
		}
		out.Text = s
	case issuefields.DataTypeSingleSelect:
		id, ok := optionID(value)
		if _, isString := value.(string); !ok || !isString {
			return out, false
		}
		out.OptionIDs = []int64{id}
	case issuefields.DataTypeNumber:
		n, ok := value.(json.Number)
		if !ok || json.Unmarshal([]byte(n), &out.Number) != nil {
			return out, false
		}
		// A number that is not zero as written but that float64 holds as
		// 0 is refused, as one too large for it is.
		mantissa, _, _ := strings.Cut(strings.ToLower(string(n)), "e")
		if out.Number == 0 && strings.Trim(mantissa, "-0.") != "" {
			return out, false
		}
		// An integer part beyond ±2^53 is refused: read exactly, it is at
		// least 2^53+1. Only a number that float64 holds as ±2^53 or more
		// can be, so the exact reading is bounded by the number's own digits.
		if math.Abs(out.Number) >= 1<<53 {
			exact, _ := new(big.Rat).SetString(string(n))
			if exact.Abs(exact).Cmp(new(big.Rat).SetInt64(1<<53+1)) >= 0 {
				return out, false
			}
		}
	case issuefields.DataTypeDate:
		s, _ := value.(string)
		m := dateLayout.FindStringSubmatch(s)
		if m == nil {
			return out, false
		}
		year, _ := strconv.Atoi(m[1])
		month, _ := strconv.Atoi(m[2])
		day, _ := strconv.Atoi(m[3])
		days := []int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			days[1] = 29
		}
		if month < 1 || month > 12 || day < 1 || day > days[month-1] {
			return out, false
		}
		out.Date = s
	case issuefields.DataTypeMultiSelect:
		names, ok := value.([]any)
		if !post || !ok || len(names) == 0 {
			return out, false
		}
		selected := map[int64]bool{}
		for _, name := range names {
			id, ok := optionID(name)
			if _, isString := name.(string); !ok || !isString || selected[id] {
				return out, false
			}
			selected[id] = true
		}
		for _, o := range field.Options {
			if selected[o.ID] {
				out.OptionIDs = append(out.OptionIDs, o.ID)
			}
		}
	}
	return out, true
}
