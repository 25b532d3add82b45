package issuefields

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/issuefields/issuefields/internal/fieldname"
	"github.com/issuefields/issuefields/internal/ids"
)

// The field management routes: list, create, update and delete the issue
// fields of an organization, over a Store that is a FieldManager. Each
// decides the change (fieldrules.go has the rules of definitions) and gives
// the FieldManager the fields to store.

// listFields serves GET /orgs/{org}/issue-fields: every field, by ID.
func (h *Handler) listFields(c *call) error {
	org, err := h.findOrganization(c)
	if err != nil {
		return err
	}
	fields, err := h.fields.OrganizationFields(c.ctx(), org)
	if err != nil {
		return err
	}
	out := make([]issueField, len(fields))
	for i := range fields {
		out[i] = issueFieldOf(org, &fields[i])
	}
	slices.SortFunc(out, func(a, b issueField) int { return cmp.Compare(a.ID, b.ID) })
	return h.writeJSON(c.w, http.StatusOK, out)
}

// createField serves POST /orgs/{org}/issue-fields: the new field.
func (h *Handler) createField(c *call) error {
	org, err := h.findOrganization(c)
	if err != nil {
		return err
	}
	req, problems, err := readFieldRequest(c, h.maxBodyBytes, true)
	if err != nil {
		return err
	}
	now := time.Now().UTC().Truncate(time.Second)
	var f Field
	if problems == nil {
		f, problems = req.applyTo(Field{DataType: *req.dataType, Visibility: VisibleToMembers, CreatedAt: now}, now)
	}
	if problems != nil {
		return validationFailed(anyOf(problems)...)
	}
	fields, err := h.fields.ChangeFields(c.ctx(), org, func(current []Field) ([]Field, error) {
		if len(current) >= maxFields {
			return nil, validationFailed(fmt.Sprintf("The organization has %d fields; an organization may have at most %d.", len(current), maxFields))
		}
		return append(slices.Clip(current), f), nameTaken(f, current)
	})
	if err != nil {
		return err
	}
	return h.writeJSON(c.w, http.StatusOK, issueFieldOf(org, &fields[len(fields)-1]))
}

// updateField serves PATCH /orgs/{org}/issue-fields/{issue_field_id}: the
// changed field.
func (h *Handler) updateField(c *call) error {
	org, err := h.findOrganization(c)
	if err != nil {
		return err
	}
	id, _ := parsePositiveInt(c.r.PathValue("issue_field_id"))
	req, problems, err := readFieldRequest(c, h.maxBodyBytes, false)
	if err != nil {
		return err
	}
	if problems != nil {
		return validationFailed(anyOf(problems)...)
	}
	now := time.Now().UTC().Truncate(time.Second)
	fields, err := h.fields.ChangeFields(c.ctx(), org, func(current []Field) ([]Field, error) {
		i := slices.IndexFunc(current, func(f Field) bool { return f.ID == id })
		if i < 0 {
			return nil, fmt.Errorf("field %d: %w", id, ErrNotFound)
		}
		f, problems := req.applyTo(current[i], now)
		if problems != nil {
			return nil, validationFailed(anyOf(problems)...)
		}
		next := slices.Clone(current)
		next[i] = f
		if f.Name == current[i].Name {
			// A name is checked when it is given: two fields that had one
			// name before the rules stay as they are.
			return next, nil
		}
		return next, nameTaken(f, current)
	})
	if err != nil {
		return err
	}
	return h.writeJSON(c.w, http.StatusOK, issueFieldOf(org, fieldByID(fields, id)))
}

// nameTaken returns the 422 for f when another field of current has its
// name, or nil.
func nameTaken(f Field, current []Field) error {
	key := fieldname.Key(f.Name)
	for _, g := range current {
		if g.ID != f.ID && fieldname.Key(g.Name) == key {
			return validationFailed(fmt.Sprintf("The organization has a field named %q already; names ignore case, width and invisible characters.", g.Name))
		}
	}
	return nil
}

// deleteField serves DELETE /orgs/{org}/issue-fields/{issue_field_id}: the
// field goes; its values stay stored on the issues, hidden, since no field
// defines them (see FieldManager).
func (h *Handler) deleteField(c *call) error {
	org, err := h.findOrganization(c)
	if err != nil {
		return err
	}
	id, _ := parsePositiveInt(c.r.PathValue("issue_field_id"))
	_, err = h.fields.ChangeFields(c.ctx(), org, func(current []Field) ([]Field, error) {
		if fieldByID(current, id) == nil {
			return nil, fmt.Errorf("field %d: %w", id, ErrNotFound)
		}
		return slices.DeleteFunc(slices.Clone(current), func(f Field) bool { return f.ID == id }), nil
	})
	if err != nil {
		return err
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

// findOrganization checks the path of a field management route,
// authenticates and authorizes the caller, and applies the secondary rate
// limit to a write. It returns the organization as the path spells it:
// whether the store has such an organization, the FieldManager's call tells
// (404). The caller is authorized before the store is asked anything, so
// that what a caller is refused (an anonymous one gets 401) never tells
// whether the organization exists, or whether the store can manage fields:
// to a caller who passes, a store that cannot answers 404, as an unknown
// organization does. Authorization is decided before the body is read.
func (h *Handler) findOrganization(c *call) (string, error) {
	if id := c.r.PathValue("issue_field_id"); id != "" {
		if _, ok := parsePositiveInt(id); !ok {
			return "", ErrNotFound
		}
	}
	if err := h.identify(c); err != nil {
		return "", err
	}
	org := c.r.PathValue("org")
	if err := authorizeOrganization(c.ctx(), c.route.op, org, c.principal); err != nil {
		return "", err
	}
	if h.fields == nil {
		return "", ErrNotFound
	}
	return org, h.limitWrites(c)
}

// fieldRequest is a create or update body of the field management routes,
// decoded and checked on its own; a nil member was absent. Checks against
// the organization's fields come when the store hands them over (apply).
type fieldRequest struct {
	name        *string
	dataType    *DataType
	description *string // "" for null
	visibility  *Visibility
	options     *[]optionRequest
}

// optionRequest is one item of a body's options.
type optionRequest struct {
	id          int64 // 0 for a new option
	name, color string
	description string
	priority    *int
}

// fieldBody is the shape of a create or update body: its options, at most
// maxOptions of them, and its other members.
var fieldBody = bodyShape{
	list: "options", maxItems: maxOptions,
	tooMany: validationFailed(fmt.Sprintf(`"options" has more than %d options; a field may have at most %d.`, maxOptions, maxOptions)),
	members: []string{"name", "data_type", "description", "visibility"},
}

// readFieldRequest reads and decodes the body of a create (create is true)
// or an update. It refuses what is not a JSON object and a key that appears
// twice in one object (400), and returns what is wrong with the body's
// members on their own: every unknown key, every member of the wrong type,
// and a missing one that a create needs.
func readFieldRequest(c *call, limit int64, create bool) (fieldRequest, []string, error) {
	body, err := readBody(c.w, c.r, limit, &fieldBody)
	if err != nil {
		return fieldRequest{}, nil, err
	}
	var req fieldRequest
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	for _, key := range body.unknown {
		fail("Unknown key %q: a field has name, data_type, description, visibility and options.", key)
	}
	if raw := body.members[0]; raw != nil {
		req.name = new(string)
		if json.Unmarshal(raw, req.name) != nil {
			fail(`"name" must be a string.`)
		}
	}
	if raw := body.members[1]; raw != nil {
		req.dataType = new(DataType)
		if json.Unmarshal(raw, req.dataType) != nil || rulesOf(*req.dataType) == nil {
			fail(`"data_type" must be one of text, single_select, multi_select, number and date.`)
		}
	}
	if raw := body.members[2]; raw != nil {
		req.description = decodeDescription(raw, `"description"`, fail)
	}
	if raw := body.members[3]; raw != nil {
		req.visibility = new(Visibility)
		if json.Unmarshal(raw, req.visibility) != nil || *req.visibility != VisibleToMembers && *req.visibility != VisibleToAll {
			fail(`"visibility" must be %q or %q.`, VisibleToMembers, VisibleToAll)
		}
	}
	if body.hasList {
		if !body.listIsArray {
			fail(`"options" must be an array of {"name", "color", "priority", "description"} objects.`)
		}
		opts := make([]optionRequest, len(body.items))
		for i, raw := range body.items {
			opts[i] = decodeOption(raw, fmt.Sprintf("options[%d]", i), !create, fail)
		}
		req.options = &opts
	}
	if create && req.name == nil {
		fail(`A new field needs "name".`)
	}
	if create && req.dataType == nil {
		fail(`A new field needs "data_type": text, single_select, multi_select, number or date.`)
	}
	return req, problems, nil
}

// decodeDescription decodes raw, the description named what: a string, or
// null for none.
func decodeDescription(raw []byte, what string, fail func(string, ...any)) *string {
	var d *string
	if json.Unmarshal(raw, &d) != nil {
		fail(`%s must be a string or null.`, what)
	}
	if d == nil {
		d = new(string)
	}
	return d
}

// decodeOption decodes raw, the option named what. Only an update body may
// name an option by its id.
func decodeOption(raw []byte, what string, update bool, fail func(string, ...any)) optionRequest {
	var o optionRequest
	if raw[0] != '{' {
		fail(`%s must be an object with "name" and "color".`, what)
		return o
	}
	var hasName, hasColor bool
	eachMember(raw, func(rawKey, value []byte) {
		switch key := stringValue(rawKey); {
		case key == "id" && update:
			var ok bool
			if o.id, ok = parsePositiveInt(string(value)); !ok {
				fail(`%s.id must be the positive integer id of an option of the field.`, what)
			}
		case key == "name":
			hasName = true
			if json.Unmarshal(value, &o.name) != nil {
				fail(`%s.name must be a string.`, what)
			}
		case key == "color":
			hasColor = true
			if json.Unmarshal(value, &o.color) != nil {
				fail(`%s.color must be one of %s.`, what, strings.Join(optionColors, ", "))
			}
		case key == "priority":
			o.priority = new(int)
			if json.Unmarshal(value, o.priority) != nil {
				fail(`%s.priority must be an integer.`, what)
			}
		case key == "description":
			o.description = *decodeDescription(value, what+".description", fail)
		default:
			fail("Unknown key %q in %s: an option has name, color, priority, description and, in an update, id.", key, what)
		}
	})
	if !hasName {
		fail(`%s needs "name".`, what)
	}
	if !hasColor {
		fail(`%s needs "color": one of %s.`, what, strings.Join(optionColors, ", "))
	}
	return o
}

// applyTo returns f, a field of the organization or a new one (ID 0),
// changed by req at now, and what makes the result unfit to be stored on its
// own (whether another field has its name is nameTaken's to say).
func (req fieldRequest) applyTo(f Field, now time.Time) (Field, []string) {
	var problems []string
	if req.dataType != nil && *req.dataType != f.DataType {
		problems = append(problems, fmt.Sprintf("The data type of a field cannot change; it is %s.", f.DataType))
	}
	if req.name != nil {
		f.Name = *req.name
	}
	if req.description != nil {
		f.Description = *req.description
	}
	if req.visibility != nil {
		f.Visibility = *req.visibility
	}
	f.UpdatedAt = now
	isSelect := hasOptions(f.DataType)
	switch {
	case req.options == nil && f.ID == 0 && isSelect:
		problems = append(problems, fmt.Sprintf(`A %s field needs "options".`, f.DataType))
	case req.options != nil && !isSelect:
		problems = append(problems, fmt.Sprintf(`A %s field has no "options".`, f.DataType))
	case req.options != nil:
		var optionProblems []string
		f.Options, optionProblems = optionsOf(f, *req.options)
		problems = append(problems, optionProblems...)
	}
	if problems != nil {
		return f, problems
	}
	for _, p := range definitionProblems(&f) {
		problems = append(problems, capitalize(p)+".")
	}
	return f, problems
}

// optionsOf returns the options that reqs give field f, ordered by priority:
// an option sent with an id keeps it (and the values that use it), the others
// are new (ID 0). It reports an id that is not one of f's options, or that
// appears twice.
func optionsOf(f Field, reqs []optionRequest) ([]FieldOption, []string) {
	var problems []string
	opts := make([]FieldOption, len(reqs))
	seen := make(map[int64]bool, len(reqs))
	for i, o := range reqs {
		switch {
		case o.id != 0 && optionByID(&f, o.id) == nil:
			problems = append(problems, fmt.Sprintf("options[%d]: option %d is not an option of field %q.", i, o.id, f.Name))
		case o.id != 0 && seen[o.id]:
			problems = append(problems, fmt.Sprintf("options[%d]: option %d appears more than once.", i, o.id))
		}
		seen[o.id] = true
		opts[i] = FieldOption{ID: o.id, Name: o.name, Color: o.color, Description: o.description, Priority: i + 1}
		if o.priority != nil {
			opts[i].Priority = *o.priority
		}
	}
	slices.SortStableFunc(opts, func(a, b FieldOption) int { return cmp.Compare(a.Priority, b.Priority) })
	return opts, problems
}

// capitalize returns s with its first letter in upper case.
func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// anyOf returns problems as the items of a 422's errors.
func anyOf(problems []string) []any {
	items := make([]any, len(problems))
	for i, p := range problems {
		items[i] = p
	}
	return items
}

// issueField is an organization's issue field as the field management
// routes answer it.
type issueField struct {
	ID     int64  `json:"id"`
	NodeID string `json:"node_id"`
	Name   string `json:"name"`
	// Description is nil for a field without one.
	Description *string    `json:"description"`
	DataType    DataType   `json:"data_type"`
	Visibility  Visibility `json:"visibility"`
	// Options are the choices of a select field, ordered by priority; nil
	// for other data types.
	Options []issueFieldOption `json:"options,omitempty"`
	// CreatedAt and UpdatedAt are RFC 3339 times in UTC; nil for a field
	// that seed data made rather than the API.
	CreatedAt *string `json:"created_at"`
	UpdatedAt *string `json:"updated_at"`
}

// issueFieldOption is one choice of a select field as the field management
// routes answer it.
type issueFieldOption struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Description *string `json:"description"`
	Color       string  `json:"color"`
	Priority    int     `json:"priority"`
}

// issueFieldOf returns f, a field of the organization org, as the field
// management routes answer it.
func issueFieldOf(org string, f *Field) issueField {
	out := issueField{
		ID:          f.ID,
		NodeID:      ids.Field(org, f.ID),
		Name:        f.Name,
		Description: optionalString(f.Description),
		DataType:    f.DataType,
		Visibility:  cmp.Or(f.Visibility, VisibleToMembers),
		CreatedAt:   optionalTime(f.CreatedAt),
		UpdatedAt:   optionalTime(f.UpdatedAt),
	}
	for _, o := range f.Options {
		out.Options = append(out.Options, issueFieldOption{ID: o.ID, Name: o.Name,
			Description: optionalString(o.Description), Color: o.Color, Priority: o.Priority})
	}
	return out
}

// optionalString returns nil for "", and a pointer to s otherwise.
func optionalString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// optionalTime returns nil for the zero time, and t in RFC 3339 otherwise.
func optionalTime(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.RFC3339)
	return &s
}
