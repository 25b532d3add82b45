// Package fieldvalue writes out the value of an issue field for a person,
// as the example server's log and the page of its tools show it.
package fieldvalue

import (
	"strings"

	"github.com/issuefields/issuefields"
)

// Shown returns v, a value of the field f, as a person reads it: the text,
// number or date that issuefields.Field.Content gives, the names of the
// selected options joined by ",", or "none" for nil.
func Shown(f issuefields.Field, v *issuefields.Value) any {
	if v == nil {
		return "none"
	}
	value, options := f.Content(*v)
	if value != nil {
		return value
	}
	names := make([]string, len(options))
	for i, o := range options {
		names[i] = o.Name
	}
	return strings.Join(names, ",")
}
