package issuefields

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/issuefields/issuefields/internal/fieldname"
)

// The rules of field definitions, which the field management routes apply to
// every field they create or change, and ValidateFields to a whole set.

// Bounds of field definitions.
const (
	// maxFields is the most fields the field management routes let an
	// organization have (GitHub's limit). A store filled by other means may
	// hold more.
	maxFields = 25
	// maxOptions is the most options of a select field.
	maxOptions = 50
	// maxDescriptionLength is the most characters of a field's or an
	// option's description.
	maxDescriptionLength = 1024
)

// optionColors are the colors an option of a select field may have.
var optionColors = []string{"gray", "blue", "green", "yellow", "orange", "red", "pink", "purple"}

// ValidateFields reports what makes fields unfit to be one organization's
// field definitions, or returns nil: IDs of fields, and of the options within
// a field, that are not positive or not unique; a data type that is not one
// of the five; options on a field that is not a select field, or none on one
// that is, or more than 50; a color that is not gray, blue, green, yellow,
// orange, red, pink or purple; a description of more than 1,024 characters;
// and a name that breaks the rules of names or that another field (or
// another option of the same field) has.
//
// A name is 1 to 64 characters, with no white space at either end, no
// control character, no bidirectional control, and something visible. Two
// names are the same when they are equal after Unicode NFKC normalization,
// case folding, and removal of default-ignorable characters (such as zero-width
// spaces): "Priority", "priority", "Ｐriority" and "Priority" followed by a
// zero-width space are one name.
//
// It does not count the fields: the field management routes refuse to create
// more than 25 (GitHub's limit), but a store filled by other means may hold
// more. The error joins one error per problem, each naming the field.
func ValidateFields(fields []Field) error {
	var errs []error
	ids := make(map[int64]*Field, len(fields))
	names := make(map[string]*Field, len(fields))
	for i := range fields {
		f := &fields[i]
		fail := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("field %d %q: %s", f.ID, f.Name, fmt.Sprintf(format, args...)))
		}
		switch other, taken := ids[f.ID]; {
		case f.ID <= 0:
			fail("id is not positive")
		case taken:
			fail("id already used by field %q", other.Name)
		default:
			ids[f.ID] = f
		}
		if key := fieldname.Key(f.Name); names[key] != nil && f.Name != "" {
			fail("duplicate field name %q: field %d is called %q", f.Name, names[key].ID, names[key].Name)
		} else {
			names[key] = f
		}
		optionIDs := make(map[int64]bool, len(f.Options))
		for _, o := range f.Options {
			switch {
			case o.ID <= 0:
				fail("option %q: id %d is not positive", o.Name, o.ID)
			case optionIDs[o.ID]:
				fail("duplicate option id %d", o.ID)
			}
			optionIDs[o.ID] = true
		}
		for _, problem := range definitionProblems(f) {
			fail("%s", problem)
		}
	}
	return errors.Join(errs...)
}

// definitionProblems reports what is wrong with f on its own, or with its
// options among themselves, but for IDs: each problem a phrase that names the
// part of f at fault.
func definitionProblems(f *Field) []string {
	var problems []string
	if p := fieldname.Problem(f.Name); p != "" {
		problems = append(problems, p)
	}
	if n := utf8.RuneCountInString(f.Description); n > maxDescriptionLength {
		problems = append(problems, fmt.Sprintf("the description has %d characters; it may have at most %d", n, maxDescriptionLength))
	}
	rules := rulesOf(f.DataType)
	switch {
	case rules == nil:
		return append(problems, fmt.Sprintf("unknown data type %q", f.DataType))
	case !rules.hasOptions && len(f.Options) > 0:
		return append(problems, fmt.Sprintf("a %s field has no options", f.DataType))
	case !rules.hasOptions:
		return problems
	case len(f.Options) == 0:
		return append(problems, fmt.Sprintf("a %s field needs at least one option", f.DataType))
	case len(f.Options) > maxOptions:
		problems = append(problems, fmt.Sprintf("it has %d options; a field may have at most %d", len(f.Options), maxOptions))
	}
	names := make(map[string]string, len(f.Options))
	for _, o := range f.Options {
		option := fmt.Sprintf("option %q", o.Name)
		switch {
		case o.Name != "":
		case o.ID != 0:
			option = fmt.Sprintf("option %d", o.ID)
		default:
			option = "an unnamed option"
		}
		if p := fieldname.Problem(o.Name); p != "" {
			problems = append(problems, option+": "+p)
		} else if key := fieldname.Key(o.Name); names[key] != "" {
			problems = append(problems, fmt.Sprintf("duplicate option name %q: another option is called %q", o.Name, names[key]))
		} else {
			names[key] = o.Name
		}
		if !slices.Contains(optionColors, o.Color) {
			problems = append(problems, fmt.Sprintf("%s: color %q is not one of %s", option, o.Color, strings.Join(optionColors, ", ")))
		}
		if n := utf8.RuneCountInString(o.Description); n > maxDescriptionLength {
			problems = append(problems, fmt.Sprintf("%s: the description has %d characters; it may have at most %d", option, n, maxDescriptionLength))
		}
	}
	return problems
}
