package issuefields

import (
	"strconv"

	"github.com/issuefields/issuefields/internal/ids"
	"github.com/issuefields/issuefields/internal/jsonappend"
)

// The API's responses are encoded by hand rather than with encoding/json:
// a list is the hot path of the API, and this encoding allocates nothing. It
// writes exactly what encoding/json writes for the response items of the
// API's schema (with HTML escaping off); encode_internal_test.go checks that
// for every data type.

// renderable is one value that a response shows, with its field.
type renderable struct {
	field *Field
	value *Value
}

// renderables returns the values that a response shows, in the order of
// fields, appended to dst. A value whose field no longer exists, or whose
// options were all removed from the field, is left out.
func renderables(dst []renderable, fields []Field, values []Value) []renderable {
	for i := range fields {
		f := &fields[i]
		v, ok := valueOf(values, f.ID)
		if ok && shown(f, v) {
			dst = append(dst, renderable{f, v})
		}
	}
	return dst
}

// appendItem appends the JSON object of value v of field f on the issue
// whose ID is issueID: one item of a list.
func appendItem(buf []byte, issueID int64, f *Field, v *Value) []byte {
	buf = append(buf, `{"issue_field_id":`...)
	buf = strconv.AppendInt(buf, f.ID, 10)
	buf = append(buf, `,"issue_field_name":`...)
	buf = jsonappend.String(buf, f.Name)
	buf = append(buf, `,"node_id":"`...)
	buf = ids.AppendValue(buf, string(f.DataType), issueID, f.ID)
	buf = append(buf, `","data_type":`...)
	buf = jsonappend.String(buf, string(f.DataType))
	buf = append(buf, `,"value":`...)
	buf = rulesOf(f.DataType).appendValue(buf, f, v)
	return append(buf, '}')
}

// appendOption appends the JSON object of option o.
func appendOption(buf []byte, o *FieldOption) []byte {
	buf = append(buf, `{"id":`...)
	buf = strconv.AppendInt(buf, o.ID, 10)
	buf = append(buf, `,"name":`...)
	buf = jsonappend.String(buf, o.Name)
	buf = append(buf, `,"color":`...)
	buf = jsonappend.String(buf, o.Color)
	return append(buf, '}')
}
