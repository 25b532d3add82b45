package issuefields

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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

// parseItems turns the items of a request body into values for fields,
// reporting every invalid item. allowArrays is true for add (POST), which may
// write multi_select fields, and false for set (PUT).
func parseItems(items [][]byte, fields []Field, allowArrays bool) ([]Value, error) {
	values := make([]Value, 0, len(items))
	var errs []FieldError
	var seenIDs [MaxItems]int64
	seen := seenIDs[:0]
	for i, item := range items {
		fail := func(field, code, message string) {
			index := i
			errs = append(errs, FieldError{Resource: resourceName, Field: field, Code: code, Message: message, Index: &index})
		}
		if item[0] != '{' {
			fail("issue_field_values", "invalid", `Each item must be an object with "field_id" and "value".`)
			continue
		}
		var rawID, rawValue []byte
		var unknown []string
		eachMember(item, func(key, value []byte) {
			switch {
			case keyIs(key, "field_id"):
				rawID = value
			case keyIs(key, "value"):
				rawValue = value
			default:
				if name := stringValue(key); !slices.Contains(unknown, name) {
					unknown = append(unknown, name)
				}
			}
		})
		// Sorted, so that the errors come in the same order every time.
		slices.Sort(unknown)
		for _, key := range unknown {
			fail(key, "invalid", fmt.Sprintf(`Unknown key %q: an item has exactly "field_id" and "value".`, key))
		}
		if rawID == nil {
			fail("field_id", "missing_field", `The item needs "field_id", the ID of an issue field.`)
			continue
		}
		id, ok := parsePositiveInt(string(rawID))
		if !ok {
			fail("field_id", "invalid", fmt.Sprintf(`"field_id" must be a positive integer, not %s.`, excerpt(rawID)))
			continue
		}
		if slices.Contains(seen, id) {
			fail("field_id", "already_exists", fmt.Sprintf("Issue field %d appears more than once; send each field at most once.", id))
			continue
		}
		seen = append(seen, id)
		f := fieldByID(fields, id)
		if f == nil {
			fail("field_id", "invalid", fmt.Sprintf("Issue field with id %d not found", id))
			continue
		}
		if rawValue == nil {
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
// returns it in the store's form, or a message that says what f accepts. It
// checks what every data type shares and leaves the rest to the data type's
// rules. raw is valid JSON without surrounding whitespace.
func parseValue(f *Field, raw []byte, allowArrays bool) (Value, string) {
	v := Value{FieldID: f.ID}
	rules := rulesOf(f.DataType)
	switch {
	case raw[0] == 'n':
		return v, fieldIs(f) + ": value must not be null. To remove a field's value, use DELETE on .../issue-field-values/{issue_field_id}."
	case rules != nil && rules.takesArray && !allowArrays:
		return v, fieldIs(f) + ", which set (PUT) cannot write: use add (POST) with an array of option names."
	case raw[0] == '[' && (rules == nil || !rules.takesArray):
		return v, fieldIs(f) + ": an array is accepted only for multi_select fields."
	case rules == nil:
		return v, fieldIs(f) + ", which this server cannot write."
	}
	return rules.parse(f, raw)
}

// parseOptionNames parses the value of a multi_select field: raw must be a
// non-empty array of distinct option names of f. The stored option IDs are in
// f's option order.
func parseOptionNames(f *Field, raw []byte) (Value, string) {
	v := Value{FieldID: f.ID}
	notNames := func() (Value, string) {
		return v, fmt.Sprintf("%s: value must be a non-empty array of option names from %s.", fieldIs(f), optionNames(f))
	}
	if raw[0] != '[' {
		return notNames()
	}
	var stack [16]int64
	picked := stack[:0]
	var msg string
	eachElement(raw, func(elem []byte) {
		if msg != "" {
			return
		}
		if elem[0] != '"' {
			_, msg = notNames()
			return
		}
		switch o := optionNamed(f, elem); {
		case o == nil:
			msg = fmt.Sprintf("%s with no option named %q; valid names are %s.", fieldIs(f), stringValue(elem), optionNames(f))
		case slices.Contains(picked, o.ID):
			msg = fmt.Sprintf("%s: option %q is listed more than once.", fieldIs(f), o.Name)
		default:
			picked = append(picked, o.ID)
		}
	})
	if msg != "" {
		return v, msg
	}
	if len(picked) == 0 {
		return notNames()
	}
	v.OptionIDs = make([]int64, 0, len(picked))
	for _, o := range f.Options {
		if slices.Contains(picked, o.ID) {
			v.OptionIDs = append(v.OptionIDs, o.ID)
		}
	}
	return v, ""
}

// fieldIs begins the messages about f's value: Field "Priority" is a
// single_select field.
func fieldIs(f *Field) string {
	return fmt.Sprintf("Field %q is a %s field", f.Name, f.DataType)
}

// isCalendarDate reports whether s is a real calendar date written
// YYYY-MM-DD.
func isCalendarDate(s string) bool {
	if len(s) != len("2006-01-02") || s[4] != '-' || s[7] != '-' {
		return false
	}
	year, okY := digits(s[0:4])
	month, okM := digits(s[5:7])
	day, okD := digits(s[8:10])
	if !okY || !okM || !okD || month < 1 || month > 12 || day < 1 {
		return false
	}
	t := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	return t.Day() == day && int(t.Month()) == month
}

// digits parses s, which must be decimal digits only.
func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
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

// optionNamed returns f's option whose name is exactly the JSON string raw,
// or nil. A name without escapes is compared as it is, without a copy.
func optionNamed(f *Field, raw []byte) *Option {
	inner := raw[1 : len(raw)-1]
	escaped := bytes.IndexByte(inner, '\\') >= 0
	var decoded string
	if escaped {
		decoded = stringValue(raw)
	}
	for i := range f.Options {
		if escaped && f.Options[i].Name == decoded || !escaped && f.Options[i].Name == string(inner) {
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
	v, msg := parseValue(&f, trimSpace(raw), true)
	if msg != "" {
		return Value{}, errors.New(msg)
	}
	return v, nil
}
