package issuefields

import (
	"encoding/base64"
	"encoding/binary"
	"math"
	"strconv"
	"unicode/utf8"
)

// The API's responses are encoded by hand rather than with encoding/json:
// a list is the hot path of the API, and this encoding allocates nothing. It
// writes exactly what encoding/json writes for FieldValue (with HTML escaping
// off); encode_test.go checks that for every data type.

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

// appendItem appends the JSON object of value v of field f on issue, as
// FieldValue encodes it.
func appendItem(buf []byte, issue IssueKey, f *Field, v *Value) []byte {
	buf = append(buf, `{"issue_field_id":`...)
	buf = strconv.AppendInt(buf, f.ID, 10)
	buf = append(buf, `,"issue_field_name":`...)
	buf = appendString(buf, f.Name)
	buf = append(buf, `,"node_id":"`...)
	buf = appendNodeID(buf, issue, f)
	buf = append(buf, `","data_type":`...)
	buf = appendString(buf, string(f.DataType))
	buf = append(buf, `,"value":`...)
	buf = rulesOf(f.DataType).appendValue(buf, f, v)
	return append(buf, '}')
}

// appendOption appends the JSON object of option o.
func appendOption(buf []byte, o *Option) []byte {
	buf = append(buf, `{"id":`...)
	buf = strconv.AppendInt(buf, o.ID, 10)
	buf = append(buf, `,"name":`...)
	buf = appendString(buf, o.Name)
	buf = append(buf, `,"color":`...)
	buf = appendString(buf, o.Color)
	return append(buf, '}')
}

// appendNodeID appends the node_id of field's value on issue: a prefix by
// data type and the base64url encoding of the repository's stable ID, the
// issue number and the field ID, so that it survives renames and transfers
// of the repository and is the same in every response.
func appendNodeID(buf []byte, issue IssueKey, field *Field) []byte {
	var raw [3 * binary.MaxVarintLen64]byte
	b := binary.AppendUvarint(raw[:0], uint64(issue.RepositoryID))
	b = binary.AppendUvarint(b, uint64(issue.Number))
	b = binary.AppendUvarint(b, uint64(field.ID))
	buf = append(buf, rulesOf(field.DataType).nodeIDPrefix...)
	return base64.RawURLEncoding.AppendEncode(buf, b)
}

// appendString appends s as a JSON string.
func appendString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	buf = appendStringContent(buf, s)
	return append(buf, '"')
}

const hexDigits = "0123456789abcdef"

// appendStringContent appends s escaped for the inside of a JSON string, as
// encoding/json does with HTML escaping off: quote, backslash and control
// characters escaped, U+2028 and U+2029 escaped, invalid UTF-8 replaced by
// U+FFFD.
func appendStringContent(buf []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\b':
				buf = append(buf, '\\', 'b')
			case '\f':
				buf = append(buf, '\\', 'f')
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(buf, s[start:]...)
}

// appendFloat appends f as encoding/json writes a float64: the shortest
// representation, without exponent between 1e-6 and 1e21.
func appendFloat(buf []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	start := len(buf)
	buf = strconv.AppendFloat(buf, f, format, -1, 64)
	if format == 'e' {
		// Clean up e-09 to e-9, as encoding/json does.
		n := len(buf) - start
		if n >= 4 && buf[len(buf)-4] == 'e' && buf[len(buf)-3] == '-' && buf[len(buf)-2] == '0' {
			buf[len(buf)-2] = buf[len(buf)-1]
			buf = buf[:len(buf)-1]
		}
	}
	return buf
}
