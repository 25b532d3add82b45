package graphql

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/issues"
	"github.com/issuefields/issuefields/internal/ids"
	"github.com/issuefields/issuefields/internal/jsonappend"
	"github.com/vektah/gqlparser/v2/ast"
)

// payloadTypes are the payload types of the mutations.
var payloadTypes = map[string]string{
	"setIssueFieldValue": "SetIssueFieldValuePayload",
	"closeIssue":         "CloseIssuePayload",
	"reopenIssue":        "ReopenIssuePayload",
}

// mutation runs and writes a field of Mutation: one write of an issue,
// through Call.UpdateIssue, so with the values routes' refusals, write
// sequence, webhooks and new version.
func (e *exec) mutation(f *ast.Field) bool {
	input, _ := e.arg(f, "input").(map[string]any)
	issueID, _ := input["issueId"].(string)
	notFound := "Could not resolve to a node with the global id of '" + issueID + "'."
	n, err := e.s.decode(issueID)
	if err != nil || n.Kind != ids.KindIssue || e.s.issues == nil {
		return e.fail(f, typeNotFound, notFound)
	}
	found, err := e.s.issues.Issues(e.call.Request().Context(), issuefields.IssueQuery{IDs: []int64{n.Issue}})
	if err != nil {
		e.fatal = err
		return false
	}
	if len(found) == 0 {
		return e.fail(f, typeNotFound, notFound)
	}
	at := found[0]
	action, change := issuefields.ActionAdded, e.setValues(input)
	switch f.Name {
	case "closeIssue":
		reason, _ := input["stateReason"].(string)
		change = e.setState("closed", strings.ToLower(reason))
	case "reopenIssue":
		change = e.setState("open", "reopened")
	default:
		if items, _ := input["issueFields"].([]any); len(items) > 0 && allDeletes(items) {
			action = issuefields.ActionDeleted
		}
	}
	snap, err := e.call.UpdateIssue(at.Repository.Owner, at.Repository.Name, at.Number, action, change)
	if err != nil {
		return e.refuse(f, err, notFound)
	}
	clientMutationID, _ := input["clientMutationId"].(string)
	return e.object(payloadTypes[f.Name], f.SelectionSet, func(g *ast.Field) bool {
		switch g.Name {
		case "issue":
			return e.issue(g, snap)
		case "clientMutationId":
			return e.optStr(clientMutationID)
		}
		return e.null()
	})
}

// allDeletes reports whether every item of a setIssueFieldValue input
// deletes a value.
func allDeletes(items []any) bool {
	for _, raw := range items {
		if item, _ := raw.(map[string]any); item["delete"] != true {
			return false
		}
	}
	return true
}

// setValues returns the change of setIssueFieldValue: each item sets (or
// with delete removes) one field's value, the values of fields not named
// stay. The items become the values routes' items ({"field_id", "value"})
// and are validated by Call.ParseValues, so that a refusal is theirs,
// naming the field.
func (e *exec) setValues(input map[string]any) func(issuefields.Snapshot) (issuefields.Issue, error) {
	items, _ := input["issueFields"].([]any)
	return func(snap issuefields.Snapshot) (issuefields.Issue, error) {
		if err := e.call.MayWriteValues(snap.Repository); err != nil {
			return issuefields.Issue{}, err
		}
		var raw []json.RawMessage
		var deleted []int64
		var problems []any
		for i, it := range items {
			item, _ := it.(map[string]any)
			fieldID, problem := e.fieldOf(item, snap)
			if problem != "" {
				problems = append(problems, "issueFields["+strconv.Itoa(i)+"]: "+problem)
				continue
			}
			if item["delete"] == true {
				deleted = append(deleted, fieldID)
				continue
			}
			value, problem := e.valueItem(item, snap.Fields, fieldID)
			if problem != "" {
				problems = append(problems, "issueFields["+strconv.Itoa(i)+"]: "+problem)
				continue
			}
			buf := append([]byte(`{"field_id":`), strconv.FormatInt(fieldID, 10)...)
			buf = append(append(buf, `,"value":`...), value...)
			raw = append(raw, append(buf, '}'))
		}
		if problems != nil {
			return issuefields.Issue{}, e.call.Invalid(problems...)
		}
		values, err := e.call.ParseValues(raw, snap.Fields, false)
		if err != nil {
			return issuefields.Issue{}, err
		}
		next := snap.Issue
		next.Values = merge(snap.Issue.Values, values, deleted)
		return next, nil
	}
}

// fieldOf returns the ID of the field that item's fieldId names, one of the
// fields of the issue's organization, or what is wrong with it.
func (e *exec) fieldOf(item map[string]any, snap issuefields.Snapshot) (int64, string) {
	fieldID, _ := item["fieldId"].(string)
	n, err := e.s.decode(fieldID)
	if err != nil || n.Kind != ids.KindField || !strings.EqualFold(n.Login, snap.Repository.Owner) || fieldByID(snap.Fields, n.Field) == nil {
		return 0, "fieldId '" + fieldID + "' is not the id of an issue field of the issue's organization."
	}
	return n.Field, ""
}

// valueItem returns the JSON value of item for the values routes: the one
// of textValue, numberValue, dateValue and singleSelectOptionId that it
// gives (an option by its name), or what is wrong with it.
func (e *exec) valueItem(item map[string]any, fields []issuefields.Field, fieldID int64) ([]byte, string) {
	var value []byte
	count := 0
	for _, key := range []string{"textValue", "numberValue", "dateValue", "singleSelectOptionId"} {
		v, ok := item[key]
		if !ok || v == nil {
			continue
		}
		count++
		switch key {
		case "numberValue":
			f, _ := number(v)
			value = jsonappend.Float(nil, f)
		case "singleSelectOptionId":
			id, _ := v.(string)
			value = jsonappend.String(nil, e.optionName(fields, fieldID, id))
		default:
			s, _ := v.(string)
			value = jsonappend.String(nil, s)
		}
	}
	if count != 1 {
		return nil, "give exactly one of textValue, numberValue, dateValue and singleSelectOptionId, or delete: true."
	}
	return value, ""
}

// optionName returns the name of the option of the field fieldID that the
// node_id id names, or id itself, which the field's validation then
// refuses as no option of it.
func (e *exec) optionName(fields []issuefields.Field, fieldID int64, id string) string {
	n, err := e.s.decode(id)
	if f := fieldByID(fields, fieldID); err == nil && n.Kind == ids.KindOption && n.Field == fieldID && f != nil {
		for _, o := range f.Options {
			if o.ID == n.Option {
				return o.Name
			}
		}
	}
	return id
}

// merge returns current with the values of updates in place of those of
// their fields (new ones after), and without those of the fields deleted.
func merge(current, updates []issuefields.Value, deleted []int64) []issuefields.Value {
	out := make([]issuefields.Value, 0, len(current)+len(updates))
	gone := func(id int64) bool {
		return slices.Contains(deleted, id) || slices.ContainsFunc(updates, func(u issuefields.Value) bool { return u.FieldID == id })
	}
	for _, v := range current {
		if !gone(v.FieldID) {
			out = append(out, v)
		}
	}
	for _, u := range updates {
		if !slices.Contains(deleted, u.FieldID) {
			out = append(out, u)
		}
	}
	return out
}

// setState returns the change of closeIssue and reopenIssue: the issue's
// state and its reason (closing is "completed" unless the input says
// another), as PATCH of state makes it, for a caller that PATCH lets
// change it (issues.MayWrite: issues=write, push access or not).
func (e *exec) setState(state, reason string) func(issuefields.Snapshot) (issuefields.Issue, error) {
	return func(snap issuefields.Snapshot) (issuefields.Issue, error) {
		if _, err := issues.MayWrite(e.call, snap.Repository); err != nil {
			return issuefields.Issue{}, err
		}
		next := snap.Issue
		if state == "closed" && reason == "" {
			reason = "completed"
		}
		was := cmp.Or(next.State, "open")
		if was == state && (state == "open" || next.StateReason == reason) {
			return next, nil // as PATCH of the state the issue has changes nothing
		}
		next.StateReason = reason
		if was == state {
			return next, nil // a closed issue's new reason: it closed when it did
		}
		next.State = state
		next.ClosedAt = time.Time{}
		if state == "closed" {
			next.ClosedAt = time.Now().UTC().Truncate(time.Second)
		}
		return next, nil
	}
}
