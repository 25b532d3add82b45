package graphql

import (
	"strings"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/ids"
	"github.com/vektah/gqlparser/v2/ast"
)

// fieldTypes are the GraphQL types of fields by data type, and valueTypes
// those of their values.
var (
	fieldTypes = map[issuefields.DataType]string{
		issuefields.DataTypeText:         "IssueFieldText",
		issuefields.DataTypeNumber:       "IssueFieldNumber",
		issuefields.DataTypeDate:         "IssueFieldDate",
		issuefields.DataTypeSingleSelect: "IssueFieldSingleSelect",
		issuefields.DataTypeMultiSelect:  "IssueFieldMultiSelect",
	}
	valueTypes = map[issuefields.DataType]string{
		issuefields.DataTypeText:         "IssueFieldTextValue",
		issuefields.DataTypeNumber:       "IssueFieldNumberValue",
		issuefields.DataTypeDate:         "IssueFieldDateValue",
		issuefields.DataTypeSingleSelect: "IssueFieldSingleSelectValue",
		issuefields.DataTypeMultiSelect:  "IssueFieldMultiSelectValue",
	}
)

// issueFields writes the connection of fields, those of the organization
// org, in the organization's order.
func (e *exec) issueFields(f *ast.Field, org string, fields []issuefields.Field) bool {
	return e.connection(f, "IssueFieldsConnection", e.page(f, len(fields)), func(i int, g *ast.Field) bool {
		return e.field(g, org, &fields[i])
	})
}

// field writes the field f of the organization org, as the member of the
// union IssueFields of its data type.
func (e *exec) field(g *ast.Field, org string, field *issuefields.Field) bool {
	typ, ok := fieldTypes[field.DataType]
	if !ok {
		return e.null()
	}
	return e.object(typ, g.SelectionSet, func(h *ast.Field) bool {
		switch h.Name {
		case "id":
			return e.str(ids.Field(org, field.ID))
		case "fullDatabaseId":
			return e.integerString(field.ID)
		case "name":
			return e.str(field.Name)
		case "description":
			return e.optStr(field.Description)
		case "dataType":
			return e.str(strings.ToUpper(string(field.DataType)))
		case "visibility":
			v := field.Visibility
			if v == "" {
				v = issuefields.VisibleToMembers
			}
			return e.str(strings.ToUpper(string(v)))
		case "createdAt":
			return e.time(field.CreatedAt)
		case "options":
			return e.list(h, len(field.Options), func(i int) bool { return e.option(h, org, field, &field.Options[i]) })
		}
		return e.null()
	})
}

// option writes the option o of field.
func (e *exec) option(g *ast.Field, org string, field *issuefields.Field, o *issuefields.FieldOption) bool {
	return e.object("IssueFieldSingleSelectOption", g.SelectionSet, func(h *ast.Field) bool {
		switch h.Name {
		case "id":
			return e.str(ids.Option(org, field.ID, o.ID))
		case "fullDatabaseId":
			return e.integerString(o.ID)
		case "name":
			return e.str(o.Name)
		case "description":
			return e.optStr(o.Description)
		case "color":
			return e.str(strings.ToUpper(o.Color))
		case "priority":
			return e.integer(int64(o.Priority))
		}
		return e.null()
	})
}

// fieldByID returns the field of fields whose ID is id, or nil.
func fieldByID(fields []issuefields.Field, id int64) *issuefields.Field {
	for i := range fields {
		if fields[i].ID == id {
			return &fields[i]
		}
	}
	return nil
}
