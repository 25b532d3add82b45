package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/reponame"
	"github.com/jackc/pgx/v5"
)

// Repository finds the repository that owner/name names now or named before,
// case-insensitively, and returns it under its current owner and name. It
// returns an error wrapping [issuefields.ErrNotFound] when no repository has
// or had that name.
func (s *Store) Repository(ctx context.Context, owner, name string) (issuefields.Repository, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	r, err := findRepository(ctx, s.pool, owner, name)
	return r.Repository, err
}

// Issue finds issue number in repo, following transfers to the issue's
// current repository and number. It returns an error wrapping
// [issuefields.ErrIssueDeleted] for a deleted issue and one wrapping
// [issuefields.ErrNotFound] for a number that never was an issue of repo or a
// repository the store does not know.
func (s *Store) Issue(ctx context.Context, repo issuefields.Repository, number int64) (issuefields.Issue, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.issue(ctx, issuefields.IssueKey{RepositoryID: repo.ID, Number: number})
}

// issue finds the issue that key names now, following its transfers.
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
	err := s.pool.QueryRow(ctx, query, key.RepositoryID, key.Number).
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

// A repository is a repository as the store knows it, with the ID of its
// owner's account.
type repository struct {
	issuefields.Repository
	ownerID int64
}

// A querier is a pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// findRepository finds the repository that owner/name names now or named
// before, through q.
func findRepository(ctx context.Context, q querier, owner, name string) (repository, error) {
	const query = `
		SELECT r.id, a.login, r.name, r.private, a.organization, a.id
		FROM repository_names n
		JOIN repositories r ON r.id = n.repository_id
		JOIN accounts a ON a.id = r.owner_id
		WHERE n.owner_key = $1 AND n.name_key = $2`
	var r repository
	err := q.QueryRow(ctx, query, nameKey(owner), nameKey(name)).
		Scan(&r.ID, &r.Owner, &r.Name, &r.Private, &r.OwnedByOrganization, &r.ownerID)
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
