package pgstore

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/issuefields/issuefields"
)

// checkEncodeValues checks that encodeValues writes what encoding/json
// writes for the storedValues (HTML escaping off), and that decodeValues
// reads back the same values when their strings are valid UTF-8 (encoding/json
// replaces invalid bytes).
func checkEncodeValues(t *testing.T, values []issuefields.Value) {
	t.Helper()
	got, err := encodeValues(values)
	if err != nil {
		t.Fatalf("encodeValues(%v): %v", values, err)
	}
	stored := make([]storedValue, len(values))
	for i, v := range values {
		stored[i] = storedValue{FieldID: v.FieldID, Text: v.Text, Date: v.Date, OptionIDs: v.OptionIDs}
		if v.Number != 0 || math.Signbit(v.Number) {
			stored[i].Number = &v.Number
		}
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(stored); err != nil {
		t.Fatal(err)
	}
	if w := bytes.TrimSuffix(want.Bytes(), []byte("\n")); !bytes.Equal(got, w) {
		t.Errorf("encodeValues(%v) = %s, want %s", values, got, w)
	}
	back, err := decodeValues(got)
	if err != nil {
		t.Fatalf("decodeValues(%s): %v", got, err)
	}
	for i, v := range values {
		if !utf8.ValidString(v.Text) || !utf8.ValidString(v.Date) {
			continue
		}
		if len(v.OptionIDs) == 0 {
			v.OptionIDs = nil
		}
		if !reflect.DeepEqual(back[i], v) || math.Signbit(back[i].Number) != math.Signbit(v.Number) {
			t.Errorf("value %d: wrote %#v, read back %#v", i, v, back[i])
		}
	}
}

func TestEncodeValuesMatchesEncodingJSON(t *testing.T) {
	checkEncodeValues(t, nil)
	checkEncodeValues(t, []issuefields.Value{
		{FieldID: 1, Text: `quote " backslash \ <html> & tab` + "\t NUL \x00 line\u2028 émoji 😀"},
		{FieldID: 2, Number: math.Copysign(0, -1)},
		{FieldID: 3, Number: -1.5e-7},
		{FieldID: 4, Number: 1e21},
		{FieldID: 5, Number: 0.1},
		{FieldID: 6, Date: "2026-11-24"},
		{FieldID: 7, OptionIDs: []int64{3, 1, 9007199254740993}},
		{FieldID: 8},
	})
}

func TestEncodeValuesRefusesWhatJSONCannotHold(t *testing.T) {
	for _, n := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if data, err := encodeValues([]issuefields.Value{{FieldID: 1, Number: n}}); err == nil {
			t.Errorf("encodeValues of number %v = %s, want an error", n, data)
		}
	}
}

func FuzzEncodeValues(f *testing.F) {
	f.Add(int64(1), "text <&> \"\\\x00", 1.5, "2026-01-02", int64(7))
	f.Add(int64(2), "bad \xff utf-8", math.Copysign(0, -1), "", int64(0))
	f.Fuzz(func(t *testing.T, id int64, text string, number float64, date string, option int64) {
		if math.IsNaN(number) || math.IsInf(number, 0) {
			t.Skip("not a value a number field can hold")
		}
		v := issuefields.Value{FieldID: id, Text: text, Number: number, Date: date}
		if option != 0 {
			v.OptionIDs = []int64{option, id}
		}
		checkEncodeValues(t, []issuefields.Value{v, {FieldID: id + 1}})
	})
}
