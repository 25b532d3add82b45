package graphql

import (
	"net/http"

	"github.com/issuefields/issuefields"
)

// readIssue reads issue number of owner/name (0 for the repository alone)
// with Call.ReadIssue, and follows GitHub's GraphQL where REST redirects: a
// repository renamed or transferred is found under its old name (as
// repository's followRenames, true by default, asks), and a transferred
// issue where it is now. ReadIssue answers the caller with a redirect only
// once it has authorized it on the repository, so the store's Snapshot
// tells it nothing new: where to read again, once, with the same checks.
func (e *exec) readIssue(owner, name string, number int64) (issuefields.Snapshot, error) {
	snap, err := e.call.ReadIssue(owner, name, number)
	if err == nil {
		return snap, e.readable(snap)
	}
	if status, _ := e.call.Explain(err); status != http.StatusMovedPermanently && status != http.StatusTemporaryRedirect {
		return snap, err
	}
	at, serr := e.s.cfg.Store.Snapshot(e.call.Request().Context(), owner, name, number)
	if serr != nil {
		return snap, err
	}
	owner, name = at.Repository.Owner, at.Repository.Name
	if number != 0 && at.IssueErr == nil {
		owner, name, number = at.Issue.Repository.Owner, at.Issue.Repository.Name, at.Issue.Number
	}
	if snap, err = e.call.ReadIssue(owner, name, number); err != nil {
		return snap, err
	}
	return snap, e.readable(snap)
}

// readable refuses the read of snap in a mutation's answer, where the
// request is a write and ReadIssue decides only that the caller sees the
// repository: the caller must also be one whom a query would let read it
// (a query, Call.ReadOnly, has ReadIssue decide that itself).
func (e *exec) readable(snap issuefields.Snapshot) error {
	if !e.mutating {
		return nil
	}
	ok, err := e.call.MayRead(snap.Repository)
	if err == nil && !ok {
		err = e.call.NotAccessible("the permission issues=read")
	}
	return err
}
