package issues

import (
	"net/http"

	"github.com/issuefields/issuefields"
)

// update serves PATCH of an issue: the members the body gives change, in
// one step of the values routes' write sequence, and the answer is the
// issue as stored. A refused request changes nothing.
func (s *server) update(c *issuefields.Call) error {
	number, err := c.IssueNumber("issue_number")
	if err != nil {
		return err
	}
	owner, name := path(c)
	snap, err := c.ReadIssue(owner, name, number)
	if err != nil {
		return err
	}
	push, err := MayWrite(c, snap.Repository)
	if err != nil {
		return err
	}
	req, err := readRequest(c, false)
	if err != nil {
		return err
	}
	req.drop(push, snap.Repository)
	made, err := c.UpdateIssue(owner, name, number, issuefields.ActionSet, func(snap issuefields.Snapshot) (issuefields.Issue, error) {
		return req.apply(c, snap)
	})
	if err != nil {
		return err
	}
	return s.answer(c, http.StatusOK, made)
}
