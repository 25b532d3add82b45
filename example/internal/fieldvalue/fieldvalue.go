// Package fieldvalue writes out the value of an issue field for a person,
// as the example server's log and the page of its tools show it.
package fieldvalue

import (
	"strings"

	"github.com/issuefields/issuefields"
)

// Shown returns v, a value of the field f, as a person reads it: the text,
// number or date, the names of the selected options joined by ",", or
// "none" for nil.
func Shown(f issuefields.Field, v *issuefields.Value) any {
	switch {
	case v == nil:
		return "none"
	case f.DataType == issuefields.DataTypeNumber:
		return v.Number
	case f.DataType == issuefields.DataTypeDate:
		return v.Date
	case f.DataType == issuefields.DataTypeText:
		return v.Text
	}
	var names []string
	for _, o := range f.Options {
		for _, id := range v.OptionIDs {
			if o.ID == id {
				names = append(names, o.Name)
			}
		}
	}
	return strings.Join(names, ",")
}
