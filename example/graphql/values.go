package graphql

import (
	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/ids"
	"github.com/vektah/gqlparser/v2/ast"
)

// shown is a value of an issue as the values list shows it: its field, and
// what Field.Content gives of it.
type shown struct {
	field   *issuefields.Field
	value   any
	options []issuefields.FieldOption
}

// shownValues returns the values of the issue of snap that its fields
// show, in the issue's order: Field.Content decides, as it does for the
// values list (a value of a field that is gone, or whose options are all
// gone, is not shown).
func shownValues(snap issuefields.Snapshot) []shown {
	out := make([]shown, 0, len(snap.Issue.Values))
	for _, v := range snap.Issue.Values {
		f := fieldByID(snap.Fields, v.FieldID)
		if f == nil {
			continue
		}
		value, options := f.Content(v)
		if value == nil && len(options) == 0 {
			continue
		}
		out = append(out, shown{field: f, value: value, options: options})
	}
	return out
}

// value writes v, a value of the issue of snap, as the member of the union
// IssueFieldValue of its field's data type.
func (e *exec) value(g *ast.Field, snap issuefields.Snapshot, v shown) bool {
	typ := valueTypes[v.field.DataType]
	org := snap.Repository.Owner
	return e.object(typ, g.SelectionSet, func(h *ast.Field) bool {
		switch h.Name {
		case "id":
			e.buf = append(e.buf, '"')
			e.buf = ids.AppendValue(e.buf, string(v.field.DataType), snap.Issue.ID, v.field.ID)
			e.buf = append(e.buf, '"')
			return true
		case "field":
			return e.field(h, org, v.field)
		case "value":
			switch x := v.value.(type) {
			case string:
				return e.str(x)
			case float64:
				return e.float(x)
			}
			if len(v.options) > 0 {
				return e.str(v.options[0].Name)
			}
			return e.null()
		case "values":
			return e.list(h, len(v.options), func(i int) bool { return e.str(v.options[i].Name) })
		case "option":
			if len(v.options) == 0 {
				return e.null()
			}
			return e.option(h, org, v.field, &v.options[0])
		case "options":
			return e.list(h, len(v.options), func(i int) bool { return e.option(h, org, v.field, &v.options[i]) })
		}
		return e.null()
	})
}
