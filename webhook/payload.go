package webhook

import (
	"encoding/json"

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
	Action          string                  `json:"action"`
	Issue           payloadIssue            `json:"issue"`
	Changes         *payloadChanges         `json:"changes,omitempty"`
	IssueField      payloadField            `json:"issue_field"`
	IssueFieldValue *issuefields.FieldValue `json:"issue_field_value"`
	Repository      payloadRepository       `json:"repository"`
	Organization    payloadAccount          `json:"organization"`
	Sender          payloadAccount          `json:"sender"`
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
	From *issuefields.FieldValue `json:"from"`
}

type payloadField struct {
	ID       int64                `json:"id"`
	NodeID   string               `json:"node_id"`
	Name     string               `json:"name"`
	DataType issuefields.DataType `json:"data_type"`
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
// in the order of e.Changes. A field that has a value after the change is
// field_added, with the value before in changes.issue_field_value.from if it
// had one; a field whose value went is field_removed, with the value removed
// in changes.issue_field_value.from and a null issue_field_value.
func payloads(e issuefields.Event) ([][]byte, error) {
	repo := payloadRepository{
		ID:       e.Repository.ID,
		Name:     e.Repository.Name,
		FullName: e.Repository.Owner + "/" + e.Repository.Name,
		Private:  e.Repository.Private,
		Owner:    payloadAccount{Login: e.Repository.Owner},
	}
	bodies := make([][]byte, 0, len(e.Changes))
	for _, c := range e.Changes {
		p := payload{
			Action:          actionOf(c),
			Issue:           payloadIssue{Number: e.IssueNumber, URL: e.IssueURL},
			IssueField:      payloadField{ID: c.FieldID, NodeID: c.FieldNodeID, Name: c.FieldName, DataType: c.DataType},
			IssueFieldValue: c.After,
			Repository:      repo,
			// Only an organization's repositories have fields, so the
			// owner of a repository with a change is an organization.
			Organization: payloadAccount{Login: e.Repository.Owner},
			Sender:       payloadAccount{Login: e.Actor.Login},
		}
		if c.Before != nil {
			p.Changes = &payloadChanges{IssueFieldValue: payloadFrom{From: c.Before}}
		}
		body, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		bodies = append(bodies, body)
	}
	return bodies, nil
}

// actionOf returns the action of the delivery of c: field_removed when the
// field has no value after the change, field_added otherwise.
func actionOf(c issuefields.FieldChange) string {
	if c.After == nil {
		return ActionFieldRemoved
	}
	return ActionFieldAdded
}
