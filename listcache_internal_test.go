package issuefields

import (
	"fmt"
	"testing"
)

// cachedFieldsFixture are the fields the cache tests render from.
var cachedFieldsFixture = []Field{{ID: 1, Name: "Notes", DataType: Text}}

// TestListCacheAnswersOnlyTheSameVersionAndSnapshot checks that a kept list is
// reused for the same version and the same fields slice, and for nothing
// else: another version, a copy of the fields, a longer slice of the same
// array.
func TestListCacheAnswersOnlyTheSameVersionAndSnapshot(t *testing.T) {
	c := newListCache(DefaultListCacheBytes)
	issue := IssueKey{RepositoryID: 1, Number: 1}
	values := []Value{{FieldID: 1, Text: "first"}}
	fields := append(make([]Field, 0, 4), cachedFieldsFixture...)
	kept := c.list(issue, "1", fields, values)
	if got := c.list(issue, "1", fields, values); got != kept {
		t.Errorf("the same version and fields rendered the list again")
	}
	longer := append(fields, Field{ID: 2, Name: "Due", DataType: Date})
	for name, call := range map[string]func() *renderedList{
		"another version":         func() *renderedList { return c.list(issue, "2", fields, values) },
		"a copy of the fields":    func() *renderedList { return c.list(issue, "1", append([]Field(nil), fields...), values) },
		"a longer slice":          func() *renderedList { return c.list(issue, "1", longer, values) },
		"another issue":           func() *renderedList { return c.list(IssueKey{RepositoryID: 1, Number: 2}, "1", fields, values) },
		"no fields, after fields": func() *renderedList { return c.list(issue, "1", nil, values) },
	} {
		c.put(issue, kept)
		if got := call(); got == kept {
			t.Errorf("%s: got the kept list", name)
		}
	}
}

// TestListCacheStaysWithinItsBudget checks that lists of many issues take no
// more than the budget, counting the fields they keep alive once per
// snapshot, whether the lists share one snapshot (as from memstore) or each
// has its own copy (as from a store that copies); that the list put last is
// kept; that a list larger than a sixteenth of the budget is not kept; and
// that a budget of 0 keeps nothing.
func TestListCacheStaysWithinItsBudget(t *testing.T) {
	const budget = 256 << 10
	values := []Value{{FieldID: 1, Text: "a value of some length"}}
	wide := make([]Field, 40)
	for i := range wide {
		wide[i] = Field{ID: int64(i + 1), Name: fmt.Sprintf("Field %d", i+1), DataType: SingleSelect,
			Options: []Option{{ID: 1, Name: "One", Color: "red"}, {ID: 2, Name: "Two", Color: "blue"}}}
	}
	grown := 0
	for name, fieldsFor := range map[string]func() []Field{
		"one shared snapshot": func() []Field { return wide },
		"a copy per call":     func() []Field { return append([]Field(nil), wide...) },
		// As memstore's AddField does, a field appended in place makes a
		// longer slice of the same array.
		"one array growing": func() []Field { grown = grown%len(wide) + 1; return wide[:grown] },
	} {
		c := newListCache(budget)
		for n := int64(1); n <= 1000; n++ {
			issue := IssueKey{RepositoryID: 1, Number: n}
			fields := fieldsFor()
			l := c.list(issue, "1", fields, values)
			if c.used > budget {
				t.Fatalf("%s: after %d lists the cache holds %d bytes, more than its budget of %d", name, n, c.used, budget)
			}
			if c.get(issue, "1", fields) != l {
				t.Fatalf("%s: list %d was not kept", name, n)
			}
		}
		if want := accounted(c); c.used != want {
			t.Errorf("%s: the cache counts %d bytes, its lists and their fields take %d", name, c.used, want)
		}
	}

	c := newListCache(budget)
	big := []Value{{FieldID: 1, Text: fmt.Sprintf("%0*d", budget/16, 0)}}
	issue := IssueKey{RepositoryID: 2, Number: 1}
	c.list(issue, "1", cachedFieldsFixture, big)
	if c.get(issue, "1", cachedFieldsFixture) != nil {
		t.Errorf("a list of more than a sixteenth of the budget was kept")
	}

	off := newListCache(0)
	off.list(issue, "1", cachedFieldsFixture, values)
	if len(off.lists) != 0 {
		t.Errorf("a cache with no budget kept %d lists", len(off.lists))
	}
}

// accounted returns the memory of c's lists and of each fields snapshot they
// keep alive, counted once.
func accounted(c *listCache) int {
	n := 0
	snapshots := map[snapshot]int{}
	for _, l := range c.lists {
		n += l.size()
		if len(l.fields) > 0 {
			snapshots[snapshotOf(l.fields)] = l.fieldsBytes
		}
	}
	for _, bytes := range snapshots {
		n += bytes
	}
	return n
}
