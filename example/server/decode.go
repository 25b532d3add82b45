package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// decodeStrict decodes data, one JSON object, into f. Besides JSON syntax it
// checks what encoding/json would let pass: a key the format does not have
// (keys match exactly, not regardless of case), a key given twice in one
// object, a value of the wrong JSON type, null where a string, number or
// boolean belongs, and a number that is not an integer where an integer
// belongs. A syntax error is reported with its line and column, any other
// fault with its path in the file, such as repositories[0].issues[1].number.
func decodeStrict(data []byte, f *dataFile) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	err := dec.Decode(&raw)
	var syntax *json.SyntaxError
	switch {
	case err == io.EOF:
		return errors.New("the file holds no JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the file ends before its JSON object does")
	case errors.As(err, &syntax):
		return fmt.Errorf("%s: %w", position(data, syntax.Offset), err)
	case err != nil:
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%s: data after the end of the top-level object", position(data, dec.InputOffset()))
	}
	shape := json.NewDecoder(bytes.NewReader(raw))
	shape.UseNumber()
	if err := checkValue(shape, reflect.TypeFor[dataFile](), ""); err != nil {
		return err
	}
	return json.Unmarshal(raw, f)
}

// position returns the line and column of the last byte of data[:end]: the
// encoding/json package reports the place of a syntax error as the offset
// just after the byte that shows it.
func position(data []byte, end int64) string {
	before := data[:max(0, min(int(end)-1, len(data)))]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// checkValue reads the next JSON value from dec, which holds valid JSON with
// numbers as json.Number, and checks that it fits Go type t, one of the types
// of dataFile. path is the value's place in the file, "" for the top level.
// A json.RawMessage fits any value: it is checked when it is used.
func checkValue(dec *json.Decoder, t reflect.Type, path string) error {
	if t == rawMessageType {
		return skipValue(dec)
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		switch t.Kind() {
		case reflect.Slice, reflect.Map, reflect.Pointer:
			return nil // the same as leaving the key out
		}
		return wrongType(path, t, tok)
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		if tok != json.Delim('{') {
			return wrongType(path, t, tok)
		}
		return checkObject(dec, t, path)
	case reflect.Slice:
		if tok != json.Delim('[') {
			return wrongType(path, t, tok)
		}
		for i := 0; dec.More(); i++ {
			if err := checkValue(dec, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		_, err := dec.Token() // ]
		return err
	case reflect.String:
		if _, ok := tok.(string); !ok {
			return wrongType(path, t, tok)
		}
	case reflect.Bool:
		if _, ok := tok.(bool); !ok {
			return wrongType(path, t, tok)
		}
	case reflect.Int64:
		n, ok := tok.(json.Number)
		if !ok {
			return wrongType(path, t, tok)
		}
		if _, err := strconv.ParseInt(string(n), 10, 64); err != nil {
			return fmt.Errorf("%swant an integer, got %s", pathPrefix(path), n)
		}
	default:
		panic(fmt.Sprintf("checkValue: the data file has a value of Go type %s", t))
	}
	return nil
}

// checkObject reads the keys and values of a JSON object whose { dec has
// just read, up to its }, and checks them against t: a struct, whose JSON
// keys are the only ones allowed, or a map with string keys.
func checkObject(dec *json.Decoder, t reflect.Type, path string) error {
	seen := make(map[string]bool)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string) // a valid object's next token is a key
		var elem reflect.Type
		var where string
		if t.Kind() == reflect.Map {
			elem, where = t.Elem(), fmt.Sprintf("%s[%q]", path, key)
		} else {
			f, ok := fieldOfKey(t, key)
			if !ok {
				return fmt.Errorf("%sunknown key %q; want %s", pathPrefix(path), key, orList(keysOf(t)))
			}
			elem, where = f.Type, key
			if path != "" {
				where = path + "." + key
			}
		}
		if seen[key] {
			return fmt.Errorf("%sthe key %q is given twice", pathPrefix(path), key)
		}
		seen[key] = true
		if err := checkValue(dec, elem, where); err != nil {
			return err
		}
	}
	_, err := dec.Token() // }
	return err
}

// skipValue reads the next JSON value from dec, whatever it is.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// fieldOfKey returns the field of struct type t whose JSON key is key.
func fieldOfKey(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if f := t.Field(i); jsonKey(f) == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// keysOf returns the JSON keys of struct type t, in the order of its fields.
func keysOf(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		keys = append(keys, jsonKey(t.Field(i)))
	}
	return keys
}

// jsonKey returns the key of f in JSON, the name its json tag gives it.
func jsonKey(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// wrongType returns the error for tok, a JSON value that does not fit Go type
// t, at path.
func wrongType(path string, t reflect.Type, tok json.Token) error {
	return fmt.Errorf("%swant %s, got %s", pathPrefix(path), jsonKind(t), tokenKind(tok))
}

// jsonKind names the JSON values that Go type t is decoded from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int64:
		return "an integer"
	case reflect.Slice:
		return "an array"
	}
	return "an object"
}

// tokenKind names the kind of JSON value that tok begins.
func tokenKind(tok json.Token) string {
	switch tok := tok.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return strconv.FormatBool(tok)
	case json.Delim:
		if tok == '[' {
			return "an array"
		}
	}
	return "an object"
}

// pathPrefix returns the prefix of an error message about the value at path:
// the path and a colon, or nothing for the top level.
func pathPrefix(path string) string {
	if path == "" {
		return ""
	}
	return path + ": "
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
