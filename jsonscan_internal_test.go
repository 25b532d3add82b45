package issuefields

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// jsonSamples are valid and invalid JSON texts at the edges of the grammar.
var jsonSamples = []string{
	``, ` `, `{}`, ` { } `, `[]`, `[1,2]`, `[1,]`, `[,1]`, `{"a":1}`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `{"a":}`,
	`{"a":1 "b":2}`, `"x"`, `"\u00e9\n\t\"\\\/\b\f\r"`, `"\x"`, `"\u12"`, `"\u12G4"`, "\"\x01\"", `"unterminated`,
	`0`, `-0`, `01`, `-`, `1.`, `.5`, `1.5e`, `1e+`, `1E-7`, `-12.50e+003`, `1e400`, `+1`, `0x1`,
	`true`, `false`, `null`, `nul`, `True`, `truex`, `true false`, `[true,false,null]`,
	"\"caf\xc3\xa9\"", "\"\xff\"", "\"\xed\xa0\x80\"", "\xef\xbb\xbf{}", "[\"\xc3\"]",
	strings.Repeat("[", maxJSONDepth) + strings.Repeat("]", maxJSONDepth),
	strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1),
	`{"issue_field_values":[{"field_id":1,"value":"x"},{"field_id":2,"value":["a","b"]}]}`,
}

// TestValidJSONAgreesWithTheStandardLibrary checks validJSON on the samples
// against utf8.Valid and json.Valid together.
func TestValidJSONAgreesWithTheStandardLibrary(t *testing.T) {
	for _, s := range jsonSamples {
		if got, want := validJSON([]byte(s)), utf8.ValidString(s) && json.Valid([]byte(s)); got != want {
			t.Errorf("validJSON(%.60q) = %v, want %v", s, got, want)
		}
	}
}

func FuzzValidJSON(f *testing.F) {
	for _, s := range jsonSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := validJSON(data), utf8.Valid(data) && json.Valid(data); got != want {
			t.Errorf("validJSON(%q) = %v, want %v", data, got, want)
		}
	})
}

// BenchmarkValidJSON compares validJSON with the pair of standard-library
// checks it replaces, on a body that writes ten values of every kind.
func BenchmarkValidJSON(b *testing.B) {
	items := []string{`"Crash when saving a draft with an attachment"`, `"naïve café"`, `5`, `-2.5e3`, `["Linux","Windows"]`}
	var body strings.Builder
	body.WriteString(`{"issue_field_values":[`)
	for i := range 10 {
		if i > 0 {
			body.WriteString(",")
		}
		fmt.Fprintf(&body, `{"field_id":%d,"value":%s}`, i+1, items[i%len(items)])
	}
	body.WriteString("]}")
	data := []byte(body.String())
	b.Run("validJSON", func(b *testing.B) {
		for b.Loop() {
			validJSON(data)
		}
	})
	b.Run("utf8.Valid+json.Valid", func(b *testing.B) {
		for b.Loop() {
			_ = utf8.Valid(data) && json.Valid(data)
		}
	})
}
