package datafile

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

// Parse decodes data, a data file: one JSON object. Besides JSON syntax it
// checks what encoding/json would let pass: a key the format does not have
// (keys match exactly, not regardless of case), a key given twice in one
// object, a value of the wrong JSON type, null where a string, number or
// boolean belongs, and a number that is not an integer where an integer
// belongs. A syntax error is reported with its line and column, any other
// fault with its path in the file, such as repositories[0].issues[1].number.
// The rules of the format that are not about JSON are Load's to check.
func Parse(data []byte) (*File, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	err := dec.Decode(&raw)
	var syntax *json.SyntaxError
	switch {
	case err == io.EOF:
		return nil, errors.New("the file holds no JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, errors.New("the file ends before its JSON object does")
	case errors.As(err, &syntax):
		return nil, fmt.Errorf("%s: %w", position(data, syntax.Offset), err)
	case err != nil:
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: data after the end of the top-level object", position(data, dec.InputOffset()))
	}
	shape := json.NewDecoder(bytes.NewReader(raw))
	shape.UseNumber()
	if err := checkValue(shape, reflect.TypeFor[File](), ""); err != nil {
		return nil, err
	}
	f := new(File)
	if err := json.Unmarshal(raw, f); err != nil {
		return nil, err
	}
	return f, nil
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

// checkValue reads the next JSON value from dec, which holds valid JSON with
// numbers as json.Number, and checks that it fits Go type t, one of the types
// of File. path is the value's place in the file, "" for the top level.
// A json.RawMessage fits any value: the handler checks it when it is used.
func checkValue(dec *json.Decoder, t reflect.Type, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if t == reflect.TypeFor[json.RawMessage]() {
		for depth := 0; ; tok, err = dec.Token() {
			switch {
			case err != nil:
				return err
			case tok == json.Delim('{') || tok == json.Delim('['):
				depth++
			case tok == json.Delim('}') || tok == json.Delim(']'):
				depth--
			}
			if depth == 0 {
				return nil
			}
		}
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	at := path
	if at != "" {
		at += ": "
	}
	switch k := t.Kind(); {
	case tok == nil && (k == reflect.Slice || k == reflect.Map):
		return nil // the same as leaving the key out
	case !fits(k, tok):
		return fmt.Errorf("%swant %s, got %s", at, jsonKinds[k], tokenKind(tok))
	case k == reflect.Int64:
		if _, err := strconv.ParseInt(string(tok.(json.Number)), 10, 64); err != nil {
			return fmt.Errorf("%swant an integer, got %s", at, tok)
		}
	case k == reflect.Slice:
		for i := 0; dec.More(); i++ {
			if err := checkValue(dec, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		_, err := dec.Token() // ]
		return err
	case k == reflect.Struct || k == reflect.Map:
		return checkObject(dec, t, path, at)
	}
	return nil
}

// jsonKinds names the JSON values that each kind of Go type of File is
// decoded from.
var jsonKinds = map[reflect.Kind]string{
	reflect.String: "a string", reflect.Bool: "true or false", reflect.Int64: "an integer",
	reflect.Slice: "an array", reflect.Struct: "an object", reflect.Map: "an object",
}

// fits reports whether tok begins a JSON value that a Go type of kind k is
// decoded from.
func fits(k reflect.Kind, tok json.Token) bool {
	switch tok.(type) {
	case string:
		return k == reflect.String
	case json.Number:
		return k == reflect.Int64
	case bool:
		return k == reflect.Bool
	}
	return tok == json.Delim('[') && k == reflect.Slice || tok == json.Delim('{') && (k == reflect.Struct || k == reflect.Map)
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
	}
	if tok == json.Delim('[') {
		return "an array"
	}
	return "an object"
}

// checkObject reads the keys and values of a JSON object whose { dec has
// just read, up to its }, and checks them against t: a struct, whose JSON
// keys are the only ones allowed, or a map with string keys. at is the
// object's path as the beginning of a message.
func checkObject(dec *json.Decoder, t reflect.Type, path, at string) error {
	var keys []string
	fields := make(map[string]reflect.Type)
	for i := 0; t.Kind() == reflect.Struct && i < t.NumField(); i++ {
		key, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		keys, fields[key] = append(keys, key), t.Field(i).Type
	}
	seen := make(map[string]bool)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string) // a valid object's next token is a key
		elem, where := fields[key], path+"."+key
		switch {
		case t.Kind() == reflect.Map:
			elem, where = t.Elem(), fmt.Sprintf("%s[%q]", path, key)
		case elem == nil:
			return fmt.Errorf("%sunknown key %q; want %s or %s", at, key, strings.Join(keys[:len(keys)-1], ", "), keys[len(keys)-1])
		case path == "":
			where = key
		}
		if seen[key] {
			return fmt.Errorf("%sthe key %q is given twice", at, key)
		}
		seen[key] = true
		if err := checkValue(dec, elem, where); err != nil {
			return err
		}
	}
	_, err := dec.Token() // }
	return err
}
