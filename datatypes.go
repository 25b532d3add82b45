package issuefields

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/issuefields/issuefields/internal/jsonappend"
)

// dataTypeRules is everything that depends on a field's data type: which
// values a request may give, and how a value is shown in a response and to
// other code. There is one value of it per data type (rulesOf); validation
// (parseValue), the response encoder (appendItem) and Field.Content read
// it, so a data type is changed, or added, here, and its node_id's prefix
// in package internal/ids.
type dataTypeRules struct {
	// hasOptions is true for the select types: a field has options, a value
	// is a set of option IDs, and it is shown only while one of them is
	// still an option of the field.
	hasOptions bool
	// takesArray is true when a request gives the value as a JSON array;
	// only add (POST) may write such a value.
	takesArray bool
	// parse checks raw, valid JSON without surrounding whitespace that is
	// neither null nor an array unless takesArray, and returns the value in
	// the store's form, or a message that says what f accepts.
	parse func(f *Field, raw []byte) (Value, string)
	// appendValue appends the JSON of the response's "value" member and of
	// the members that follow it (the selected options of a select field);
	// appendValue allocates nothing.
	appendValue func(buf []byte, f *Field, v *Value) []byte
	// content returns the member of v that holds the value, as
	// Field.Content gives it; nil for the select types, whose value is the
	// options that it selects.
	content func(v *Value) any
}

// Content returns what v, a value of f, holds, for code that shows values
// in a form of its own, such as a webhook payload or a log line: by f's
// data type, the Text or Date (a string) or the Number (a float64) as
// value; for a select type, a nil value and the options of f that v
// selects, in f's order (none when f no longer has any of them, and then
// the handler does not show v). For a data type that the package does not
// know, it returns nil and none.
func (f Field) Content(v Value) (value any, options []FieldOption) {
	rules := rulesOf(f.DataType)
	switch {
	case rules == nil:
		return nil, nil
	case rules.hasOptions:
		for i := range f.Options {
			if o := &f.Options[i]; selected(o, v.OptionIDs) {
				options = append(options, *o)
			}
		}
		return nil, options
	}
	return rules.content(&v), nil
}

// hasOptions reports whether fields of data type t have options: whether t
// is a select type.
func hasOptions(t DataType) bool {
	rules := rulesOf(t)
	return rules != nil && rules.hasOptions
}

// rulesOf returns the rules of data type t, or nil for an unknown one.
func rulesOf(t DataType) *dataTypeRules {
	switch t {
	case DataTypeText:
		return &textRules
	case DataTypeSingleSelect:
		return &singleSelectRules
	case DataTypeMultiSelect:
		return &multiSelectRules
	case DataTypeNumber:
		return &numberRules
	case DataTypeDate:
		return &dateRules
	}
	return nil
}

// maxTextLength is the most characters (Unicode code points) of a text
// value.
const maxTextLength = 1024

// textRules: a string of 1 to maxTextLength characters.
var textRules = dataTypeRules{
	parse: func(f *Field, raw []byte) (Value, string) {
		v := Value{FieldID: f.ID}
		if raw[0] != '"' {
			return v, fieldIs(f) + ": value must be a string."
		}
		if hasLoneSurrogate(raw) {
			return v, fieldIs(f) + `: value must be valid Unicode, without a \u escape of half a surrogate pair.`
		}
		s := stringValue(raw)
		if n := utf8.RuneCountInString(s); n < 1 || n > maxTextLength {
			return v, fmt.Sprintf("%s: value must be 1 to %d characters long, not %d.", fieldIs(f), maxTextLength, n)
		}
		v.Text = s
		return v, ""
	},
	appendValue: func(buf []byte, _ *Field, v *Value) []byte { return jsonappend.String(buf, v.Text) },
	content:     func(v *Value) any { return v.Text },
}

// numberRules: a JSON number that fits a float64, whose integer part is
// within ±maxExactInteger.
var numberRules = dataTypeRules{
	parse: func(f *Field, raw []byte) (Value, string) {
		v := Value{FieldID: f.ID}
		if kind := raw[0]; kind != '-' && (kind < '0' || kind > '9') {
			return v, fieldIs(f) + ": value must be a JSON number, not " + excerpt(raw) + "."
		}
		n, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return v, fieldIs(f) + ": value " + excerpt(raw) + " is out of the range of a 64-bit floating-point number."
		}
		if n == 0 && !writesZero(raw) {
			return v, fieldIs(f) + ": value " + excerpt(raw) + " is too close to zero for a 64-bit floating-point number, which would hold it as 0."
		}
		if beyondExactIntegers(raw, n) {
			return v, fmt.Sprintf("%s: value %s has an integer part beyond ±%d (2^53), past which a 64-bit floating-point number cannot hold every integer exactly.",
				fieldIs(f), excerpt(raw), maxExactInteger)
		}
		v.Number = n + 0 // turns -0 into 0
		return v, ""
	},
	appendValue: func(buf []byte, _ *Field, v *Value) []byte { return jsonappend.Float(buf, v.Number) },
	content:     func(v *Value) any { return v.Number },
}

// maxExactInteger is 2^53: a float64 holds every integer up to it exactly,
// and not every one past it.
const maxExactInteger = 1 << 53

// beyondExactIntegers reports whether the JSON number raw, which ParseFloat
// read as n, has an integer part beyond ±maxExactInteger. Only a number read
// as ±2^53 needs its digits looked at: one read as less is less than 2^53
// too, and one read as more is more than 2^53+1 (the next float64 is
// 2^53+2, and 2^53+1 rounds to the even 2^53).
func beyondExactIntegers(raw []byte, n float64) bool {
	switch abs := math.Abs(n); {
	case abs < maxExactInteger:
		return false
	case abs > maxExactInteger:
		return true
	}
	return integerPart(raw) > maxExactInteger
}

// integerPart returns the integer part of the magnitude of the JSON number
// raw, or math.MaxUint64 for one of 2^62 or more. It reads raw's digits
// once, whatever their number, and never more digits than raw has plus 19.
func integerPart(raw []byte) uint64 {
	raw = bytes.TrimPrefix(raw, []byte{'-'})
	mantissa, exponent := raw, 0
	if i := bytes.IndexAny(raw, "eE"); i >= 0 {
		mantissa = raw[:i]
		for _, c := range bytes.TrimLeft(raw[i+1:], "+-") {
			exponent = min(exponent*10+int(c-'0'), 1<<30) // past it, every digit is a 0 or past the end
		}
		if raw[i+1] == '-' {
			exponent = -exponent
		}
	}
	whole, fraction, _ := bytes.Cut(mantissa, []byte{'.'})
	var part uint64
	for i := range len(whole) + exponent {
		digit := uint64(0)
		switch {
		case i < len(whole):
			digit = uint64(whole[i] - '0')
		case i-len(whole) < len(fraction):
			digit = uint64(fraction[i-len(whole)] - '0')
		case part == 0:
			return 0 // zeros to the end
		}
		if part = part*10 + digit; part >= 1<<62 {
			return math.MaxUint64
		}
	}
	return part
}

// writesZero reports whether the JSON number raw is zero as written: whether
// every digit before its exponent is 0.
func writesZero(raw []byte) bool {
	for _, c := range raw {
		switch {
		case c == 'e' || c == 'E':
			return true
		case '1' <= c && c <= '9':
			return false
		}
	}
	return true
}

// dateRules: a calendar date written "YYYY-MM-DD".
var dateRules = dataTypeRules{
	parse: func(f *Field, raw []byte) (Value, string) {
		v := Value{FieldID: f.ID}
		if raw[0] != '"' {
			return v, fieldIs(f) + `: value must be a date string "YYYY-MM-DD".`
		}
		s := stringValue(raw)
		if !isCalendarDate(s) {
			return v, fmt.Sprintf(`%s: %q is not a calendar date written "YYYY-MM-DD".`, fieldIs(f), s)
		}
		v.Date = s
		return v, ""
	},
	appendValue: func(buf []byte, _ *Field, v *Value) []byte { return jsonappend.String(buf, v.Date) },
	content:     func(v *Value) any { return v.Date },
}

// singleSelectRules: the name of one option in a request; its ID as the
// value and the option itself in a response.
var singleSelectRules = dataTypeRules{
	hasOptions: true,
	parse: func(f *Field, raw []byte) (Value, string) {
		v := Value{FieldID: f.ID}
		if raw[0] != '"' {
			return v, fmt.Sprintf("%s: value must be the name of one of its options (%s), not %s.", fieldIs(f), optionNames(f), excerpt(raw))
		}
		o := optionNamed(f, raw)
		if o == nil {
			return v, fmt.Sprintf("%s with no option named %q; valid names are %s.", fieldIs(f), stringValue(raw), optionNames(f))
		}
		v.OptionIDs = []int64{o.ID}
		return v, ""
	},
	appendValue: func(buf []byte, f *Field, v *Value) []byte {
		o := firstSelected(f, v)
		buf = strconv.AppendInt(buf, o.ID, 10)
		buf = append(buf, `,"single_select_option":`...)
		return appendOption(buf, o)
	},
}

// multiSelectRules: a non-empty array of distinct option names in a request
// (add only); the names joined by "," as the value and the options
// themselves, in the field's order, in a response.
var multiSelectRules = dataTypeRules{
	hasOptions: true,
	takesArray: true,
	parse:      parseOptionNames,
	appendValue: func(buf []byte, f *Field, v *Value) []byte {
		buf = append(buf, '"')
		first := true
		for i := range f.Options {
			if o := &f.Options[i]; selected(o, v.OptionIDs) {
				if !first {
					buf = append(buf, ',')
				}
				first = false
				buf = jsonappend.StringContent(buf, o.Name)
			}
		}
		buf = append(buf, `","multi_select_options":[`...)
		first = true
		for i := range f.Options {
			if o := &f.Options[i]; selected(o, v.OptionIDs) {
				if !first {
					buf = append(buf, ',')
				}
				first = false
				buf = appendOption(buf, o)
			}
		}
		return append(buf, ']')
	},
}

// shown reports whether value v of field f has something to show: a field
// of a known data type, and for a select type, an option that is still one
// of f's.
func shown(f *Field, v *Value) bool {
	rules := rulesOf(f.DataType)
	return rules != nil && (!rules.hasOptions || firstSelected(f, v) != nil)
}

// firstSelected returns the first of f's options that v selects, or nil.
func firstSelected(f *Field, v *Value) *FieldOption {
	for i := range f.Options {
		if o := &f.Options[i]; selected(o, v.OptionIDs) {
			return o
		}
	}
	return nil
}

// selected reports whether o is among ids.
func selected(o *FieldOption, ids []int64) bool {
	for _, id := range ids {
		if o.ID == id {
			return true
		}
	}
	return false
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
func optionNamed(f *Field, raw []byte) *FieldOption {
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

// optionByID returns f's option id, or nil.
func optionByID(f *Field, id int64) *FieldOption {
	for i := range f.Options {
		if f.Options[i].ID == id {
			return &f.Options[i]
		}
	}
	return nil
}
