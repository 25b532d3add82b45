package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/issuefields/issuefields"
)

// maxTextLength is the most characters a text value may have.
const maxTextLength = 1024

// issueValues converts the values of an issue of repo, given in the API's
// request format, to the store's form, checking each against its field
// among fields with the rules the API applies to a request. at is the place
// of the issue in the file.
func issueValues(repo issuefields.Repository, fields []issuefields.Field, items []valueData, at string) ([]issuefields.Value, error) {
	values := make([]issuefields.Value, 0, len(items))
	seen := make(map[int64]int)
	for k, item := range items {
		where := fmt.Sprintf("%s.values[%d]", at, k)
		if first, ok := seen[item.FieldID]; ok {
			return nil, fmt.Errorf("%s: field %d already has a value in values[%d]", where, item.FieldID, first)
		}
		seen[item.FieldID] = k
		i := slices.IndexFunc(fields, func(f issuefields.Field) bool { return f.ID == item.FieldID })
		if i < 0 {
			return nil, fmt.Errorf("%s: %s", where, notAField(repo, item.FieldID))
		}
		v, err := storedValue(&fields[i], item.Value)
		if err != nil {
			return nil, fmt.Errorf("%s.value: %w", where, err)
		}
		values = append(values, v)
	}
	return values, nil
}

// notAField explains why id is not a field of repo.
func notAField(repo issuefields.Repository, id int64) string {
	if !repo.OwnedByOrganization {
		return fmt.Sprintf("field %d is not a field of %s/%s: its owner %q is not an organization of the file, so it has no fields", id, repo.Owner, repo.Name, repo.Owner)
	}
	return fmt.Sprintf("field %d is not a field of organization %q", id, repo.Owner)
}

// storedValue converts raw, a value in the API's request format, to the
// store's form for field f.
func storedValue(f *issuefields.Field, raw json.RawMessage) (issuefields.Value, error) {
	v := issuefields.Value{FieldID: f.ID}
	kind := jsonKind(raw)
	want := func(what string) error {
		return fmt.Errorf("field %d (%q) is a %s field: want %s, got %s", f.ID, f.Name, f.DataType, what, describe(raw, kind))
	}
	switch f.DataType {
	case issuefields.Text:
		if kind != "a string" || json.Unmarshal(raw, &v.Text) != nil || v.Text == "" || utf8.RuneCountInString(v.Text) > maxTextLength {
			return v, want(fmt.Sprintf("a string of 1 to %d characters", maxTextLength))
		}
	case issuefields.Number:
		if kind != "a number" || json.Unmarshal(raw, &v.Number) != nil {
			return v, want("a finite number that fits a 64-bit float")
		}
	case issuefields.Date:
		if kind != "a string" || json.Unmarshal(raw, &v.Date) != nil || !isDate(v.Date) {
			return v, want(`a real calendar date as a "YYYY-MM-DD" string`)
		}
	case issuefields.SingleSelect:
		var name string
		if kind != "a string" || json.Unmarshal(raw, &name) != nil {
			return v, want("an option name: " + optionNames(f))
		}
		id, err := optionID(f, name)
		if err != nil {
			return v, err
		}
		v.OptionIDs = []int64{id}
	case issuefields.MultiSelect:
		var names []string
		if kind != "an array" || json.Unmarshal(raw, &names) != nil || len(names) == 0 {
			return v, want("a non-empty array of option names: " + optionNames(f))
		}
		ids, err := optionIDs(f, names)
		if err != nil {
			return v, err
		}
		v.OptionIDs = ids
	}
	return v, nil
}

// jsonKind describes the JSON type of raw, for error messages.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "no value"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case '{':
		return "an object"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// describe shows raw, whose JSON type is kind, in an error message: a short
// string as it is, anything else by its type.
func describe(raw json.RawMessage, kind string) string {
	var s string
	if kind != "a string" || json.Unmarshal(raw, &s) != nil {
		return kind
	}
	if n := utf8.RuneCountInString(s); n > 40 {
		return fmt.Sprintf("a string of %d characters", n)
	}
	return fmt.Sprintf("%q", s)
}

// isDate reports whether s is a real calendar date written YYYY-MM-DD.
func isDate(s string) bool {
	t, err := time.Parse(time.DateOnly, s)
	return err == nil && t.Format(time.DateOnly) == s
}

// optionNames lists the option names of f, for error messages.
func optionNames(f *issuefields.Field) string {
	names := make([]string, len(f.Options))
	for i, o := range f.Options {
		names[i] = fmt.Sprintf("%q", o.Name)
	}
	return strings.Join(names, ", ")
}

// optionID returns the ID of f's option called name.
func optionID(f *issuefields.Field, name string) (int64, error) {
	for _, o := range f.Options {
		if o.Name == name {
			return o.ID, nil
		}
	}
	return 0, fmt.Errorf("%q is not an option of field %d (%q); its options are %s", name, f.ID, f.Name, optionNames(f))
}

// optionIDs returns the IDs of f's options called names, in f's option
// order. Each name must be an option of f, and appear once.
func optionIDs(f *issuefields.Field, names []string) ([]int64, error) {
	for i, name := range names {
		if slices.Contains(names[:i], name) {
			return nil, fmt.Errorf("option %q is listed twice", name)
		}
		if _, err := optionID(f, name); err != nil {
			return nil, err
		}
	}
	var ids []int64
	for _, o := range f.Options {
		if slices.Contains(names, o.Name) {
			ids = append(ids, o.ID)
		}
	}
	return ids, nil
}
