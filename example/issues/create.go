package issues

import (
	"net/http"

	"github.com/issuefields/issuefields"
)

// create serves POST of an issue: the repository's next issue, open, by the
// caller, answered 201 with its Location. A refused request creates
// nothing and uses no number.
func (s *server) create(c *issuefields.Call) error {
	owner, name := path(c)
	snap, err := c.ReadIssue(owner, name, 0)
	if err != nil {
		return err
	}
	push, err := MayWrite(c, snap.Repository)
	if err != nil {
		return err
	}
	req, err := readRequest(c, true)
	if err != nil {
		return err
	}
	req.drop(push, snap.Repository)
	_, made, err := c.CreateIssue(owner, name, func(snap issuefields.Snapshot) (issuefields.Issue, error) {
		return req.apply(c, issuefields.Snapshot{Repository: snap.Repository, Fields: snap.Fields,
			Issue: issuefields.Issue{State: "open", Author: c.Principal().Login}})
	})
	if err != nil {
		return err
	}
	c.Header().Set("Location", s.objects.Issue(made, nil).URL)
	return s.answer(c, http.StatusCreated, made)
}
