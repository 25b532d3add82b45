package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/reponame"
	"github.com/jackc/pgx/v5"
)

// issue finds the issue that key names now, following its transfers to the
// issue's current repository and number. It returns an error wrapping
// [issuefields.ErrIssueDeleted] when the issue at the end of the chain was
// deleted, and one wrapping [issuefields.ErrNotFound] when key never was an
// issue.
func (s *Store) issue(ctx context.Context, key issuefields.IssueKey) (issuefields.Issue, error) {
	// The chain of transfers starts at the issue and ends at the first issue
	// that was not transferred.
	const query = `
		WITH RECURSIVE chain AS (
			SELECT repository_id, number, state, moved_to_repository_id, moved_to_number
			FROM issues WHERE repository_id = $1 AND number = $2
			UNION
			SELECT i.repository_id, i.number, i.state, i.moved_to_repository_id, i.moved_to_number
			FROM issues i JOIN chain c ON i.repository_id = c.moved_to_repository_id AND i.number = c.moved_to_number
		)
		SELECT c.number, c.state = 'deleted', r.id, a.login, r.name, r.private, a.organization
		FROM chain c
		JOIN repositories r ON r.id = c.repository_id
		JOIN accounts a ON a.id = r.owner_id
		WHERE c.state <> 'transferred'`
	var is issuefields.Issue
	var deleted bool
	r := &is.Repository
	err := s.db.QueryRow(ctx, query, key.RepositoryID, key.Number).
		Scan(&is.Number, &deleted, &r.ID, &r.Owner, &r.Name, &r.Private, &r.OwnedByOrganization)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return issuefields.Issue{}, noIssue(key)
	case err != nil:
		return issuefields.Issue{}, wrap("find "+describe(key), err)
	case deleted:
		return issuefields.Issue{}, fmt.Errorf("pgstore: %s: %w", describe(is.Key()), issuefields.ErrIssueDeleted)
	}
	return is, nil
}

// findRepository finds, in tx, the repository that owner/name names now or
// named before, under its current owner and name. It returns an error
// wrapping [issuefields.ErrNotFound] when no repository has or had that name.
func findRepository(ctx context.Context, tx pgx.Tx, owner, name string) (issuefields.Repository, error) {
	const query = `
		SELECT r.id, a.login, r.name, r.private, a.organization
		FROM repository_names n
		JOIN repositories r ON r.id = n.repository_id
		JOIN accounts a ON a.id = r.owner_id
		WHERE n.owner_key = $1 AND n.name_key = $2`
	var r issuefields.Repository
	err := tx.QueryRow(ctx, query, nameKey(owner), nameKey(name)).
		Scan(&r.ID, &r.Owner, &r.Name, &r.Private, &r.OwnedByOrganization)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return r, fmt.Errorf("pgstore: repository %q: %w", owner+"/"+name, issuefields.ErrNotFound)
	case err != nil:
		return r, wrap(fmt.Sprintf("find repository %q", owner+"/"+name), err)
	}
	return r, nil
}

// nameKey returns the key under which an owner's login or a repository's
// name is looked up.
func nameKey(name string) string {
	return reponame.Key(name)
}
