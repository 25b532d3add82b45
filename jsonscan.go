package issuefields

import (
	"encoding/json"
	"unicode/utf8"
)

// Request bodies are checked once with validJSON and then walked with these
// functions, which assume valid JSON: without reflection, and without
// encoding/json's byte-at-a-time state machine. Each takes a JSON value with
// no surrounding whitespace.

// maxJSONDepth is how deeply arrays and objects may nest, encoding/json's
// limit.
const maxJSONDepth = 10000

// validJSON reports whether data is one JSON value, with whitespace around it
// allowed, in valid UTF-8: exactly what utf8.Valid and json.Valid accept
// together.
func validJSON(data []byte) bool {
	i, ok := validValue(data, skipSpace(data, 0), 0)
	return ok && skipSpace(data, i) == len(data)
}

// validValue checks the value that starts at data[i], nested depth deep, and
// returns the index just past it.
func validValue(data []byte, i, depth int) (int, bool) {
	if i >= len(data) {
		return i, false
	}
	switch c := data[i]; {
	case c == '"':
		return validString(data, i)
	case c == '{' || c == '[':
		return validContainer(data, i, depth+1)
	case c == '-' || '0' <= c && c <= '9':
		return validNumber(data, i)
	}
	for _, literal := range []string{"true", "false", "null"} {
		if len(data)-i >= len(literal) && string(data[i:i+len(literal)]) == literal {
			return i + len(literal), true
		}
	}
	return i, false
}

// validContainer checks the object or array that starts at data[i].
func validContainer(data []byte, i, depth int) (int, bool) {
	if depth > maxJSONDepth {
		return i, false
	}
	object := data[i] == '{'
	closing := byte(']')
	if object {
		closing = '}'
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == closing {
		return i + 1, true
	}
	for {
		var ok bool
		if object {
			if i >= len(data) || data[i] != '"' {
				return i, false
			}
			if i, ok = validString(data, i); !ok {
				return i, false
			}
			if i = skipSpace(data, i); i >= len(data) || data[i] != ':' {
				return i, false
			}
			i = skipSpace(data, i+1)
		}
		if i, ok = validValue(data, i, depth); !ok {
			return i, false
		}
		switch i = skipSpace(data, i); {
		case i < len(data) && data[i] == ',':
			i = skipSpace(data, i+1)
		case i < len(data) && data[i] == closing:
			return i + 1, true
		default:
			return i, false
		}
	}
}

// validString checks the string that starts at data[i]: no control
// characters, only JSON's escapes, valid UTF-8.
func validString(data []byte, i int) (int, bool) {
	for i++; i < len(data); {
		switch c := data[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '\\':
			if i+1 >= len(data) {
				return i, false
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if len(data)-i < 6 || !isHex(data[i+2]) || !isHex(data[i+3]) || !isHex(data[i+4]) || !isHex(data[i+5]) {
					return i, false
				}
				i += 6
			default:
				return i, false
			}
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return i, false
			}
			i += size
		}
	}
	return i, false
}

// validNumber checks the number that starts at data[i]:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(data []byte, i int) (int, bool) {
	if data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && '1' <= data[i] && data[i] <= '9':
		i = skipDigits(data, i)
	default:
		return i, false
	}
	if i < len(data) && data[i] == '.' {
		if i+1 >= len(data) || !isDigit(data[i+1]) {
			return i, false
		}
		i = skipDigits(data, i+1)
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || !isDigit(data[i]) {
			return i, false
		}
		i = skipDigits(data, i)
	}
	return i, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// skipDigits returns the index of the first byte at or after i that is not a
// digit.
func skipDigits(data []byte, i int) int {
	for i < len(data) && isDigit(data[i]) {
		i++
	}
	return i
}

// isSpace reports whether c is JSON whitespace.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipSpace returns the index of the first byte at or after i that is not
// whitespace.
func skipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// skipValue returns the index just past the value that starts at data[i].
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				i = skipString(data, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for i < len(data) && data[i] != ',' && data[i] != '}' && data[i] != ']' && !isSpace(data[i]) {
		i++
	}
	return i
}

// skipString returns the index just past the string that starts at data[i].
func skipString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// eachElement calls fn with each element of the array arr.
func eachElement(arr []byte, fn func(elem []byte)) {
	for i := skipSpace(arr, 1); i < len(arr) && arr[i] != ']'; {
		end := skipValue(arr, i)
		fn(arr[i:end])
		i = skipSpace(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i = skipSpace(arr, i+1)
		}
	}
}

// eachMember calls fn with the key (a JSON string, quotes included) and the
// value of each member of the object obj, in order.
func eachMember(obj []byte, fn func(key, value []byte)) {
	for i := skipSpace(obj, 1); i < len(obj) && obj[i] != '}'; {
		keyEnd := skipString(obj, i)
		key := obj[i:keyEnd]
		start := skipSpace(obj, skipSpace(obj, keyEnd)+1) // past the colon
		end := skipValue(obj, start)
		fn(key, obj[start:end])
		i = skipSpace(obj, end)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
}

// stringValue decodes the JSON string raw. A string without escapes is
// taken as it is; the body it comes from is valid UTF-8.
func stringValue(raw []byte) string {
	inner := raw[1 : len(raw)-1]
	for _, c := range inner {
		if c == '\\' {
			var s string
			_ = json.Unmarshal(raw, &s)
			return s
		}
	}
	return string(inner)
}

// keyIs reports whether the JSON string key decodes to name.
func keyIs(key []byte, name string) bool {
	if len(key) == len(name)+2 && string(key[1:len(key)-1]) == name {
		return true
	}
	return len(key) > len(name)+2 && stringValue(key) == name
}
