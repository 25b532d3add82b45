package webhook

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/url"
	"slices"

	"github.com/issuefields/issuefields"
)

// EventName is the value of the X-<Vendor>-Event header of every delivery:
// deliveries are GitHub's issues event.
const EventName = "issues"

// The actions of deliveries, the body's "action".
const (
	// ActionFieldAdded says that a field got a value, new or changed.
	ActionFieldAdded = "field_added"
	// ActionFieldRemoved says that a field's value was removed.
	ActionFieldRemoved = "field_removed"
)

// payload is the body of one delivery: GitHub's issues event for the
// change of one field's value on one issue.
type payload struct {
	Action          string            `json:"action"`
	Issue           payloadIssue      `json:"issue"`
	Changes         *payloadChanges   `json:"changes,omitempty"`
	IssueField      payloadField      `json:"issue_field"`
	IssueFieldValue *fieldValue       `json:"issue_field_value,omitempty"`
	Repository      payloadRepository `json:"repository"`
	Organization    payloadAccount    `json:"organization"`
	Sender          payloadAccount    `json:"sender"`
}

type payloadIssue struct {
	Number int64  `json:"number"`
	URL    string `json:"url"`
}

// payloadChanges holds the value a field had before the change.
type payloadChanges struct {
	IssueFieldValue payloadFrom `json:"issue_field_value"`
}

type payloadFrom struct {
	From *fieldValue `json:"from"`
}

// payloadField is the field of a delivery, as GitHub's issue_field.
type payloadField struct {
	ID        int64                `json:"id"`
	Name      string               `json:"name"`
	FieldType issuefields.DataType `json:"field_type"`
}

// fieldValue is a value of a delivery, as GitHub's issue_field_value: an id
// of the value itself, then by data type value; value_id and option; or
// value_ids and options.
type fieldValue struct {
	ID       int64           `json:"id"`
	Value    any             `json:"value,omitempty"`
	ValueID  int64           `json:"value_id,omitempty"`
	Option   *payloadOption  `json:"option,omitempty"`
	ValueIDs []int64         `json:"value_ids,omitempty"`
	Options  []payloadOption `json:"options,omitempty"`
}

// payloadOption is a selected option of a value.
type payloadOption struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Color       string  `json:"color"`
	Description *string `json:"description"`
}

type payloadRepository struct {
	ID       int64          `json:"id"`
	Name     string         `json:"name"`
	FullName string         `json:"full_name"`
	Private  bool           `json:"private"`
	Owner    payloadAccount `json:"owner"`
}

type payloadAccount struct {
	Login string `json:"login"`
}

// payloads returns the body of each delivery of e, one per changed field
// in the order of e.Changes, with URLs under baseURL. A field that has a
// value after the change is field_added, with the value before in
// changes.issue_field_value.from if it had one; a field whose value went is
// field_removed, with the value removed in issue_field_value.
func payloads(e issuefields.Event, baseURL string) ([][]byte, error) {
	repo := e.Issue.Repository
	r := payloadRepository{
		ID:       repo.ID,
		Name:     repo.Name,
		FullName: repo.Owner + "/" + repo.Name,
		Private:  repo.Private,
		Owner:    payloadAccount{Login: repo.Owner},
	}
	issueURL := fmt.Sprintf("%s/repos/%s/%s/issues/%d", baseURL, url.PathEscape(repo.Owner), url.PathEscape(repo.Name), e.Issue.Number)
	bodies := make([][]byte, 0, len(e.Changes))
	for _, c := range e.Changes {
		p := payload{
			Action:     actionOf(c),
			Issue:      payloadIssue{Number: e.Issue.Number, URL: issueURL},
			IssueField: payloadField{ID: c.Field.ID, Name: c.Field.Name, FieldType: c.Field.DataType},
			Repository: r,
			// Only an organization's repositories have fields, so the
			// owner of a repository with a change is an organization.
			Organization: payloadAccount{Login: repo.Owner},
			Sender:       payloadAccount{Login: e.Actor.Login},
		}
		switch {
		case c.After == nil:
			p.IssueFieldValue = valueOf(e.Issue, &c.Field, c.Before)
		case c.Before != nil:
			p.IssueFieldValue = valueOf(e.Issue, &c.Field, c.After)
			p.Changes = &payloadChanges{IssueFieldValue: payloadFrom{From: valueOf(e.Issue, &c.Field, c.Before)}}
		default:
			p.IssueFieldValue = valueOf(e.Issue, &c.Field, c.After)
		}
		body, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		bodies = append(bodies, body)
	}
	return bodies, nil
}

// valueOf returns v, a value of field f on issue, as a delivery shows it.
func valueOf(issue issuefields.Issue, f *issuefields.Field, v *issuefields.Value) *fieldValue {
	out := &fieldValue{ID: valueID(issue, f.ID)}
	switch f.DataType {
	case issuefields.DataTypeText:
		out.Value = v.Text
	case issuefields.DataTypeDate:
		out.Value = v.Date
	case issuefields.DataTypeNumber:
		out.Value = v.Number
	case issuefields.DataTypeSingleSelect, issuefields.DataTypeMultiSelect:
		for _, o := range f.Options {
			if slices.Contains(v.OptionIDs, o.ID) {
				out.Options = append(out.Options, payloadOption{ID: o.ID, Name: o.Name, Color: o.Color, Description: optional(o.Description)})
				out.ValueIDs = append(out.ValueIDs, o.ID)
			}
		}
		if f.DataType == issuefields.DataTypeSingleSelect && len(out.Options) > 0 {
			out.ValueID, out.Option = out.ValueIDs[0], &out.Options[0]
			out.ValueIDs, out.Options = nil, nil
		}
	}
	return out
}

// valueID returns the id of the value of field on issue: a number that stays
// the same for one issue and field, across restarts and servers, and fits in
// the integers that JavaScript holds exactly.
func valueID(issue issuefields.Issue, field int64) int64 {
	h := fnv.New64a()
	var b [24]byte
	binary.LittleEndian.PutUint64(b[0:], uint64(issue.Repository.ID))
	binary.LittleEndian.PutUint64(b[8:], uint64(issue.Number))
	binary.LittleEndian.PutUint64(b[16:], uint64(field))
	h.Write(b[:])
	return int64(h.Sum64()>>11) + 1
}

// optional returns nil for "", and a pointer to s otherwise.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// actionOf returns the action of the delivery of c: field_removed when the
// field has no value after the change, field_added otherwise.
func actionOf(c issuefields.FieldChange) string {
	if c.After == nil {
		return ActionFieldRemoved
	}
	return ActionFieldAdded
}
