package issuefields

import (
	"errors"
	"fmt"
	"slices"
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
	rules := rulesOf(f.DataType)
	if rules == nil {
		return fmt.Errorf("unknown data type %q", f.DataType)
	}
	if rules.hasOptions {
		return validateOptions(f)
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

// FieldPlan is a change of an organization's fields that PlanFieldChange has
// checked, ready for a FieldManager to store.
type FieldPlan struct {
	// Fields are the organization's new fields, in order, each field and
	// option with its ID. They share no memory with the slices given to
	// PlanFieldChange.
	Fields []Field
	// LastID is the largest ID that a field or an option of the
	// organization has had. The store keeps it and gives it to the next
	// PlanFieldChange of the organization, so that no ID is used twice.
	LastID int64
	// Removes reports whether the change removes a field or an option, and
	// with it the values that use them.
	Removes bool
}

// PlanFieldChange plans the change of an organization's fields from current to
// next. lastID is what the store kept from the organization's previous plan
// (zero for none). Fields and options of next with ID 0 get new IDs, above
// lastID and every ID of current. It returns an error, which the store returns
// as it is, if next is not a valid set of fields (see ValidateField), if a
// field of next has an ID that no field of current has, or an option an ID
// that no option of that field has, or if a field's data type changes.
func PlanFieldChange(current, next []Field, lastID int64) (FieldPlan, error) {
	for _, f := range current {
		lastID = max(lastID, f.ID)
		for _, o := range f.Options {
			lastID = max(lastID, o.ID)
		}
	}
	plan := FieldPlan{Fields: make([]Field, len(next))}
	kept := make(map[int64]bool, len(next))
	for i, f := range next {
		f.Options = slices.Clone(f.Options)
		old := fieldByID(current, f.ID)
		switch {
		case f.ID == 0:
			lastID++
			f.ID = lastID
		case old == nil:
			return FieldPlan{}, fmt.Errorf("field %d is not a field of the organization", f.ID)
		case old.DataType != f.DataType:
			return FieldPlan{}, fmt.Errorf("field %d: the data type cannot change from %s to %s", f.ID, old.DataType, f.DataType)
		}
		for j := range f.Options {
			o := &f.Options[j]
			switch {
			case o.ID == 0:
				lastID++
				o.ID = lastID
			case old == nil || !slices.ContainsFunc(old.Options, func(p Option) bool { return p.ID == o.ID }):
				return FieldPlan{}, fmt.Errorf("field %d: option %d is not an option of the field", f.ID, o.ID)
			}
		}
		if err := ValidateField(plan.Fields[:i], f); err != nil {
			return FieldPlan{}, err
		}
		plan.Fields[i] = f
		kept[f.ID] = true
	}
	plan.LastID = lastID
	for _, f := range current {
		if !kept[f.ID] {
			plan.Removes = true
			break
		}
		now := fieldByID(plan.Fields, f.ID)
		for _, o := range f.Options {
			if !slices.ContainsFunc(now.Options, func(p Option) bool { return p.ID == o.ID }) {
				plan.Removes = true
			}
		}
	}
	return plan, nil
}

// PruneValues returns values without what fields no longer define: the values
// of fields that are not among fields, and the options that a select field no
// longer has (a value left without options goes too). It never modifies
// values; when nothing goes it returns values itself and false.
func PruneValues(values []Value, fields []Field) ([]Value, bool) {
	var pruned []Value
	for i, v := range values {
		keep, changed := pruneValue(v, fieldByID(fields, v.FieldID))
		if pruned == nil && !changed {
			continue
		}
		if pruned == nil {
			pruned = append(make([]Value, 0, len(values)), values[:i]...)
		}
		if keep.FieldID != 0 {
			pruned = append(pruned, keep)
		}
	}
	if pruned == nil {
		return values, false
	}
	return pruned, true
}

// pruneValue returns v without the options that f does not have, or a zero
// Value when v must go, and whether anything changed. f is nil for a field
// that no longer exists.
func pruneValue(v Value, f *Field) (Value, bool) {
	if f == nil {
		return Value{}, true
	}
	if !hasOptions(f.DataType) {
		return v, false
	}
	ids := slices.DeleteFunc(slices.Clone(v.OptionIDs), func(id int64) bool {
		return !slices.ContainsFunc(f.Options, func(o Option) bool { return o.ID == id })
	})
	switch {
	case len(ids) == len(v.OptionIDs):
		return v, false
	case len(ids) == 0:
		return Value{}, true
	}
	v.OptionIDs = ids
	return v, true
}
