package issuefields

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/issuefields/issuefields/internal/ids"
	"github.com/issuefields/issuefields/internal/jsonappend"
)

// encodingJSON encodes v as the handler would with encoding/json: HTML
// escaping off, no trailing newline.
func encodingJSON(t testing.TB, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// trickyStrings exercise every escaping rule of a JSON string.
var trickyStrings = []string{
	"", "plain", `quote " and backslash \`, "tab\tnew\nline\rret", "\b\f\x00\x01\x1f\x7f",
	"<html> & 'single'", "line\u2028and\u2029para", "émoji 😀 ünïcödé", "bad \xff\xfe utf-8", "\xe2\x80",
}

// responseItem is a list item as the API's schema describes it, for
// encoding/json to encode: the reference that appendItem must match.
type responseItem struct {
	IssueFieldID       int64            `json:"issue_field_id"`
	IssueFieldName     string           `json:"issue_field_name"`
	NodeID             string           `json:"node_id"`
	DataType           DataType         `json:"data_type"`
	Value              any              `json:"value"`
	SingleSelectOption *responseOption  `json:"single_select_option,omitempty"`
	MultiSelectOptions []responseOption `json:"multi_select_options,omitempty"`
}

type responseOption struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

// referenceItem returns the item of value v of field f on the issue whose
// ID is issueID as the contract (§2) describes it, or nil when the field
// shows no option of v.
func referenceItem(issueID int64, f *Field, v *Value) *responseItem {
	item := &responseItem{IssueFieldID: f.ID, IssueFieldName: f.Name,
		NodeID: ids.Value(string(f.DataType), issueID, f.ID), DataType: f.DataType}
	var names []string
	for _, o := range f.Options {
		if slices.Contains(v.OptionIDs, o.ID) {
			item.MultiSelectOptions = append(item.MultiSelectOptions, responseOption{o.ID, o.Name, o.Color})
			names = append(names, o.Name)
		}
	}
	switch f.DataType {
	case DataTypeText:
		item.Value = v.Text
	case DataTypeNumber:
		item.Value = v.Number
	case DataTypeDate:
		item.Value = v.Date
	case DataTypeSingleSelect:
		if len(item.MultiSelectOptions) == 0 {
			return nil
		}
		o := item.MultiSelectOptions[0]
		item.Value, item.SingleSelectOption, item.MultiSelectOptions = o.ID, &o, nil
	case DataTypeMultiSelect:
		if len(names) == 0 {
			return nil
		}
		item.Value = strings.Join(names, ",")
	}
	return item
}

// TestAppendItemMatchesEncodingJSON checks the hand-written encoding against
// encoding/json's encoding of the reference item, for every data type.
func TestAppendItemMatchesEncodingJSON(t *testing.T) {
	issue := int64(1347)
	options := []FieldOption{{ID: 1, Name: "High", Color: "red"}, {ID: 2, Name: `Lo"w`, Color: "gr\neen"}, {ID: 1 << 62, Name: "Mid,dle", Color: ""}}
	type tc struct {
		field Field
		value Value
	}
	var cases []tc
	for _, s := range trickyStrings {
		cases = append(cases,
			tc{Field{ID: 1, Name: s, DataType: DataTypeText}, Value{Text: s}},
			tc{Field{ID: 4, Name: "Due", DataType: DataTypeDate}, Value{Date: "2025-12-25"}},
			tc{Field{ID: 2, Name: "Priority", DataType: DataTypeSingleSelect, Options: []FieldOption{{ID: 9, Name: s, Color: s}}}, Value{OptionIDs: []int64{9}}},
		)
	}
	for _, n := range []float64{0, 5, -3, 0.1, 42.5, 1e20, 1e21, 1e-6, 1e-7, 123456789e-15, -1.5e-10, 1e300, math.MaxFloat64, math.SmallestNonzeroFloat64, 1 << 53} {
		cases = append(cases, tc{Field{ID: 3, Name: "Points", DataType: DataTypeNumber}, Value{Number: n}})
	}
	cases = append(cases,
		tc{Field{ID: 2, Name: "Priority", DataType: DataTypeSingleSelect, Options: options}, Value{OptionIDs: []int64{1 << 62}}},
		tc{Field{ID: 5, Name: "Labels", DataType: DataTypeMultiSelect, Options: options}, Value{OptionIDs: []int64{2}}},
		tc{Field{ID: 5, Name: "Labels", DataType: DataTypeMultiSelect, Options: options}, Value{OptionIDs: []int64{1 << 62, 1, 2}}},
		tc{Field{ID: 1 << 62, Name: "Big", DataType: DataTypeText}, Value{Text: "x"}},
	)
	for _, c := range cases {
		c.value.FieldID = c.field.ID
		want := referenceItem(issue, &c.field, &c.value)
		if want == nil {
			t.Fatalf("referenceItem(%+v, %+v) shows nothing", c.field, c.value)
		}
		got := string(appendItem(nil, issue, &c.field, &c.value))
		if w := encodingJSON(t, want); got != w {
			t.Errorf("appendItem for %s:\n got %s\nwant %s", c.field.DataType, got, w)
		}
	}
}

// TestRenderListMatchesEncodingJSON checks a whole list, empty included, and
// every page of it.
func TestRenderListMatchesEncodingJSON(t *testing.T) {
	issue := int64(3)
	fields := []Field{
		{ID: 1, Name: "Notes", DataType: DataTypeText},
		{ID: 2, Name: "Gone", DataType: DataTypeSingleSelect, Options: []FieldOption{{ID: 5, Name: "A"}}},
		{ID: 3, Name: "Points", DataType: DataTypeNumber},
	}
	for _, values := range [][]Value{nil, {{FieldID: 3, Number: 2}, {FieldID: 1, Text: "n"}, {FieldID: 2, OptionIDs: []int64{99}}, {FieldID: 42, Text: "no field"}}} {
		want := []responseItem{}
		for i := range fields {
			if v, ok := valueOf(values, fields[i].ID); ok {
				if item := referenceItem(issue, &fields[i], v); item != nil {
					want = append(want, *item)
				}
			}
		}
		list := renderList(issue, fields, values, 1)
		if got, w := string(list.body), encodingJSON(t, want)+"\n"; got != w {
			t.Errorf("renderList(%+v):\n got %s\nwant %s", values, got, w)
		}
		for lo := 0; lo <= len(want); lo++ {
			for hi := lo; hi <= len(want); hi++ {
				if got, w := string(list.items(lo, hi)), encodingJSON(t, want[lo:hi])+"\n"; got != w {
					t.Errorf("renderList(%+v).items(%d, %d):\n got %s\nwant %s", values, lo, hi, got, w)
				}
			}
		}
	}
}

// FuzzAppendString and FuzzAppendFloat check jsonappend against encoding/json.
func FuzzAppendString(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(jsonappend.String(nil, s)), encodingJSON(t, s); got != want {
			t.Errorf("jsonappend.String(%q) = %s, want %s", s, got, want)
		}
	})
}

func FuzzAppendFloat(f *testing.F) {
	for _, n := range []float64{0, 1, -1, 0.1, 1e21, 1e-7, math.MaxFloat64} {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n float64) {
		if math.IsNaN(n) || math.IsInf(n, 0) {
			t.Skip("not a value a number field can hold")
		}
		if got, want := string(jsonappend.Float(nil, n)), encodingJSON(t, n); got != want {
			t.Errorf("jsonappend.Float(%v) = %s, want %s", n, got, want)
		}
	})
}

// BenchmarkEncodeList compares the hand-written encoding of a list of one
// value of each data type with encoding/json's encoding of the same items.
func BenchmarkEncodeList(b *testing.B) {
	issue := int64(1347)
	options := []FieldOption{{ID: 1, Name: "Frontend", Color: "blue"}, {ID: 2, Name: "Backend", Color: "green"}}
	fields := []Field{
		{ID: 1, Name: "Notes", DataType: DataTypeText},
		{ID: 2, Name: "Priority", DataType: DataTypeSingleSelect, Options: options},
		{ID: 3, Name: "Points", DataType: DataTypeNumber},
		{ID: 4, Name: "Due", DataType: DataTypeDate},
		{ID: 5, Name: "Labels", DataType: DataTypeMultiSelect, Options: options},
	}
	values := []Value{{FieldID: 1, Text: "Needs a design review"}, {FieldID: 2, OptionIDs: []int64{1}},
		{FieldID: 3, Number: 42.5}, {FieldID: 4, Date: "2025-12-25"}, {FieldID: 5, OptionIDs: []int64{1, 2}}}
	b.Run("renderList", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			renderList(issue, fields, values, 1)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		var buf bytes.Buffer
		for b.Loop() {
			items := make([]responseItem, 0, len(values))
			for i := range fields {
				if v, ok := valueOf(values, fields[i].ID); ok {
					items = append(items, *referenceItem(issue, &fields[i], v))
				}
			}
			buf.Reset()
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(items)
		}
	})
}
