package pgstore

import (
	"fmt"

	"github.com/issuefields/issuefields"
)

// An issueState is what the issues table says of an issue: "live",
// "deleted" or "transferred", and where a transferred issue went.
type issueState struct {
	state             string
	movedToRepository *int64
	movedToNumber     *int64
}

// check returns nil if the issue is live, and otherwise an error that names
// the issue as what and wraps [issuefields.ErrIssueDeleted] for a deleted
// issue or [issuefields.ErrNotFound] for a transferred one.
func (st issueState) check(what string) error {
	switch st.state {
	case "live":
		return nil
	case "deleted":
		return fmt.Errorf("pgstore: %s: %w", what, issuefields.ErrIssueDeleted)
	case "transferred":
		movedTo := issuefields.IssueKey{RepositoryID: *st.movedToRepository, Number: *st.movedToNumber}
		return fmt.Errorf("pgstore: %s was transferred to %s: %w", what, describe(movedTo), issuefields.ErrNotFound)
	}
	return fmt.Errorf("pgstore: %s is in the unknown state %q", what, st.state)
}

// describe names the issue that key identifies, for an error message.
func describe(key issuefields.IssueKey) string {
	return fmt.Sprintf("issue %d of repository %d", key.Number, key.RepositoryID)
}

// noIssue returns the error for a key that never was an issue.
func noIssue(key issuefields.IssueKey) error {
	return fmt.Errorf("pgstore: %s: %w", describe(key), issuefields.ErrNotFound)
}
