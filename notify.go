package issuefields

import (
	"context"
	"crypto/rand"
	"time"
)

// Action is what a write did to an issue's values.
type Action string

// The actions of events.
const (
	ActionAdded   Action = "added"   // add (POST)
	ActionSet     Action = "set"     // set (PUT)
	ActionDeleted Action = "deleted" // delete (DELETE)
)

// Event tells that a write committed and changed an issue's values.
type Event struct {
	// ID identifies the event; it is unique.
	ID string `json:"id"`
	// Action is the operation that made the change.
	Action Action `json:"action"`
	// Time is when the change was committed.
	Time time.Time `json:"time"`
	// Repository is the repository of the issue, under its current name.
	Repository EventRepository `json:"repository"`
	// IssueNumber is the number of the issue in Repository.
	IssueNumber int64 `json:"issue_number"`
	// IssueURL is the issue's absolute API URL under the handler's base URL
	// (scheme, host and mount prefix of the write's request), as in
	// https://api.example.com/repos/octo-org/hello-world/issues/1.
	IssueURL string `json:"issue_url"`
	// Actor is who made the change.
	Actor EventActor `json:"actor"`
	// Changes lists every field whose value changed, in the organization's
	// field order.
	Changes []FieldChange `json:"changes"`
}

// EventRepository names the repository of an Event.
type EventRepository struct {
	ID      int64  `json:"id"`
	Owner   string `json:"owner"`
	Name    string `json:"name"`
	Private bool   `json:"private"`
}

// EventActor is the principal that made the change of an Event.
type EventActor struct {
	Login string    `json:"login"`
	Kind  TokenKind `json:"token_kind"`
}

// FieldChange is the change of one field's value, before and after, in the
// format of the API's response items.
type FieldChange struct {
	FieldID int64 `json:"field_id"`
	// FieldNodeID is the field's node_id (Field.NodeID), FieldName its name
	// and DataType its data type, so that a change names its field even
	// when it has no value before or after.
	FieldNodeID string   `json:"field_node_id"`
	FieldName   string   `json:"field_name"`
	DataType    DataType `json:"data_type"`
	// Before is the value before the change, or nil if the field had none.
	Before *FieldValue `json:"before"`
	// After is the value after the change, or nil if the field has none now.
	After *FieldValue `json:"after"`
}

// A Notifier is told of every write that committed and changed something:
// exactly one event per such write, none for a write that was refused, failed
// or changed nothing.
//
// The handler calls Notify after the write committed and before it answers,
// from many goroutines at once, with a context that the client's disconnect
// does not cancel, bounded by Config.NotifyTimeout; the context carries the
// writer's Principal (see PrincipalFromContext). An error or a panic is
// logged and never changes the answer, since the write has happened. Notify
// should hand slow work to a queue of its own, as the webhook package does,
// because the client waits for it.
type Notifier interface {
	Notify(ctx context.Context, e Event) error
}

// NotifierFunc adapts an ordinary function to the Notifier interface, as
// http.HandlerFunc does for http.Handler.
type NotifierFunc func(ctx context.Context, e Event) error

// Notify calls f(ctx, e).
func (f NotifierFunc) Notify(ctx context.Context, e Event) error { return f(ctx, e) }

// DiscardNotifier is a Notifier that drops every event. It is the default of
// Config.Notifier; with it, the handler does not build events at all.
var DiscardNotifier Notifier = discardNotifier{}

type discardNotifier struct{}

func (discardNotifier) Notify(context.Context, Event) error { return nil }

// newEvent describes the committed write result of action on issue, whose API
// URL is issueURL, by principal, with the changes in fields' order.
func newEvent(action Action, issue Issue, issueURL string, principal *Principal, fields []Field, result commitResult) Event {
	repo := issue.Repository
	e := Event{
		ID:          rand.Text(),
		Action:      action,
		Time:        time.Now().UTC(),
		Repository:  EventRepository{ID: repo.ID, Owner: repo.Owner, Name: repo.Name, Private: repo.Private},
		IssueNumber: issue.Number,
		IssueURL:    issueURL,
		Actor:       EventActor{Login: principal.Login, Kind: principal.Kind},
	}
	key := issue.Key()
	for i := range fields {
		f := &fields[i]
		before, hadBefore := valueOf(result.before, f.ID)
		after, hasAfter := valueOf(result.after, f.ID)
		if hadBefore && hasAfter && sameValue(before, after) || !hadBefore && !hasAfter {
			continue
		}
		e.Changes = append(e.Changes, FieldChange{
			FieldID:     f.ID,
			FieldNodeID: f.NodeID(),
			FieldName:   f.Name,
			DataType:    f.DataType,
			Before:      renderPointer(key, f, before, hadBefore),
			After:       renderPointer(key, f, after, hasAfter),
		})
	}
	return e
}

// renderPointer returns the response item of v, or nil when there is no value.
func renderPointer(key IssueKey, f *Field, v *Value, ok bool) *FieldValue {
	if !ok {
		return nil
	}
	return fieldValue(key, f, v)
}
