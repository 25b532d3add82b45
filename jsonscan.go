package issuefields

import (
	"encoding/json"
)

// Request bodies are checked once by the bodyScanner and their items then
// walked with these functions, which assume valid JSON: without reflection,
// and without encoding/json's byte-at-a-time state machine. Each takes a JSON
// value with no surrounding whitespace.

// maxJSONDepth is how deeply arrays and objects may nest, encoding/json's
// limit.
const maxJSONDepth = 10000

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

// trimSpace returns data without JSON whitespace around it.
func trimSpace(data []byte) []byte {
	data = data[skipSpace(data, 0):]
	end := len(data)
	for end > 0 && isSpace(data[end-1]) {
		end--
	}
	return data[:end]
}

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
