package graphql

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestVariablesDecodedAsEncodingJSON checks that the package's decoder of
// variables gives what json.Unmarshal gives into a map[string]any.
func TestVariablesDecodedAsEncodingJSON(t *testing.T) {
	for _, doc := range []string{
		`{}`,
		`{"owner":"octo-org","number":1,"first":100}`,
		` { "a" : [ 1 , -2 , 2.5 , -0.5 , 1e3 , 1234567890123456789 ] , "b" : { "c" : null , "d" : true , "e" : false } } `,
		`{"text":"tab\tquote\"backslash\\ \u00e9 \ud83d\ude00 \/","fieldId":"IF_AAE"}`,
		`{"input":{"issueId":"I_x","issueFields":[{"fieldId":"IF_1","numberValue":0},{"fieldId":"IF_2","delete":true}]}}`,
		`{"esc\u0061ped":"key"}`,
	} {
		var want map[string]any
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatal(err)
		}
		if got := variablesOf([]byte(doc)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", doc, got, want)
		}
	}
	if got := variablesOf([]byte(`null`)); got != nil {
		t.Errorf("null: %#v, want nil", got)
	}
}
