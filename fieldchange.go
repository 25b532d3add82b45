package issuefields

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// newField returns the field that req creates among the organization's
// current fields at now, or the 422 that says what is wrong.
func (req fieldRequest) newField(current []Field, now time.Time) (Field, error) {
	f := Field{DataType: *req.dataType, Visibility: VisibleToMembers, CreatedAt: now}
	return req.applyTo(f, current, now)
}

// applyTo returns f, a field of the organization's current fields or a new
// one (ID 0), changed by req at now, or the 422 that says what is wrong.
func (req fieldRequest) applyTo(f Field, current []Field, now time.Time) (Field, error) {
	var errs problems
	if req.dataType != nil && *req.dataType != f.DataType {
		errs.add("data_type", "invalid", -1, "The data type of a field cannot change; it is %s.", f.DataType)
	}
	if req.name != nil {
		if slices.ContainsFunc(current, func(g Field) bool { return g.ID != f.ID && strings.EqualFold(g.Name, *req.name) }) {
			errs.add("name", "already_exists", -1, "The organization has a field named %q already (names ignore case).", *req.name)
		}
		f.Name = *req.name
	}
	if req.description != nil {
		f.Description = *req.description
	}
	if req.visibility != nil {
		f.Visibility = *req.visibility
	}
	isSelect := hasOptions(f.DataType)
	switch {
	case req.options == nil && f.ID == 0 && isSelect:
		errs.add("options", "missing_field", -1, "A %s field needs options.", f.DataType)
	case req.options != nil && !isSelect:
		errs.add("options", "invalid", -1, "A %s field has no options.", f.DataType)
	case req.options != nil && len(*req.options) == 0:
		errs.add("options", "invalid", -1, "A %s field needs at least one option.", f.DataType)
	case req.options != nil:
		f.Options = optionsOf(f, *req.options, &errs)
	}
	f.UpdatedAt = now
	return f, errs.err()
}

// optionsOf returns the options that reqs give field f, ordered by priority:
// an option sent with an id keeps it, the others are new (ID 0).
func optionsOf(f Field, reqs []optionRequest, errs *problems) []Option {
	opts := make([]Option, len(reqs))
	for i, o := range reqs {
		switch {
		case o.id != 0 && !slices.ContainsFunc(f.Options, func(p Option) bool { return p.ID == o.id }):
			errs.add("id", "invalid", i, "Option %d is not an option of field %q.", o.id, f.Name)
		case o.id != 0 && slices.ContainsFunc(reqs[:i], func(p optionRequest) bool { return p.id == o.id }):
			errs.add("id", "already_exists", i, "Option %d appears more than once.", o.id)
		case slices.ContainsFunc(reqs[:i], func(p optionRequest) bool { return p.name == o.name }):
			errs.add("name", "already_exists", i, "Option %q appears more than once; option names are unique in a field.", o.name)
		}
		opts[i] = Option{ID: o.id, Name: o.name, Color: o.color, Description: o.description, Priority: i + 1}
		if o.priority != nil {
			opts[i].Priority = *o.priority
		}
	}
	slices.SortStableFunc(opts, func(a, b Option) int { return cmp.Compare(a.Priority, b.Priority) })
	return opts
}

// replaceField returns fields with the field id replaced by the result of
// edit, which may refuse; ErrNotFound if fields has no field id.
func replaceField(fields []Field, id int64, edit func(Field) (Field, error)) ([]Field, error) {
	i := slices.IndexFunc(fields, func(f Field) bool { return f.ID == id })
	if i < 0 {
		return nil, fmt.Errorf("field %d: %w", id, ErrNotFound)
	}
	f, err := edit(fields[i])
	if err != nil {
		return nil, err
	}
	next := slices.Clone(fields)
	next[i] = f
	return next, nil
}
