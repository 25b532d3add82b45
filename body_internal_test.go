package issuefields

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// jsonSamples are valid and invalid JSON texts at the edges of the grammar,
// bodies that repeat keys, and bodies with too many items.
var jsonSamples = []string{
	``, ` `, `{}`, ` { } `, `[]`, `[1,2]`, `[1,]`, `[,1]`, `{"a":1}`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `{"a":}`,
	`{"a":1 "b":2}`, `"x"`, `"\u00e9\n\t\"\\\/\b\f\r"`, `"\x"`, `"\u12"`, `"\u12G4"`, "\"\x01\"", `"unterminated`,
	`0`, `-0`, `01`, `-`, `1.`, `.5`, `1.5e`, `1e+`, `1E-7`, `-12.50e+003`, `1e400`, `+1`, `0x1`,
	`true`, `false`, `null`, `nul`, `True`, `truex`, `true false`, `[true,false,null]`,
	"\"caf\xc3\xa9\"", "\"\xff\"", "\"\xed\xa0\x80\"", "\xef\xbb\xbf{}", "[\"\xc3\"]", "{\"\xc3\xa9\":1,\"\\u00e9\":2}",
	strings.Repeat("[", maxJSONDepth) + strings.Repeat("]", maxJSONDepth),
	strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1),
	`{"issue_field_values":[{"field_id":1,"value":"x"},{"field_id":2,"value":["a","b"]}]}`,
	`{"issue_field_values":[{"field_id":1,"value":"x"}],"issue_field_values":[]}`,
	`{"issue_field_values":[{"field_id":1,"value":"x","value":null}]}`,
	`{"issue_field_values":[],"other":{"a":1,"\u0061":2}}`,
	`{"issue_field_values":[{"field_id":1,"value":{"a":1,"b":2}}],"x":{"a":{"a":1},"b":{"a":1}}}`,
	`{` + manyKeysBody(40, 17) + `,"issue_field_values":[]}`,
	`{` + manyKeysBody(40, -1) + `,"issue_field_values":[]}`,
	`{"issue_field_values":[` + strings.Repeat(`1,`, maxItems) + `1]}`,
	`{"issue_field_values":[` + strings.Repeat(`1,`, maxItems) + `1, garbage`,
	`{"issue_field_values":[` + strings.Repeat(`1,`, maxItems-1) + `1]}`,
	`{"a":1,"a":2,"issue_field_values":[` + strings.Repeat(`1,`, maxItems) + `1]}`,
	`{"issue_field_values":"not an array"}`, `{"issue_field_value":[]}`,
	`{"name":"Size","data_type":"single_select","options":[{"name":"S","color":"red"}],"description":null,"x":1,"y":[]}`,
	`{"name":1,"visibility":"all","options":{}}`,
	`{"options":[` + strings.Repeat(`{},`, maxOptions) + `{}]}`,
}

// manyKeysBody returns n members "k0":0, "k1":1, …, with key k0 again as
// member dup (none when dup is negative).
func manyKeysBody(n, dup int) string {
	members := make([]string, n)
	for i := range members {
		members[i] = fmt.Sprintf(`"k%d":%d`, i, i)
	}
	if dup >= 0 {
		members[dup] = `"k0":0`
	}
	return strings.Join(members, ",")
}

// scanned is what the scanner made of a body with a shape: what it kept, or
// the error.
type scanned struct {
	body requestBody
	err  error
}

// String describes sc, to compare two scans.
func (sc scanned) String() string {
	if sc.err != nil {
		return "error: " + sc.err.Error()
	}
	b := sc.body
	return fmt.Sprintf("list %t, array %t, items %q, members %q, unknown %q", b.hasList, b.listIsArray, b.items, b.members, b.unknown)
}

// scanWith scans data as read through r, keeping what shape says.
func scanWith(r io.Reader, shape *bodyShape) scanned {
	var buf [scanBufferBytes]byte
	s := bodyScanner{r: r, buf: buf[:], shape: shape}
	if err := s.scan(); err != nil {
		return scanned{err: err}
	}
	return scanned{body: s.result()}
}

// tooManyItems reports whether err refuses a body for the number of items of
// its list.
func tooManyItems(err error, shape *bodyShape) bool {
	return err != nil && err == shape.tooMany
}

// duplicateKeyIn reports whether the JSON text data has an object in which a
// key appears twice, as encoding/json decodes keys; of a text that is not
// JSON, it reads the part before the first error.
func duplicateKeyIn(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object bool
		keys   map[string]bool
		// key is set when the next string token is a key.
		key bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		top := (*frame)(nil)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if s, ok := tok.(string); ok && top != nil && top.object && top.key {
			if top.keys[s] {
				return true
			}
			top.keys[s] = true
			top.key = false
			continue
		}
		if top != nil && top.object {
			top.key = true // the value is done, or begins here (a container)
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, keys: map[string]bool{}, key: true})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
	}
}

// shapes are the shapes of the routes that take a body.
var shapes = []*bodyShape{&valuesBody, &fieldBody}

// checkScan checks the scanner against the standard library on data, with
// every shape: valid JSON (with valid UTF-8) is accepted as JSON, a body that
// repeats a key is refused saying so, and what the scanner keeps is what
// encoding/json finds. A body refused for too many items is only checked for
// having them, and one that is not JSON but refused for a repeated key, for
// repeating it before the error. The scanner must also come to the same
// result whatever the pieces the body arrives in.
func checkScan(t *testing.T, data []byte) {
	t.Helper()
	for _, shape := range shapes {
		checkScanShape(t, data, shape)
	}
}

// checkScan checks the scanner on data with shape.
func checkScanShape(t *testing.T, data []byte, shape *bodyShape) {
	t.Helper()
	got := scanWith(bytes.NewReader(data), shape)
	if oneByte := scanWith(iotest.OneByteReader(bytes.NewReader(data)), shape); oneByte.String() != got.String() {
		t.Fatalf("scan of %.80q: %v read at once, %v read a byte at a time", data, got, oneByte)
	}
	if tooManyItems(got.err, shape) {
		if !bytes.Contains(data, []byte(shape.list)) || bytes.Count(data, []byte(",")) < shape.maxItems {
			t.Fatalf("scan of %.80q: refused for too many %s", data, shape.list)
		}
		return
	}
	valid := utf8.Valid(data) && json.Valid(data)
	if !valid && errors.Is(got.err, errDuplicateKey) {
		// The scanner refuses a repeated key as soon as it reads it,
		// before the rest of the body shows whether it is JSON.
		if !duplicateKeyIn(data) {
			t.Fatalf("scan of %.80q: refused for a duplicate key", data)
		}
		return
	}
	if notJSON := errors.Is(got.err, errBodyNotJSON); notJSON == valid {
		t.Fatalf("scan of %.80q: error %v; valid JSON: %v", data, got.err, valid)
	}
	if !valid {
		return
	}
	var top any
	_ = json.Unmarshal(data, &top)
	object, isObject := top.(map[string]any)
	switch {
	case !isObject:
		if !errors.Is(got.err, errBodyNotObject) {
			t.Fatalf("scan of %.80q: error %v, want not an object", data, got.err)
		}
	case duplicateKeyIn(data):
		if !errors.Is(got.err, errDuplicateKey) {
			t.Fatalf("scan of %.80q: error %v, want a duplicate key", data, got.err)
		}
	case errors.Is(got.err, errDuplicateKey):
		t.Fatalf("scan of %.80q: refused for a duplicate key", data)
	}
	if got.err != nil {
		return
	}
	checkKept(t, data, object, shape, got.body)
}

// checkKept checks what the scanner kept of data, a valid JSON object with no
// repeated key, against what encoding/json finds in it.
func checkKept(t *testing.T, data []byte, object map[string]any, shape *bodyShape, got requestBody) {
	t.Helper()
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(data, &raw)
	list, hasList := raw[shape.list]
	_, isArray := object[shape.list].([]any)
	var items []json.RawMessage
	if isArray {
		_ = json.Unmarshal(list, &items)
	}
	if got.hasList != hasList || got.listIsArray != isArray || len(got.items) != len(items) {
		t.Fatalf("scan of %.80q: list %t, array %t, %d items; encoding/json finds %t, %t, %d",
			data, got.hasList, got.listIsArray, len(got.items), hasList, isArray, len(items))
	}
	for i := range items {
		if !bytes.Equal(bytes.TrimSpace(items[i]), got.items[i]) {
			t.Fatalf("scan of %.80q: item %d is %q, want %q", data, i, got.items[i], items[i])
		}
	}
	for i, m := range shape.members {
		if want := bytes.TrimSpace(raw[m]); !bytes.Equal(got.members[i], want) {
			t.Fatalf("scan of %.80q: member %q is %q, want %q", data, m, got.members[i], want)
		}
	}
	var unknown []string
	dec := json.NewDecoder(bytes.NewReader(data))
	_, _ = dec.Token() // {
	for dec.More() {
		key, _ := dec.Token()
		var skip json.RawMessage
		_ = dec.Decode(&skip)
		if k := key.(string); k != shape.list && !slices.Contains(shape.members, k) {
			unknown = append(unknown, k)
		}
	}
	if !slices.Equal(got.unknown, unknown) {
		t.Fatalf("scan of %.80q: unknown keys %q, want %q", data, got.unknown, unknown)
	}
}

func TestBodyScannerAgreesWithTheStandardLibrary(t *testing.T) {
	for _, s := range jsonSamples {
		checkScan(t, []byte(s))
	}
}

// FuzzBodyScanner checks the scanner against the standard library on
// arbitrary bodies: JSON validity, duplicate keys, the items and their count.
func FuzzBodyScanner(f *testing.F) {
	for _, s := range jsonSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkScan(t, data) })
}

// TestDuplicateKeyNamed checks that the refusal of a repeated key names it.
func TestDuplicateKeyNamed(t *testing.T) {
	got := scanWith(strings.NewReader(`{"issue_field_values":[{"field_id":1,"value":"a","\u0076alue":"b"}]}`), &valuesBody)
	var re *requestError
	if !errors.As(got.err, &re) || !errors.Is(got.err, errDuplicateKey) || !strings.Contains(re.message, `"value"`) {
		t.Errorf("error %v, want a duplicate key that names \"value\"", got.err)
	}
}
