package issuefields

import (
	"net/http"
	"strconv"
	"strings"
)

// etagOf returns the entity tag of an issue's values: it changes whenever the
// store's version of the values changes, and whenever a field definition that
// the response is rendered from (a name, an option) changes.
func etagOf(version Version, fields []Field) string {
	h := newFNV()
	h.addString(string(version))
	for i := range fields {
		f := &fields[i]
		h.addInt(f.ID)
		h.addString(f.Name)
		h.addString(string(f.DataType))
		for _, o := range f.Options {
			h.addInt(o.ID)
			h.addString(o.Name)
			h.addString(o.Color)
		}
	}
	tag := make([]byte, 0, 18)
	tag = append(tag, '"')
	tag = strconv.AppendUint(tag, uint64(h), 36)
	return string(append(tag, '"'))
}

// etagListMatches reports whether header, the value of If-Match or
// If-None-Match, is "*" or lists tag. Weak comparison ignores a W/ prefix, as
// If-None-Match requires; strong comparison (If-Match) never matches a weak tag.
func etagListMatches(header, tag string, weak bool) bool {
	for candidate := range strings.SplitSeq(header, ",") {
		candidate = strings.TrimSpace(candidate)
		if weak {
			candidate = strings.TrimPrefix(candidate, "W/")
		}
		if candidate == "*" || candidate == tag {
			return true
		}
	}
	return false
}

// headerList returns the values of r's header name as one comma-separated
// list, however many lines they came on, as HTTP reads repeated lines.
func headerList(r *http.Request, name string) string {
	values := r.Header[name]
	if len(values) == 1 {
		return values[0]
	}
	return strings.Join(values, ",")
}

// fnv is a 64-bit FNV-1a hash, written out so that hashing allocates nothing.
type fnv uint64

func newFNV() fnv { return 14695981039346656037 }

// addString adds s and a terminator, so that ("ab", "c") and ("a", "bc")
// hash differently.
func (h *fnv) addString(s string) {
	for i := 0; i < len(s); i++ {
		h.addByte(s[i])
	}
	h.addByte(0xff)
}

func (h *fnv) addInt(n int64) {
	for i := 0; i < 8; i++ {
		h.addByte(byte(n >> (8 * i)))
	}
}

func (h *fnv) addByte(b byte) {
	*h ^= fnv(b)
	*h *= 1099511628211
}
