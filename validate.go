package issuefields

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits on request bodies.
const (
	// DefaultMaxBodyBytes is the largest request body the handler reads when
	// Config.MaxBodyBytes is zero.
	DefaultMaxBodyBytes = 1 << 20
	// MaxItems is the largest number of items one request may write.
	MaxItems = 25
	// MaxTextLength is the largest number of characters (Unicode code
	// points) of a text value.
	MaxTextLength = 1024
)

const resourceName = "IssueFieldValue"

// readBody reads the request body, refusing one larger than limit with 413.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		if tooLarge := new(http.MaxBytesError); errors.As(err, &tooLarge) {
			return nil, &httpError{status: http.StatusRequestEntityTooLarge, message: fmt.Sprintf("The request body is larger than %d bytes.", limit)}
		}
		return nil, &httpError{status: http.StatusBadRequest, message: "Problems reading the request body", cause: err}
	}
	return body, nil
}

// decodeItems checks that body is a JSON object with an issue_field_values
// array of at most MaxItems entries, and returns the entries undecoded.
func decodeItems(body []byte) ([]json.RawMessage, error) {
	if !utf8.Valid(body) || !json.Valid(body) {
		return nil, &httpError{status: http.StatusBadRequest, message: "Problems parsing JSON"}
	}
	var top map[string]json.RawMessage
	if jsonKind(body) != '{' || json.Unmarshal(body, &top) != nil {
		return nil, &httpError{status: http.StatusBadRequest, message: "Body should be a JSON object"}
	}
	raw, ok := top["issue_field_values"]
	if !ok {
		return nil, validationFailed(FieldError{Resource: resourceName, Field: "issue_field_values", Code: "missing_field",
			Message: `The body needs "issue_field_values", an array of {"field_id", "value"} objects; an empty array clears every value.`})
	}
	var items []json.RawMessage
	if jsonKind(raw) != '[' || json.Unmarshal(raw, &items) != nil {
		return nil, validationFailed(FieldError{Resource: resourceName, Field: "issue_field_values", Code: "invalid",
			Message: `"issue_field_values" must be an array of {"field_id", "value"} objects.`})
	}
	if len(items) > MaxItems {
		return nil, validationFailed(FieldError{Resource: resourceName, Field: "issue_field_values", Code: "invalid",
			Message: fmt.Sprintf(`"issue_field_values" has %d items; one request may write at most %d.`, len(items), MaxItems)})
	}
	return items, nil
}

// validationFailed is the 422 for the given errors.
func validationFailed(errs ...FieldError) error {
	return &httpError{status: http.StatusUnprocessableEntity, message: "Validation Failed", errors: errs}
}

// parseItems turns the items of a request body into values for fields,
// reporting every invalid item. allowArrays is true for add (POST), which may
// write multi_select fields, and false for set (PUT).
func parseItems(items []json.RawMessage, fields []Field, allowArrays bool) ([]Value, error) {
	values := make([]Value, 0, len(items))
	var errs []FieldError
	seen := make(map[int64]bool, len(items))
	for i, raw := range items {
		fail := func(field, code, message string) {
			errs = append(errs, FieldError{Resource: resourceName, Field: field, Code: code, Message: message, Index: &i})
		}
		var item map[string]json.RawMessage
		if jsonKind(raw) != '{' || json.Unmarshal(raw, &item) != nil {
			fail("issue_field_values", "invalid", `Each item must be an object with "field_id" and "value".`)
			continue
		}
		// Sorted, so that the errors come in the same order every time.
		for _, key := range slices.Sorted(maps.Keys(item)) {
			if key != "field_id" && key != "value" {
				fail(key, "invalid", fmt.Sprintf(`Unknown key %q: an item has exactly "field_id" and "value".`, key))
			}
		}
		rawID, ok := item["field_id"]
		if !ok {
			fail("field_id", "missing_field", `The item needs "field_id", the ID of an issue field.`)
			continue
		}
		id, ok := positiveInt(rawID)
		if !ok {
			fail("field_id", "invalid", fmt.Sprintf(`"field_id" must be a positive integer, not %s.`, excerpt(rawID)))
			continue
		}
		if seen[id] {
			fail("field_id", "already_exists", fmt.Sprintf("Issue field %d appears more than once; send each field at most once.", id))
			continue
		}
		seen[id] = true
		f := fieldByID(fields, id)
		if f == nil {
			fail("field_id", "invalid", fmt.Sprintf("Issue field with id %d not found", id))
			continue
		}
		rawValue, ok := item["value"]
		if !ok {
			fail("value", "missing_field", fmt.Sprintf(`The item for field %q needs "value".`, f.Name))
			continue
		}
		v, msg := parseValue(f, rawValue, allowArrays)
		if msg != "" {
			fail("value", "invalid", msg)
			continue
		}
		values = append(values, v)
	}
	if errs != nil {
		return nil, validationFailed(errs...)
	}
	return values, nil
}

// parseValue checks raw, the value of one request item, against field f and
// returns it in the store's form, or a message that says what f accepts. It is
// the one place that decides which values each data type accepts.
func parseValue(f *Field, raw json.RawMessage, allowArrays bool) (Value, string) {
	v := Value{FieldID: f.ID}
	kind := jsonKind(raw)
	what := fmt.Sprintf("Field %q is a %s field", f.Name, f.DataType)
	switch {
	case kind == 'n':
		return v, what + ": value must not be null. To remove a field's value, use DELETE on .../issue-field-values/{issue_field_id}."
	case f.DataType == MultiSelect && !allowArrays:
		return v, what + ", which set (PUT) cannot write: use add (POST) with an array of option names."
	case kind == '[' && f.DataType != MultiSelect:
		return v, what + ": an array is accepted only for multi_select fields."
	}
	switch f.DataType {
	case Text:
		s, ok := jsonString(raw)
		if !ok {
			return v, what + ": value must be a string."
		}
		if hasLoneSurrogate(raw) {
			return v, what + `: value must be valid Unicode, without a \u escape of half a surrogate pair.`
		}
		if n := utf8.RuneCountInString(s); n < 1 || n > MaxTextLength {
			return v, fmt.Sprintf("%s: value must be 1 to %d characters long, not %d.", what, MaxTextLength, n)
		}
		v.Text = s
	case Number:
		if kind != '-' && (kind < '0' || kind > '9') {
			return v, what + ": value must be a JSON number, not " + excerpt(raw) + "."
		}
		n, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return v, what + ": value " + excerpt(raw) + " is out of the range of a 64-bit floating-point number."
		}
		v.Number = n + 0 // turns -0 into 0
	case Date:
		s, ok := jsonString(raw)
		if !ok {
			return v, what + `: value must be a date string "YYYY-MM-DD".`
		}
		if t, err := time.Parse(time.DateOnly, s); err != nil || t.Format(time.DateOnly) != s {
			return v, fmt.Sprintf(`%s: %q is not a calendar date written "YYYY-MM-DD".`, what, s)
		}
		v.Date = s
	case SingleSelect:
		name, ok := jsonString(raw)
		if !ok {
			return v, fmt.Sprintf("%s: value must be the name of one of its options (%s), not %s.", what, optionNames(f), excerpt(raw))
		}
		o := optionByName(f, name)
		if o == nil {
			return v, fmt.Sprintf("%s with no option named %q; valid names are %s.", what, name, optionNames(f))
		}
		v.OptionIDs = []int64{o.ID}
	case MultiSelect:
		var names []string
		if kind != '[' || json.Unmarshal(raw, &names) != nil || len(names) == 0 {
			return v, fmt.Sprintf("%s: value must be a non-empty array of option names from %s.", what, optionNames(f))
		}
		selected := make(map[int64]bool, len(names))
		for _, name := range names {
			o := optionByName(f, name)
			if o == nil {
				return v, fmt.Sprintf("%s with no option named %q; valid names are %s.", what, name, optionNames(f))
			}
			if selected[o.ID] {
				return v, fmt.Sprintf("%s: option %q is listed more than once.", what, name)
			}
			selected[o.ID] = true
		}
		for _, o := range f.Options {
			if selected[o.ID] {
				v.OptionIDs = append(v.OptionIDs, o.ID)
			}
		}
	default:
		return v, what + ", which this server cannot write."
	}
	return v, ""
}

// jsonKind returns the first byte of the JSON value raw, which tells its kind:
// '{', '[', '"', 't', 'f', 'n', or the first character of a number.
func jsonKind(raw []byte) byte {
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

// jsonString decodes raw if it is a JSON string.
func jsonString(raw json.RawMessage) (string, bool) {
	var s string
	if jsonKind(raw) != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// hasLoneSurrogate reports whether the JSON string raw has a \u escape of a
// UTF-16 surrogate that is not half of a pair, which encoding/json would
// silently turn into U+FFFD.
func hasLoneSurrogate(raw json.RawMessage) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		i++ // the escaped character
		if i >= len(raw) || raw[i] != 'u' {
			continue
		}
		switch r := escapedRune(raw, i+1); {
		case r >= 0xDC00 && r <= 0xDFFF:
			return true
		case r >= 0xD800 && r <= 0xDBFF:
			if i+6 >= len(raw) || raw[i+5] != '\\' || raw[i+6] != 'u' {
				return true
			}
			if low := escapedRune(raw, i+7); low < 0xDC00 || low > 0xDFFF {
				return true
			}
			i += 6 // the low half, checked here
		}
		i += 4
	}
	return false
}

// escapedRune returns the UTF-16 code unit written as four hex digits at
// raw[i:], or -1.
func escapedRune(raw []byte, i int) rune {
	if i+4 > len(raw) {
		return -1
	}
	n, err := strconv.ParseUint(string(raw[i:i+4]), 16, 16)
	if err != nil {
		return -1
	}
	return rune(n)
}

// positiveInt decodes raw if it is a JSON integer literal from 1 to 2^63-1,
// written without sign, fraction or exponent.
func positiveInt(raw json.RawMessage) (int64, bool) {
	return parsePositiveInt(strings.TrimSpace(string(raw)))
}

// parsePositiveInt parses s if it is written [1-9][0-9]* and fits in int64.
func parsePositiveInt(s string) (int64, bool) {
	if s == "" || s[0] < '1' || s[0] > '9' {
		return 0, false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// excerpt returns raw for a message, shortened when long.
func excerpt(raw json.RawMessage) string {
	const limit = 40
	s := strings.TrimSpace(string(raw))
	if utf8.RuneCountInString(s) > limit {
		s = string([]rune(s)[:limit]) + "…"
	}
	return s
}

// fieldByID returns the field with the given ID, or nil.
func fieldByID(fields []Field, id int64) *Field {
	for i := range fields {
		if fields[i].ID == id {
			return &fields[i]
		}
	}
	return nil
}

// optionByName returns f's option with exactly that name, or nil.
func optionByName(f *Field, name string) *Option {
	for i := range f.Options {
		if f.Options[i].Name == name {
			return &f.Options[i]
		}
	}
	return nil
}

// optionNames lists f's option names for a message: "High", "Low".
func optionNames(f *Field) string {
	quoted := make([]string, len(f.Options))
	for i, o := range f.Options {
		quoted[i] = strconv.Quote(o.Name)
	}
	return strings.Join(quoted, ", ")
}

// ParseValue converts raw, a value in the request format of the add operation
// (an option name for single_select, an array of option names for
// multi_select), to the store's form for field f, by the same rules the
// handler applies to requests. It is for tools that fill a store from data
// written in the request format; its error says what f accepts.
func (f Field) ParseValue(raw json.RawMessage) (Value, error) {
	if !json.Valid(raw) {
		return Value{}, fmt.Errorf("field %q: value is not JSON", f.Name)
	}
	v, msg := parseValue(&f, raw, true)
	if msg != "" {
		return Value{}, errors.New(msg)
	}
	return v, nil
}
