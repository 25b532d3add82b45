package issuefields

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/issuefields/issuefields/internal/jsonappend"
)

// dataTypeRules is everything that depends on a field's data type: which
// values a request may give, how a value is shown in a response, and the
// prefix of its node_id. There is one value of it per data type (rulesOf);
// validation (parseValue), the response encoder (appendItem) and the wire
// type (fieldValue) all read it, so a data type is changed, or added, here
// alone.
type dataTypeRules struct {
	// nodeIDPrefix begins the node_id of a value of the data type.
	nodeIDPrefix string
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
	// the members that follow it, as encoding/json writes them for what
	// setValue sets; appendValue allocates nothing.
	appendValue func(buf []byte, f *Field, v *Value) []byte
	// setValue sets the Value of item, and its option members.
	setValue func(item *FieldValue, f *Field, v *Value)
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
	case Text:
		return &textRules
	case SingleSelect:
		return &singleSelectRules
	case MultiSelect:
		return &multiSelectRules
	case Number:
		return &numberRules
	case Date:
		return &dateRules
	}
	return nil
}

// textRules: a string of 1 to MaxTextLength characters.
var textRules = dataTypeRules{
	nodeIDPrefix: "IFT_",
	parse: func(f *Field, raw []byte) (Value, string) {
		v := Value{FieldID: f.ID}
		if raw[0] != '"' {
			return v, fieldIs(f) + ": value must be a string."
		}
		if hasLoneSurrogate(raw) {
			return v, fieldIs(f) + `: value must be valid Unicode, without a \u escape of half a surrogate pair.`
		}
		s := stringValue(raw)
		if n := utf8.RuneCountInString(s); n < 1 || n > MaxTextLength {
			return v, fmt.Sprintf("%s: value must be 1 to %d characters long, not %d.", fieldIs(f), MaxTextLength, n)
		}
		v.Text = s
		return v, ""
	},
	appendValue: func(buf []byte, _ *Field, v *Value) []byte { return jsonappend.String(buf, v.Text) },
	setValue:    func(item *FieldValue, _ *Field, v *Value) { item.Value = v.Text },
}

// numberRules: a JSON number that fits a float64.
var numberRules = dataTypeRules{
	nodeIDPrefix: "IFN_",
	parse: func(f *Field, raw []byte) (Value, string) {
		v := Value{FieldID: f.ID}
		if kind := raw[0]; kind != '-' && (kind < '0' || kind > '9') {
			return v, fieldIs(f) + ": value must be a JSON number, not " + excerpt(raw) + "."
		}
		n, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return v, fieldIs(f) + ": value " + excerpt(raw) + " is out of the range of a 64-bit floating-point number."
		}
		v.Number = n + 0 // turns -0 into 0
		return v, ""
	},
	appendValue: func(buf []byte, _ *Field, v *Value) []byte { return jsonappend.Float(buf, v.Number) },
	setValue:    func(item *FieldValue, _ *Field, v *Value) { item.Value = v.Number },
}

// dateRules: a calendar date written "YYYY-MM-DD".
var dateRules = dataTypeRules{
	nodeIDPrefix: "IFD_",
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
	setValue:    func(item *FieldValue, _ *Field, v *Value) { item.Value = v.Date },
}

// singleSelectRules: the name of one option in a request; its ID as the
// value and the option itself in a response.
var singleSelectRules = dataTypeRules{
	nodeIDPrefix: "IFSS_",
	hasOptions:   true,
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
	setValue: func(item *FieldValue, f *Field, v *Value) {
		o := firstSelected(f, v)
		item.Value = o.ID
		item.SingleSelectOption = &FieldValueOption{ID: o.ID, Name: o.Name, Color: o.Color}
	},
}

// multiSelectRules: a non-empty array of distinct option names in a request
// (add only); the names joined by "," as the value and the options
// themselves, in the field's order, in a response.
var multiSelectRules = dataTypeRules{
	nodeIDPrefix: "IFMS_",
	hasOptions:   true,
	takesArray:   true,
	parse:        parseOptionNames,
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
	setValue: func(item *FieldValue, f *Field, v *Value) {
		var names []string
		for _, o := range f.Options {
			if selected(&o, v.OptionIDs) {
				item.MultiSelectOptions = append(item.MultiSelectOptions, FieldValueOption{ID: o.ID, Name: o.Name, Color: o.Color})
				names = append(names, o.Name)
			}
		}
		item.Value = strings.Join(names, ",")
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
func firstSelected(f *Field, v *Value) *Option {
	for i := range f.Options {
		if o := &f.Options[i]; selected(o, v.OptionIDs) {
			return o
		}
	}
	return nil
}

// selected reports whether o is among ids.
func selected(o *Option, ids []int64) bool {
	for _, id := range ids {
		if o.ID == id {
			return true
		}
	}
	return false
}
