package issuefields

import (
	"encoding/binary"
	"hash/maphash"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
)

// etagSumOf returns the hash of the entity tag of the values of issue, which
// formatETag writes: it changes whenever the store's version of the values
// changes, and whenever a field definition that the response is rendered
// from (a name, an option) changes, which fieldsHash, the fieldsSum of those
// definitions, stands for. It names the issue too, since a store's versions
// need to tell apart only the states of one issue.
func etagSumOf(issue IssueKey, version Version, fieldsHash uint64) uint64 {
	h := newETagHash()
	h.addInt(issue.RepositoryID)
	h.addInt(issue.Number)
	h.addString(string(version))
	h.mix(fieldsHash)
	return uint64(h)
}

// fieldsSum returns the hash of what a list is rendered from in fields: the
// ids, names and data types of the fields and the ids, names and colors of
// their options.
func fieldsSum(fields []Field) uint64 {
	h := newETagHash()
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
	return uint64(h)
}

// fieldSums remembers the fieldsSum of the field slices it was last asked
// about, so that a store that hands out one slice while nothing changes (as
// memstore does) spares each request from hashing every definition again. A
// store never changes a slice it returned (see [Store]), so one slice always
// has one sum. It remembers a slice per slot, a bounded number in all.
type fieldSums struct {
	seed  maphash.Seed
	slots [64]atomic.Pointer[fieldSumSlot]
}

// fieldSumSlot is one remembered slice, by its first element and length, and
// its sum.
type fieldSumSlot struct {
	first *Field
	n     int
	sum   uint64
}

func newFieldSums() *fieldSums { return &fieldSums{seed: maphash.MakeSeed()} }

// of returns fieldsSum(fields), from memory when fields is a slice it has
// seen.
func (m *fieldSums) of(fields []Field) uint64 {
	if len(fields) == 0 {
		return fieldsSum(fields)
	}
	first := &fields[0]
	slot := &m.slots[maphash.Comparable(m.seed, first)%uint64(len(m.slots))]
	if kept := slot.Load(); kept != nil && kept.first == first && kept.n == len(fields) {
		return kept.sum
	}
	sum := fieldsSum(fields)
	slot.Store(&fieldSumSlot{first: first, n: len(fields), sum: sum})
	return sum
}

// formatETag returns the entity tag of the hash sum.
func formatETag(sum uint64) string {
	tag := make([]byte, 0, 18)
	tag = append(tag, '"')
	tag = strconv.AppendUint(tag, sum, 36)
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

// etagHash is a 64-bit hash that reads eight bytes at a step. It must give
// the same result in every process, so that servers that share a store give
// the same ETags; hash/maphash, seeded per process, would not.
type etagHash uint64

func newETagHash() etagHash { return 14695981039346656037 }

// addString adds s and its length, so that ("ab", "c") and ("a", "bc")
// hash differently.
func (h *etagHash) addString(s string) {
	n := len(s)
	for len(s) >= 8 {
		h.mix(binary.LittleEndian.Uint64([]byte(s[:8])))
		s = s[8:]
	}
	var tail uint64
	for i := 0; i < len(s); i++ {
		tail |= uint64(s[i]) << (8 * i)
	}
	h.mix(tail)
	h.mix(uint64(n))
}

func (h *etagHash) addInt(n int64) { h.mix(uint64(n)) }

// mix folds w into the hash: multiply, then fold the high bits down.
func (h *etagHash) mix(w uint64) {
	x := (uint64(*h) ^ w) * 0x9E3779B97F4A7C15
	*h = etagHash(x ^ x>>29)
}
