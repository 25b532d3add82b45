package issuefields

import (
	"cmp"
	"slices"
	"time"
)

// IssueField is an organization's issue field as the field management routes
// answer it.
type IssueField struct {
	ID     int64  `json:"id"`
	NodeID string `json:"node_id"`
	Name   string `json:"name"`
	// Description is nil for a field without one.
	Description *string    `json:"description"`
	DataType    DataType   `json:"data_type"`
	Visibility  Visibility `json:"visibility"`
	// Options are the choices of a select field, ordered by priority; nil
	// for other data types.
	Options []IssueFieldOption `json:"options,omitempty"`
	// CreatedAt and UpdatedAt are RFC 3339 times in UTC; nil for a field
	// that seed data made rather than the API.
	CreatedAt *string `json:"created_at"`
	UpdatedAt *string `json:"updated_at"`
}

// IssueFieldOption is one choice of a select field as the field management
// routes answer it.
type IssueFieldOption struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Description *string `json:"description"`
	Color       string  `json:"color"`
	Priority    int     `json:"priority"`
}

// issueFieldOf returns f as the field management routes answer it.
func issueFieldOf(f *Field) IssueField {
	out := IssueField{
		ID:          f.ID,
		NodeID:      f.NodeID(),
		Name:        f.Name,
		Description: optionalString(f.Description),
		DataType:    f.DataType,
		Visibility:  cmp.Or(f.Visibility, VisibleToMembers),
		CreatedAt:   optionalTime(f.CreatedAt),
		UpdatedAt:   optionalTime(f.UpdatedAt),
	}
	for _, o := range f.Options {
		out.Options = append(out.Options, IssueFieldOption{ID: o.ID, Name: o.Name,
			Description: optionalString(o.Description), Color: o.Color, Priority: o.Priority})
	}
	return out
}

// issueFieldsOf returns fields as the list route answers them: by ID.
func issueFieldsOf(fields []Field) []IssueField {
	out := make([]IssueField, len(fields))
	for i := range fields {
		out[i] = issueFieldOf(&fields[i])
	}
	slices.SortFunc(out, func(a, b IssueField) int { return cmp.Compare(a.ID, b.ID) })
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
