package issuefields

import "testing"

// TestFieldSumsRemembersOnlyTheSameSlice checks that a remembered sum is
// given back for the very slice it was computed for, and never for another
// slice: a copy with a renamed field, or a shorter slice over the same
// elements.
func TestFieldSumsRemembersOnlyTheSameSlice(t *testing.T) {
	sums := newFieldSums()
	fields := []Field{
		{ID: 1, Name: "Notes", DataType: DataTypeText},
		{ID: 2, Name: "Priority", DataType: DataTypeSingleSelect, Options: []FieldOption{{ID: 21, Name: "High", Color: "red"}}},
	}
	if got, want := sums.of(fields), fieldsSum(fields); got != want {
		t.Fatalf("first sum = %x, want fieldsSum's %x", got, want)
	}
	if got, want := sums.of(fields), fieldsSum(fields); got != want {
		t.Fatalf("remembered sum = %x, want %x", got, want)
	}

	renamed := append([]Field(nil), fields...)
	renamed[0].Name += " (renamed)"
	if sums.of(renamed) == sums.of(fields) {
		t.Errorf("a copy with a renamed field has the sum of the original")
	}
	if sums.of(fields[:1]) == sums.of(fields) {
		t.Errorf("a shorter slice over the same elements has the sum of the whole")
	}
	if got, want := sums.of(nil), fieldsSum(nil); got != want {
		t.Errorf("sum of no fields = %x, want %x", got, want)
	}
}
