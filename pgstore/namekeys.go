package pgstore

import (
	_ "embed"
	"errors"
	"slices"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/fieldname"
	"github.com/jackc/pgx/v5/pgconn"
)

// Unique names: the fields table keeps the key of each field's name
// (name_key), and field_options that of each option's, computed with the
// handler's own function, fieldname.Key; unique indexes on them refuse a
// second field of an organization, or a second option of a field, with the
// same name, whichever server writes it.

// nameKeysSQL is schema step 6, which adds the keys and their indexes.
//
//go:embed migrations/006_name_keys.sql
var nameKeysSQL string

// nameIndexes are the unique indexes that refuse a name that another field
// of the organization, or another option of the field, has: by its key
// (schema step 6) or exactly as spelt (step 1).
var nameIndexes = []string{
	"fields_name_key", "field_options_name_key",
	"fields_account_id_name_key", "field_options_account_id_field_id_name_key",
}

// nameTaken reports whether err is the refusal of one of nameIndexes.
func nameTaken(err error) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "23505" { // unique_violation
		return false
	}
	return slices.Contains(nameIndexes, pgErr.ConstraintName)
}

// fieldKeys holds the keys that a field's row and its options' rows store:
// nil for a name that keeps none.
type fieldKeys struct {
	name    *string
	options []*string
}

// nameKeys returns the keys of stored, the fields that a change of an
// organization's fields stores in place of current, each at its index. A
// name that is new, or that the change altered, gets its key, so that the
// indexes refuse it if another field (or option of its field) has the same
// name. A name that the change kept gets its key too, unless a kept name
// before it has the same one: names from before the rule, which keep being
// served as they are, leave the key to the first of them.
func nameKeys(current, stored []issuefields.Field) []fieldKeys {
	before := make(map[int64]*issuefields.Field, len(current))
	for i := range current {
		before[current[i].ID] = &current[i]
	}
	out := make([]fieldKeys, len(stored))
	names := make([]string, len(stored))
	kept := make([]bool, len(stored))
	for i, f := range stored {
		old := before[f.ID]
		names[i], kept[i] = f.Name, old != nil && old.Name == f.Name
		optionNames := make([]string, len(f.Options))
		keptOptions := make([]bool, len(f.Options))
		for j, o := range f.Options {
			optionNames[j] = o.Name
			keptOptions[j] = old != nil && keptOption(old, o)
		}
		out[i].options = keys(optionNames, keptOptions)
	}
	for i, key := range keys(names, kept) {
		out[i].name = key
	}
	return out
}

// keptOption reports whether field f had the option o, under the same name.
func keptOption(f *issuefields.Field, o issuefields.FieldOption) bool {
	for _, had := range f.Options {
		if had.ID == o.ID {
			return had.Name == o.Name
		}
	}
	return false
}

// keys returns the key of each of names, or nil for a kept name (kept[i])
// whose key a kept name before it has.
func keys(names []string, kept []bool) []*string {
	out := make([]*string, len(names))
	keyed := make(map[string]bool, len(names))
	for i, name := range names {
		key := fieldname.Key(name)
		if kept[i] && keyed[key] {
			continue
		}
		if kept[i] {
			keyed[key] = true
		}
		out[i] = &key
	}
	return out
}
