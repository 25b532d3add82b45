package issues

import (
	"cmp"
	"slices"
	"time"

	"github.com/issuefields/issuefields"
)

// apply returns the issue of snap as req changes it, or the 422 of its
// issue_field_values, validated against the fields of snap as the values
// routes validate theirs (a multi_select value an array of option names, as
// the add route takes it); they replace the issue's values, as the set route
// does. Closing an issue gives it the state reason completed and the closing
// time now, unless req says another reason; reopening one gives it the
// reason reopened.
func (req request) apply(c *issuefields.Call, snap issuefields.Snapshot) (issuefields.Issue, error) {
	is := snap.Issue
	if req.values != nil {
		values, err := c.ParseValues(*req.values, snap.Fields, true)
		if err != nil {
			return is, err
		}
		is.Values = values
	}
	if req.title != nil {
		is.Title = *req.title
	}
	if req.body != nil {
		is.Body = *req.body
	}
	if req.labels != nil {
		is.Labels = slices.Clone(*req.labels)
	}
	if req.assignees != nil {
		is.Assignees = slices.Clone(*req.assignees)
	}
	was := cmp.Or(is.State, "open")
	if req.state != nil && *req.state != was {
		is.State = *req.state
		if is.State == "closed" {
			is.StateReason, is.ClosedAt = "completed", time.Now().UTC().Truncate(time.Second)
		} else {
			is.StateReason, is.ClosedAt = "reopened", time.Time{}
		}
	}
	switch {
	case req.stateReason != nil:
		is.StateReason = *req.stateReason
	case req.clearReason:
		is.StateReason = ""
	}
	return is, nil
}
