package issues

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/issuefields/issuefields"
)

// GitHub's bounds of an issue's text.
const (
	maxTitle = 256    // characters of a title
	maxBody  = 65_536 // characters of a body
)

// request is what a create or an update asks for: each member nil when the
// body leaves it out. Members that GitHub takes and the stand-in does not
// keep (milestone, type) and unknown members are ignored, as GitHub ignores
// them.
type request struct {
	title, body, state, stateReason *string
	labels, assignees               *[]string
	values                          *[]json.RawMessage
	// clearReason is set for a state_reason of null.
	clearReason bool
}

// problem is one of GitHub's validation-error objects of an issue.
type problem struct {
	Resource string `json:"resource"`
	Code     string `json:"code"`
	Field    string `json:"field"`
	Message  string `json:"message,omitempty"`
}

// The states and state reasons of an issue.
var (
	states       = []string{"open", "closed"}
	stateReasons = []string{"completed", "not_planned", "duplicate", "reopened"}
)

// readRequest reads the body of c, a create when create is set, and returns
// what it asks for, or the 422 of every member that is invalid (a create
// without a title among them).
func readRequest(c *issuefields.Call, create bool) (request, error) {
	members, err := c.ReadObject()
	if err != nil {
		return request{}, err
	}
	var req request
	var problems []any
	fail := func(field, code, format string, args ...any) {
		problems = append(problems, problem{Resource: "Issue", Code: code, Field: field, Message: fmt.Sprintf(format, args...)})
	}
	text := func(field string, max int, nullable bool) *string {
		raw, ok := members[field]
		if !ok {
			return nil
		}
		var s *string
		if json.Unmarshal(raw, &s) != nil || s == nil && !nullable {
			fail(field, "invalid", "%s must be a string.", field)
			return nil
		}
		if s == nil {
			s = new(string)
		}
		if n := utf8.RuneCountInString(*s); n > max {
			fail(field, "custom", "%s is too long (maximum is %d characters)", field, max)
		}
		return s
	}
	choice := func(field string, allowed []string) *string {
		raw, ok := members[field]
		if !ok {
			return nil
		}
		var s *string
		if json.Unmarshal(raw, &s) == nil && s == nil && field == "state_reason" {
			req.clearReason = true
			return nil
		}
		if s == nil || !slices.Contains(allowed, *s) {
			fail(field, "invalid", "%s must be one of %s.", field, strings.Join(allowed, ", "))
			return nil
		}
		return s
	}
	names := func(field string) *[]string {
		raw, ok := members[field]
		if !ok {
			return nil
		}
		var list []string
		if json.Unmarshal(raw, &list) != nil || list == nil {
			fail(field, "invalid", "%s must be an array of strings.", field)
			return nil
		}
		return &list
	}
	req.title = text("title", maxTitle, false)
	if create && req.title == nil && members["title"] == nil || req.title != nil && *req.title == "" {
		fail("title", "missing_field", "title is required.")
	}
	req.body = text("body", maxBody, true)
	if !create {
		req.state = choice("state", states)
		req.stateReason = choice("state_reason", stateReasons)
	}
	req.labels = names("labels")
	req.assignees = names("assignees")
	if raw, ok := members["issue_field_values"]; ok {
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil || items == nil {
			fail("issue_field_values", "invalid", "issue_field_values must be an array of objects with field_id and value.")
		} else {
			req.values = &items
		}
	}
	if len(problems) > 0 {
		return request{}, c.Invalid(problems...)
	}
	return req, nil
}

// drop leaves out of req what the caller may not set silently, as GitHub
// does: issue_field_values, labels and assignees without push access, and
// issue_field_values in a repository that a user owns, which has no fields.
func (req *request) drop(push bool, repo issuefields.Repository) {
	if !push {
		req.values, req.labels, req.assignees = nil, nil, nil
	}
	if !repo.OwnedByOrganization {
		req.values = nil
	}
}
