package memstore

import (
	"slices"

	"github.com/issuefields/issuefields"
)

// cloneValues returns a deep copy of values that shares no memory with it.
// The copy is never nil.
func cloneValues(values []issuefields.Value) []issuefields.Value {
	out := make([]issuefields.Value, len(values))
	for i, v := range values {
		v.OptionIDs = slices.Clone(v.OptionIDs)
		out[i] = v
	}
	return out
}

// cloneFields returns a deep copy of fields that shares no memory with it.
// The copy is never nil.
func cloneFields(fields []issuefields.Field) []issuefields.Field {
	out := make([]issuefields.Field, len(fields))
	for i, f := range fields {
		f.Options = slices.Clone(f.Options)
		out[i] = f
	}
	return out
}
