package storetest

import (
	"slices"

	"github.com/issuefields/issuefields"
)

// octoFields returns the fields of the organization octo-org: one of each
// data type, neither in ID order nor with options in ID order. Each call
// returns new slices.
func octoFields() []issuefields.Field {
	return []issuefields.Field{
		{ID: 30, Name: "Priority", DataType: issuefields.DataTypeSingleSelect, Options: []issuefields.FieldOption{
			{ID: 3, Name: "High", Color: "red"},
			{ID: 1, Name: "Low", Color: "green"},
			{ID: 2, Name: "Medium", Color: "yellow"},
		}},
		{ID: 10, Name: "Notes", DataType: issuefields.DataTypeText},
		{ID: 50, Name: "Platforms", DataType: issuefields.DataTypeMultiSelect, Options: []issuefields.FieldOption{
			{ID: 9, Name: "Windows", Color: "blue"},
			{ID: 4, Name: "Linux", Color: "purple"},
			{ID: 7, Name: "macOS", Color: "gray"},
		}},
		{ID: 20, Name: "Estimate", DataType: issuefields.DataTypeNumber},
		{ID: 40, Name: "Due", DataType: issuefields.DataTypeDate},
	}
}

// octoIDs are the IDs of octoFields and their options.
var octoIDs = []int64{1, 2, 3, 4, 7, 9, 10, 20, 30, 40, 50}

// otherFields returns the fields of the organization other-org, whose first
// field has the ID of one of octo-org's. Each call returns new slices.
func otherFields() []issuefields.Field {
	return []issuefields.Field{
		{ID: 10, Name: "Team", DataType: issuefields.DataTypeText},
		{ID: 5, Name: "Severity", DataType: issuefields.DataTypeSingleSelect, Options: []issuefields.FieldOption{
			{ID: 1, Name: "S1", Color: "red"},
		}},
	}
}

// someValues returns values of octoFields, one of each data type, in neither
// the fields' order nor ID order. Each call returns new slices.
func someValues() []issuefields.Value {
	return []issuefields.Value{
		{FieldID: 50, OptionIDs: []int64{9, 4, 7}},
		{FieldID: 20, Number: 0.1},
		{FieldID: 10, Text: "naïve café ☕ — «quoted» 日本語"},
		{FieldID: 30, OptionIDs: []int64{3}},
		{FieldID: 40, Date: "2024-02-29"},
	}
}

// changedValues returns values of octoFields in the shape of someValues:
// the same fields in the same order, each with another value.
func changedValues() []issuefields.Value {
	return []issuefields.Value{
		{FieldID: 50, OptionIDs: []int64{4}},
		{FieldID: 20, Number: -2},
		{FieldID: 10, Text: "changed"},
		{FieldID: 30, OptionIDs: []int64{1}},
		{FieldID: 40, Date: "2025-01-01"},
	}
}

// equalValues reports whether a and b hold the same values in the same
// order. It tells a nil OptionIDs from an empty one no more than the handler
// does.
func equalValues(a, b []issuefields.Value) bool {
	return slices.EqualFunc(a, b, func(x, y issuefields.Value) bool {
		return x.FieldID == y.FieldID && x.Text == y.Text && x.Number == y.Number &&
			x.Date == y.Date && slices.Equal(x.OptionIDs, y.OptionIDs)
	})
}

// equalFields reports whether a and b hold the same fields, with the same
// options, in the same order.
func equalFields(a, b []issuefields.Field) bool {
	return slices.EqualFunc(a, b, func(x, y issuefields.Field) bool {
		return x.ID == y.ID && x.Name == y.Name && x.DataType == y.DataType &&
			slices.Equal(x.Options, y.Options) && x.Description == y.Description &&
			x.Visibility == y.Visibility && x.CreatedAt.Equal(y.CreatedAt) && x.UpdatedAt.Equal(y.UpdatedAt)
	})
}
