// Package jsonskip finds where the parts of JSON text end, in text already
// known to be valid JSON: the request bodies that the root package has
// scanned, and the GraphQL bodies that the example decodes in place. On
// text that is not valid JSON its answers mean nothing, but stay within
// the text.
package jsonskip

import "bytes"

// IsSpace reports whether c is JSON white space.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Space returns the index of the first byte of data at or after i that is
// not white space.
func Space(data []byte, i int) int {
	for i < len(data) && IsSpace(data[i]) {
		i++
	}
	return i
}

// Value returns the index just past the value that starts at data[i].
func Value(data []byte, i int) int {
	switch data[i] {
	case '"':
		return String(data, i)
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				i = String(data, i) - 1
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
	for i < len(data) && data[i] != ',' && data[i] != '}' && data[i] != ']' && !IsSpace(data[i]) {
		i++
	}
	return i
}

// String returns the index just past the string that starts at data[i]:
// past the next quote that no odd run of backslashes escapes.
func String(data []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return len(data)
		}
		j += k
		escapes := 0
		for p := j - 1; p > i && data[p] == '\\'; p-- {
			escapes++
		}
		if escapes%2 == 0 {
			return j + 1
		}
		j++
	}
}
