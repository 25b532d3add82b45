package issuefields

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

// fieldValue returns the response item for value v of field f on issue, as
// a FieldValue, for events, or nil when v has nothing to show. It returns a
// pointer because the item is on the heap anyway (setValue is called through
// a function value), and events keep pointers. Responses are encoded by
// appendItem, which writes what encoding/json writes for the FieldValue this
// returns.
func fieldValue(issue IssueKey, f *Field, v *Value) *FieldValue {
	if !shown(f, v) {
		return nil
	}
	item := &FieldValue{
		IssueFieldID:   f.ID,
		IssueFieldName: f.Name,
		NodeID:         string(appendNodeID(nil, issue, f)),
		DataType:       f.DataType,
	}
	rulesOf(f.DataType).setValue(item, f, v)
	return item
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
