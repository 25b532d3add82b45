package issuefields_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/issuefields/issuefields"
)

// TestFieldContent checks what Field.Content gives of a value of each data
// type: the member that holds it, or the options it selects in the field's
// order, without those the field no longer has.
func TestFieldContent(t *testing.T) {
	options := []issuefields.FieldOption{{ID: 3, Name: "High", Color: "red"}, {ID: 1, Name: "Low", Color: "green"}, {ID: 2, Name: "Medium", Color: "yellow"}}
	value := issuefields.Value{FieldID: 1, Text: "text", Number: 2.5, Date: "2026-03-31", OptionIDs: []int64{2, 9, 3}}
	tests := []struct {
		dataType    issuefields.DataType
		wantValue   any
		wantOptions []issuefields.FieldOption
	}{
		{issuefields.DataTypeText, "text", nil},
		{issuefields.DataTypeNumber, 2.5, nil},
		{issuefields.DataTypeDate, "2026-03-31", nil},
		{issuefields.DataTypeSingleSelect, nil, []issuefields.FieldOption{options[0], options[2]}},
		{issuefields.DataTypeMultiSelect, nil, []issuefields.FieldOption{options[0], options[2]}},
		{"checkbox", nil, nil},
	}
	for _, tt := range tests {
		f := issuefields.Field{ID: 1, Name: "Field", DataType: tt.dataType}
		if tt.wantOptions != nil {
			f.Options = options
		}
		v, opts := f.Content(value)
		if v != tt.wantValue || !cmp.Equal(opts, tt.wantOptions) {
			t.Errorf("Content of a %s value = %#v, %+v; want %#v, %+v", tt.dataType, v, opts, tt.wantValue, tt.wantOptions)
		}
	}
	removed := issuefields.Field{ID: 1, Name: "Field", DataType: issuefields.DataTypeMultiSelect, Options: options[1:2]}
	if v, opts := removed.Content(value); v != nil || len(opts) != 0 {
		t.Errorf("Content of a value whose options the field no longer has = %#v, %+v; want nil and none", v, opts)
	}
}
