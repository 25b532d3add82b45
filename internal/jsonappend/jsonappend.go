// Package jsonappend appends strings and numbers to a buffer exactly as
// encoding/json encodes them with HTML escaping off. The handler's responses
// and pgstore's values column are encoded by hand with it: it allocates
// nothing and costs a fraction of encoding/json's reflection.
package jsonappend

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// String appends s as a JSON string.
func String(buf []byte, s string) []byte {
	buf = append(buf, '"')
	buf = StringContent(buf, s)
	return append(buf, '"')
}

const hexDigits = "0123456789abcdef"

// StringContent appends s escaped for the inside of a JSON string, as
// encoding/json does with HTML escaping off: quote, backslash and control
// characters escaped, U+2028 and U+2029 escaped, invalid UTF-8 replaced by
// U+FFFD.
func StringContent(buf []byte, s string) []byte {
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

// Float appends f as encoding/json writes a float64: the shortest
// representation, without exponent between 1e-6 and 1e21.
func Float(buf []byte, f float64) []byte {
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
