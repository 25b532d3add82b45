package issuefields

import (
	"context"
	"crypto/rand"
	"log/slog"
	"slices"
	"time"

	"github.com/issuefields/issuefields/internal/lazyctx"
)

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
// because the client waits for it. The Event and everything it points to
// belong to the Notifier once Notify is called.
type Notifier interface {
	Notify(ctx context.Context, e Event) error
}

// NotifierFunc adapts an ordinary function to the Notifier interface, as
// http.HandlerFunc does for http.Handler.
type NotifierFunc func(ctx context.Context, e Event) error

// Notify calls f(ctx, e).
func (f NotifierFunc) Notify(ctx context.Context, e Event) error { return f(ctx, e) }

// Action is what a write did to an issue's values.
type Action string

// The actions of events.
const (
	ActionAdded   Action = "added"   // add (POST)
	ActionSet     Action = "set"     // set (PUT)
	ActionDeleted Action = "deleted" // delete (DELETE)
)

// Event tells that a write committed and changed an issue's values: one of
// the values routes', or a host route's through Call.UpdateIssue.
type Event struct {
	// ID identifies the event; it is unique.
	ID string
	// Action is the operation that made the change.
	Action Action
	// Time is when the change was committed, in UTC.
	Time time.Time
	// Issue is the issue that changed as the write left it: in its
	// repository under its current name, with its content and version.
	Issue Issue
	// Actor is who made the change: the Principal that the TokenVerifier
	// returned for the request's token.
	Actor *Principal
	// Changes lists every field whose value changed, in the organization's
	// field order.
	Changes []FieldChange
}

// FieldChange is the change of one field's value on the issue of an Event.
type FieldChange struct {
	// Field is the field's definition when the write committed.
	Field Field
	// Before is the value before the change, or nil if the field had none;
	// After is the value after it, or nil if the field has none now. At
	// least one of them is not nil, and they differ.
	Before, After *Value
}

// newEvent describes a committed write of action by principal, which made
// issue what it is now from the values before: the changes, in the order of
// fields. The event shares no memory with issue.
func newEvent(action Action, issue Issue, principal *Principal, fields []Field, before []Value) Event {
	after := issue.Values
	issue.Values = copyValues(after)
	issue.Labels, issue.Assignees = slices.Clone(issue.Labels), slices.Clone(issue.Assignees)
	e := Event{ID: rand.Text(), Action: action, Time: time.Now().UTC(), Issue: issue, Actor: principal}
	for i := range fields {
		f := &fields[i]
		b, hadBefore := valueOf(before, f.ID)
		a, hasAfter := valueOf(after, f.ID)
		if hadBefore && hasAfter && sameValue(b, a) || !hadBefore && !hasAfter {
			continue
		}
		change := FieldChange{Field: *f}
		if hadBefore {
			change.Before = copyValue(b)
		}
		if hasAfter {
			change.After = copyValue(a)
		}
		e.Changes = append(e.Changes, change)
	}
	return e
}

// copyValues returns a copy of values that shares no memory with it.
func copyValues(values []Value) []Value {
	out := slices.Clone(values)
	for i := range out {
		out[i].OptionIDs = slices.Clone(out[i].OptionIDs)
	}
	return out
}

// copyValue returns a copy of v that shares no memory with it.
func copyValue(v *Value) *Value {
	c := *v
	c.OptionIDs = append([]int64(nil), v.OptionIDs...)
	return &c
}

// notify gives the notifier the event of w, a write of c that committed,
// with a context that the client's disconnect does not cancel, bounded by the
// notify timeout. A failure or a panic of the notifier is logged and changes
// nothing else.
func (h *Handler) notify(c *call, w *write) {
	e := newEvent(w.action, w.stored, c.principal, w.snap.Fields, w.before)
	requestID := c.w.id
	ctx, cancel := lazyctx.WithTimeout(context.WithoutCancel(c.ctx()), h.notifyTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			h.log.LogAttrs(ctx, slog.LevelError, "notifier panicked",
				slog.String("request_id", requestID), slog.String("event_id", e.ID), slog.Any("panic", p))
		}
	}()
	if err := h.notifier.Notify(ctx, e); err != nil {
		h.log.LogAttrs(ctx, slog.LevelError, "notifier failed",
			slog.String("request_id", requestID), slog.String("event_id", e.ID), slog.Any("error", err))
	}
}
