package issuefields

import "sync"

// listCacheBytes is the memory that a Handler's rendered lists may take.
const listCacheBytes = 8 << 20

// renderedList is the whole list of an issue's values, rendered from one
// version of the values and the organization's fields, with its ETag, which
// names that pair, and the ETag's hash. It never changes once made, so
// requests share it.
type renderedList struct {
	sum  uint64
	etag string
	// body is the JSON array of every item and a newline, as every JSON
	// body the handler writes ends; ends[i] is the offset just past item i
	// in body.
	body []byte
	ends []int
}

// renderList renders the values of the issue whose ID is issueID with
// fields; sum is the hash of their entity tag: the etagSumOf their issue,
// their version and the fieldsSum of their fields.
func renderList(issueID int64, fields []Field, values []Value, sum uint64) *renderedList {
	var stack [32]renderable
	items := renderables(stack[:0], fields, values)
	l := &renderedList{sum: sum, etag: formatETag(sum), ends: make([]int, len(items))}
	body := make([]byte, 0, 3+192*len(items))
	body = append(body, '[')
	for i, it := range items {
		if i > 0 {
			body = append(body, ',')
		}
		body = appendItem(body, issueID, it.field, it.value)
		l.ends[i] = len(body)
	}
	l.body = append(body, "]\n"...)
	return l
}

// count returns the number of items in l.
func (l *renderedList) count() int { return len(l.ends) }

// items returns the JSON array of the items lo to hi-1 of l: l's own body
// when that is every item, otherwise a new array.
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

// size is about the memory l takes.
func (l *renderedList) size() int { return 128 + len(l.etag) + len(l.body) + 8*len(l.ends) }

// listCache keeps the list last rendered for each issue, under its ETag,
// within a budget of bytes. The ETag names the issue's values and every field
// definition the list is rendered from, so a kept list answers exactly the
// requests whose ETag is the same, whatever store they came from. When a new
// list does not fit, lists of other issues picked at random make room.
type listCache struct {
	budget int // 0 keeps nothing
	mu     sync.RWMutex
	lists  map[IssueKey]*renderedList
	used   int
}

func newListCache(budget int) *listCache {
	return &listCache{budget: budget, lists: make(map[IssueKey]*renderedList)}
}

// get returns the kept list of issue whose ETag's hash is sum, or nil.
func (c *listCache) get(issue IssueKey, sum uint64) *renderedList {
	if c.budget == 0 {
		return nil
	}
	c.mu.RLock()
	l := c.lists[issue]
	c.mu.RUnlock()
	if l != nil && l.sum == sum {
		return l
	}
	return nil
}

// put keeps l as the list of issue, in place of the one it had, unless l
// alone takes more than a sixteenth of the budget.
func (c *listCache) put(issue IssueKey, l *renderedList) {
	if l.size() > c.budget/16 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.lists[issue]; ok {
		delete(c.lists, issue)
		c.used -= old.size()
	}
	for other, old := range c.lists {
		if c.used+l.size() <= c.budget {
			break
		}
		delete(c.lists, other)
		c.used -= old.size()
	}
	c.used += l.size()
	c.lists[issue] = l
}

// list returns the list of issue rendered from its values and fields,
// whose ETag's hash is sum, from the cache when it has it, and otherwise
// renders and keeps it.
func (c *listCache) list(issue *Issue, sum uint64, fields []Field, values []Value) *renderedList {
	key := issue.Key()
	if l := c.get(key, sum); l != nil {
		return l
	}
	l := renderList(issue.ID, fields, values, sum)
	c.put(key, l)
	return l
}
