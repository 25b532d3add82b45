// Package clone copies what the stores keep apart from what their callers
// hold, so that neither sees the other's changes.
package clone

import (
	"slices"

	"github.com/issuefields/issuefields"
)

// Values returns a deep copy of values that shares no memory with it.
// The copy is never nil. Every OptionIDs of the copy is a part of one array,
// so that a copy costs two allocations however many values it holds.
func Values(values []issuefields.Value) []issuefields.Value {
	out := make([]issuefields.Value, len(values))
	n := 0
	for _, v := range values {
		n += len(v.OptionIDs)
	}
	ids := make([]int64, 0, n)
	for i, v := range values {
		if v.OptionIDs != nil {
			start := len(ids)
			ids = append(ids, v.OptionIDs...)
			v.OptionIDs = ids[start:len(ids):len(ids)]
		}
		out[i] = v
	}
	return out
}

// Issue returns a copy of issue whose Values, Labels and Assignees share no
// memory with issue's.
func Issue(issue issuefields.Issue) issuefields.Issue {
	issue.Values = Values(issue.Values)
	issue.Labels, issue.Assignees = slices.Clone(issue.Labels), slices.Clone(issue.Assignees)
	return issue
}
