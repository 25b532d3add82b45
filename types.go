package issuefields

import (
	"encoding/base64"
	"encoding/binary"
	"strings"
)

// FieldValue is one item of the API's responses: the value of one field on
// one issue, as clients receive it.
type FieldValue struct {
	// IssueFieldID is the field's ID.
	IssueFieldID int64 `json:"issue_field_id"`
	// IssueFieldName is the field's name.
	IssueFieldName string `json:"issue_field_name"`
	// NodeID is an opaque, stable, URL-safe identifier of this field's value
	// on this issue. It starts with IFT_, IFSS_, IFMS_, IFN_ or IFD_ by data
	// type.
	NodeID string `json:"node_id"`
	// DataType is the field's data type.
	DataType DataType `json:"data_type"`
	// Value is a string for text and date ("YYYY-MM-DD"), the option's ID
	// (int64) for single_select, a float64 for number, and the selected
	// option names joined by "," for multi_select.
	Value any `json:"value"`
	// SingleSelectOption is the selected option of a single_select field,
	// and nil for other data types.
	SingleSelectOption *FieldValueOption `json:"single_select_option,omitempty"`
	// MultiSelectOptions are the selected options of a multi_select field,
	// in the field's option order, and nil for other data types.
	MultiSelectOptions []FieldValueOption `json:"multi_select_options,omitempty"`
}

// FieldValueOption is a selected option as clients receive it.
type FieldValueOption struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

// nodeIDPrefixes are the node_id prefixes by data type.
var nodeIDPrefixes = map[DataType]string{
	Text:         "IFT_",
	SingleSelect: "IFSS_",
	MultiSelect:  "IFMS_",
	Number:       "IFN_",
	Date:         "IFD_",
}

// nodeID returns the node_id of field's value on issue. It encodes the
// repository's stable ID, the issue number and the field ID, so it survives
// renames and transfers of the repository and is the same in every response.
func nodeID(issue IssueKey, field *Field) string {
	var raw [3 * binary.MaxVarintLen64]byte
	b := binary.AppendUvarint(raw[:0], uint64(issue.RepositoryID))
	b = binary.AppendUvarint(b, uint64(issue.Number))
	b = binary.AppendUvarint(b, uint64(field.ID))
	return nodeIDPrefixes[field.DataType] + base64.RawURLEncoding.EncodeToString(b)
}

// render returns the response items for the stored values of issue, in the
// order of fields. A value whose field no longer exists, or whose options were
// all removed from the field, is left out.
func render(issue IssueKey, fields []Field, values []Value) []FieldValue {
	items := make([]FieldValue, 0, len(values))
	for i := range fields {
		f := &fields[i]
		v, ok := valueOf(values, f.ID)
		if !ok {
			continue
		}
		if item, ok := renderOne(issue, f, v); ok {
			items = append(items, item)
		}
	}
	return items
}

// valueOf returns the value of field id among values.
func valueOf(values []Value, id int64) (*Value, bool) {
	for i := range values {
		if values[i].FieldID == id {
			return &values[i], true
		}
	}
	return nil, false
}

// renderOne returns the response item for value v of field f. It reports
// false when v names no option that f still has.
func renderOne(issue IssueKey, f *Field, v *Value) (FieldValue, bool) {
	item := FieldValue{
		IssueFieldID:   f.ID,
		IssueFieldName: f.Name,
		NodeID:         nodeID(issue, f),
		DataType:       f.DataType,
	}
	switch f.DataType {
	case Text:
		item.Value = v.Text
	case Number:
		item.Value = v.Number
	case Date:
		item.Value = v.Date
	case SingleSelect:
		opts := selectedOptions(f, v.OptionIDs)
		if len(opts) == 0 {
			return item, false
		}
		item.Value = opts[0].ID
		item.SingleSelectOption = &opts[0]
	case MultiSelect:
		opts := selectedOptions(f, v.OptionIDs)
		if len(opts) == 0 {
			return item, false
		}
		names := make([]string, len(opts))
		for i, o := range opts {
			names[i] = o.Name
		}
		item.Value = strings.Join(names, ",")
		item.MultiSelectOptions = opts
	default:
		return item, false
	}
	return item, true
}

// selectedOptions returns the options of f whose IDs are in ids, in f's
// option order.
func selectedOptions(f *Field, ids []int64) []FieldValueOption {
	var opts []FieldValueOption
	for _, o := range f.Options {
		for _, id := range ids {
			if o.ID == id {
				opts = append(opts, FieldValueOption{ID: o.ID, Name: o.Name, Color: o.Color})
				break
			}
		}
	}
	return opts
}
