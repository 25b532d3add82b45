package issuefields

import (
	"sync"
	"unsafe"
)

// DefaultListCacheBytes is the memory that a Handler's rendered lists may take
// when Config.ListCacheBytes is zero.
const DefaultListCacheBytes = 8 << 20

// renderedList is the whole list of an issue's values, rendered from one
// version of the values and one snapshot of its organization's fields, with
// the ETag of that pair. It never changes once made, so requests share it.
type renderedList struct {
	version Version
	// fields is the snapshot the list was rendered from. Holding it keeps
	// its array from being reused while the list lives, so a slice with the
	// same first element and length is the same snapshot.
	fields []Field
	// fieldsBytes is about the memory of fields, which the list keeps
	// alive.
	fieldsBytes int
	etag        string
	// body is the JSON array of every item and a newline, as every JSON
	// body the handler writes ends; ends[i] is the offset just past item i
	// in body.
	body []byte
	ends []int
}

// renderList renders the values of issue at version with fields; etag is
// their entity tag, etagOf(issue, version, fields).
func renderList(issue IssueKey, version Version, fields []Field, values []Value, etag string) *renderedList {
	var stack [32]renderable
	items := renderables(stack[:0], fields, values)
	l := &renderedList{version: version, fields: fields, fieldsBytes: sizeOfFields(fields), etag: etag, ends: make([]int, len(items))}
	body := make([]byte, 0, 3+192*len(items))
	body = append(body, '[')
	for i, it := range items {
		if i > 0 {
			body = append(body, ',')
		}
		body = appendItem(body, issue, it.field, it.value)
		l.ends[i] = len(body)
	}
	l.body = append(body, "]\n"...)
	return l
}

// count returns the number of items in l.
func (l *renderedList) count() int { return len(l.ends) }

// items returns the JSON array of the items lo to hi-1 of l, and a newline:
// l's own body when that is every item, otherwise a new array.
func (l *renderedList) items(lo, hi int) []byte {
	if lo == 0 && hi == l.count() {
		return l.body
	}
	if lo == hi {
		return []byte("[]\n")
	}
	start := 1 // past the '['
	if lo > 0 {
		start = l.ends[lo-1] + 1 // past the ','
	}
	page := make([]byte, 0, l.ends[hi-1]-start+3)
	page = append(page, '[')
	page = append(page, l.body[start:l.ends[hi-1]]...)
	return append(page, "]\n"...)
}

// renders reports whether l was rendered from the values at version and from
// fields. By the Store contract a version names one state of the values, and
// a slice that Fields returned never changes, so the same slice is the same
// definitions.
func (l *renderedList) renders(version Version, fields []Field) bool {
	return l.version == version && snapshotOf(l.fields) == snapshotOf(fields)
}

// A snapshot identifies a fields slice: by its first element and its length.
// Slices of one array with different lengths are different snapshots; all
// empty slices are the same one.
type snapshot struct {
	first *Field
	n     int
}

// snapshotOf returns the snapshot of fields.
func snapshotOf(fields []Field) snapshot {
	if len(fields) == 0 {
		return snapshot{}
	}
	return snapshot{&fields[0], len(fields)}
}

// size is about the memory l takes, without its fields.
func (l *renderedList) size() int { return 128 + len(l.body) + 8*len(l.ends) }

// sizeOfFields is about the memory of fields, their options and strings.
func sizeOfFields(fields []Field) int {
	n := len(fields) * int(unsafe.Sizeof(Field{}))
	for i := range fields {
		n += len(fields[i].Name) + len(fields[i].Options)*int(unsafe.Sizeof(Option{}))
		for _, o := range fields[i].Options {
			n += len(o.Name) + len(o.Color)
		}
	}
	return n
}

// listCache keeps the list last rendered for each issue, within a budget of
// bytes that counts the lists and the fields snapshots they keep alive, each
// snapshot once however many lists share it. When a new list does not fit,
// lists of other issues picked at random make room.
//
// A store that hands out one fields slice for as long as the fields stay the
// same (memstore) gets its lists from the cache. A store that returns new
// slices from every Fields call (pgstore) never does: each of its lists is
// rendered, and kept with its own copy of the fields, to no use, within the
// budget.
type listCache struct {
	budget int // 0 keeps nothing
	mu     sync.RWMutex
	lists  map[IssueKey]*renderedList
	// pins counts the kept lists rendered from each non-empty fields
	// snapshot; each snapshot is counted in full.
	pins map[snapshot]int
	used int
}

func newListCache(budget int) *listCache {
	return &listCache{budget: budget, lists: make(map[IssueKey]*renderedList), pins: make(map[snapshot]int)}
}

// get returns the list of issue rendered from the values at version and from
// fields, or nil.
func (c *listCache) get(issue IssueKey, version Version, fields []Field) *renderedList {
	c.mu.RLock()
	l := c.lists[issue]
	c.mu.RUnlock()
	if l != nil && l.renders(version, fields) {
		return l
	}
	return nil
}

// put keeps l as the list of issue, in place of the one it had, unless l
// alone takes more than a sixteenth of the budget.
func (c *listCache) put(issue IssueKey, l *renderedList) {
	if l.size()+l.fieldsBytes > c.budget/16 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.lists[issue]; ok {
		c.drop(issue, old)
	}
	for other, old := range c.lists {
		if c.used+c.cost(l) <= c.budget {
			break
		}
		c.drop(other, old)
	}
	c.used += c.cost(l)
	c.lists[issue] = l
	if len(l.fields) > 0 {
		c.pins[snapshotOf(l.fields)]++
	}
}

// cost is the memory that keeping l would add: l, and its fields unless a
// kept list shares them. The caller holds c.mu.
func (c *listCache) cost(l *renderedList) int {
	if len(l.fields) == 0 || c.pins[snapshotOf(l.fields)] > 0 {
		return l.size()
	}
	return l.size() + l.fieldsBytes
}

// drop stops keeping l, the list of issue, and its fields when no other kept
// list shares them. The caller holds c.mu.
func (c *listCache) drop(issue IssueKey, l *renderedList) {
	delete(c.lists, issue)
	c.used -= l.size()
	if len(l.fields) == 0 {
		return
	}
	pin := snapshotOf(l.fields)
	if c.pins[pin]--; c.pins[pin] == 0 {
		delete(c.pins, pin)
		c.used -= l.fieldsBytes
	}
}

// list returns the list of issue rendered from values at version and from
// fields, from the cache when it has it, and otherwise renders and keeps it.
func (c *listCache) list(issue IssueKey, version Version, fields []Field, values []Value) *renderedList {
	if l := c.get(issue, version, fields); l != nil {
		return l
	}
	l := renderList(issue, version, fields, values, etagOf(issue, version, fields))
	c.put(issue, l)
	return l
}
