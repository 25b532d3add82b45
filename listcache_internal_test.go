package issuefields

import (
	"fmt"
	"testing"
)

// cachedFieldsFixture are the fields the cache tests render from.
var cachedFieldsFixture = []Field{{ID: 1, Name: "Notes", DataType: DataTypeText}}

// TestListCacheAnswersOnlyTheSameETag checks that a kept list is reused for
// the same issue and ETag, whichever slice holds the fields, and for nothing
// else: another version, a renamed field, another issue.
func TestListCacheAnswersOnlyTheSameETag(t *testing.T) {
	c := newListCache(listCacheBytes)
	issue := &Issue{Repository: Repository{ID: 1}, Number: 1, ID: 1}
	values := []Value{{FieldID: 1, Text: "first"}}
	fields := cachedFieldsFixture
	kept := c.list(issue, etagSumOf(issue.Key(), "1", fieldsSum(fields)), fields, values)
	copied := append([]Field(nil), fields...)
	if got := c.list(issue, etagSumOf(issue.Key(), "1", fieldsSum(copied)), copied, values); got != kept {
		t.Errorf("the same version and a copy of the same fields rendered the list again")
	}
	renamed := []Field{{ID: 1, Name: "Renamed", DataType: DataTypeText}}
	for name, call := range map[string]func() *renderedList{
		"another version": func() *renderedList {
			return c.list(issue, etagSumOf(issue.Key(), "2", fieldsSum(fields)), fields, values)
		},
		"a renamed field": func() *renderedList {
			return c.list(issue, etagSumOf(issue.Key(), "1", fieldsSum(renamed)), renamed, values)
		},
		"another issue": func() *renderedList {
			other := &Issue{Repository: Repository{ID: 1}, Number: 2, ID: 2}
			return c.list(other, etagSumOf(other.Key(), "1", fieldsSum(fields)), fields, values)
		},
		"no fields": func() *renderedList { return c.list(issue, etagSumOf(issue.Key(), "1", fieldsSum(nil)), nil, values) },
	} {
		c.put(issue.Key(), kept)
		if got := call(); got == kept {
			t.Errorf("%s: got the kept list", name)
		}
	}
}

// TestListCacheStaysWithinItsBudget checks that lists of many issues take no
// more than the budget; that the list put last is kept; that a list larger
// than a sixteenth of the budget is not kept; and that a budget of 0 keeps
// nothing.
func TestListCacheStaysWithinItsBudget(t *testing.T) {
	const budget = 256 << 10
	values := []Value{{FieldID: 1, Text: "a value of some length"}}
	c := newListCache(budget)
	tag := etagSumOf(IssueKey{}, "1", fieldsSum(cachedFieldsFixture))
	for n := int64(1); n <= 5000; n++ {
		issue := &Issue{Repository: Repository{ID: 1}, Number: n, ID: n}
		l := c.list(issue, tag, cachedFieldsFixture, values)
		if c.used > budget {
			t.Fatalf("after %d lists the cache holds %d bytes, more than its budget of %d", n, c.used, budget)
		}
		if c.get(issue.Key(), tag) != l {
			t.Fatalf("list %d was not kept", n)
		}
	}
	if want := accounted(c); c.used != want {
		t.Errorf("the cache counts %d bytes, its lists take %d", c.used, want)
	}

	c = newListCache(budget)
	big := []Value{{FieldID: 1, Text: fmt.Sprintf("%0*d", budget/16, 0)}}
	issue := &Issue{Repository: Repository{ID: 2}, Number: 1, ID: 1}
	c.list(issue, tag, cachedFieldsFixture, big)
	if c.get(issue.Key(), tag) != nil {
		t.Errorf("a list of more than a sixteenth of the budget was kept")
	}

	off := newListCache(0)
	off.list(issue, tag, cachedFieldsFixture, values)
	if len(off.lists) != 0 {
		t.Errorf("a cache with no budget kept %d lists", len(off.lists))
	}
}

// accounted returns the memory of c's lists.
func accounted(c *listCache) int {
	n := 0
	for _, l := range c.lists {
		n += l.size()
	}
	return n
}
