package issues

import (
	"net/http"

	"github.com/issuefields/issuefields"
)

// get serves GET of an issue: the issue object, with its ETag, or 304 for a
// matching If-None-Match.
func (s *server) get(c *issuefields.Call) error {
	number, err := c.IssueNumber("issue_number")
	if err != nil {
		return err
	}
	owner, name := path(c)
	snap, err := c.ReadIssue(owner, name, number)
	if err != nil {
		return err
	}
	if c.NotModified(c.ETag(snap)) {
		return nil
	}
	return c.WriteJSON(http.StatusOK, s.object(c, snap))
}
