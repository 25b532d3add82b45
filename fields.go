package issuefields

import (
	"errors"
	"fmt"
)

// ValidateField reports what makes f unfit to join an organization whose
// fields are existing, or returns nil if nothing does: a non-positive ID, an
// empty name, an ID or a name that an existing field has, an unknown data
// type, options on a data type that has none, or select options that are
// missing, not positive, unnamed or not unique. Stores call it from the
// methods that add fields, so that every store holds the same kind of field.
func ValidateField(existing []Field, f Field) error {
	if f.ID <= 0 {
		return errors.New("id is not positive")
	}
	if f.Name == "" {
		return errors.New("empty name")
	}
	for _, g := range existing {
		if g.ID == f.ID {
			return fmt.Errorf("id already used by field %q", g.Name)
		}
		if g.Name == f.Name {
			return fmt.Errorf("duplicate field name %q", f.Name)
		}
	}
	switch f.DataType {
	case SingleSelect, MultiSelect:
		return validateOptions(f)
	}
	if !f.DataType.Valid() {
		return fmt.Errorf("unknown data type %q", f.DataType)
	}
	if len(f.Options) > 0 {
		return fmt.Errorf("a %s field has no options", f.DataType)
	}
	return nil
}

// validateOptions reports what is wrong with the options of select field f,
// or returns nil if nothing is.
func validateOptions(f Field) error {
	if len(f.Options) == 0 {
		return fmt.Errorf("a %s field needs at least one option", f.DataType)
	}
	ids := make(map[int64]bool, len(f.Options))
	names := make(map[string]bool, len(f.Options))
	for _, o := range f.Options {
		switch {
		case o.ID <= 0:
			return fmt.Errorf("option %q: id %d is not positive", o.Name, o.ID)
		case o.Name == "":
			return fmt.Errorf("option %d: empty name", o.ID)
		case ids[o.ID]:
			return fmt.Errorf("duplicate option id %d", o.ID)
		case names[o.Name]:
			return fmt.Errorf("duplicate option name %q", o.Name)
		}
		ids[o.ID], names[o.Name] = true, true
	}
	return nil
}
