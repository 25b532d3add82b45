package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/jackc/pgx/v5"
)

// snapshotQuery finds, in one statement, the repository that owner/name ($1,
// $2 as name keys) names, the version of its owner's fields, the issue $3 of
// it at the end of its chain of transfers, that issue's repository when it is
// another one, and the issue's values and version. A repository that does
// not exist gives no row; an issue that does not exist gives NULLs.
const snapshotQuery = `
	WITH RECURSIVE repo AS (
		SELECT r.id, a.login, r.name, r.private, a.organization, a.id AS owner_id, a.fields_version
		FROM repository_names n
		JOIN repositories r ON r.id = n.repository_id
		JOIN accounts a ON a.id = r.owner_id
		WHERE n.owner_key = $1 AND n.name_key = $2
	), chain AS (
		SELECT i.repository_id, i.number, i.state, i.moved_to_repository_id, i.moved_to_number,
			i.version, i.field_values, 0 AS hops
		FROM issues i JOIN repo ON i.repository_id = repo.id
		WHERE i.number = $3
		UNION ALL
		SELECT i.repository_id, i.number, i.state, i.moved_to_repository_id, i.moved_to_number,
			i.version, i.field_values, c.hops + 1
		FROM issues i JOIN chain c ON i.repository_id = c.moved_to_repository_id AND i.number = c.moved_to_number
		WHERE c.hops < 100
	)
	SELECT repo.id, repo.login, repo.name, repo.private, repo.organization, repo.owner_id, repo.fields_version,
		c.repository_id, c.number, c.state, c.version, c.field_values,
		ia.login, ir.name, ir.private, ia.organization
	FROM repo
	LEFT JOIN chain c ON c.state <> 'transferred'
	LEFT JOIN repositories ir ON ir.id = c.repository_id AND c.repository_id <> repo.id
	LEFT JOIN accounts ia ON ia.id = ir.owner_id`

// Snapshot reads, in one query, all that a request for the values of issue
// number of owner/name needs: the repository as [Store.Repository] finds it,
// the issue as [Store.Issue] finds it in that repository, and, when it is the
// issue asked for, its values and version, and the fields of the
// repository's owner. The fields come from memory when the version of the
// owner's fields that the query reads is the one kept; otherwise a second
// query reads them, and they are kept for the next requests.
func (s *Store) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var snap issuefields.Snapshot
	r := &snap.Repository
	var ownerID, fieldsVersion int64
	var issueRepo, issueNumber, version *int64
	var state *string
	var data []byte
	var movedOwner, movedName *string
	var movedPrivate, movedOrganization *bool
	err := s.pool.QueryRow(ctx, snapshotQuery, nameKey(owner), nameKey(name), number).Scan(
		&r.ID, &r.Owner, &r.Name, &r.Private, &r.OwnedByOrganization, &ownerID, &fieldsVersion,
		&issueRepo, &issueNumber, &state, &version, &data,
		&movedOwner, &movedName, &movedPrivate, &movedOrganization)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return snap, fmt.Errorf("pgstore: repository %q: %w", owner+"/"+name, issuefields.ErrNotFound)
	case err != nil:
		return snap, wrap(fmt.Sprintf("read issue %d of repository %q", number, owner+"/"+name), err)
	}
	asked := issuefields.IssueKey{RepositoryID: r.ID, Number: number}
	switch {
	case issueNumber == nil:
		snap.IssueErr = noIssue(asked)
		return snap, nil
	case *state == "deleted":
		snap.IssueErr = fmt.Errorf("pgstore: issue %d of repository %d: %w", *issueNumber, *issueRepo, issuefields.ErrIssueDeleted)
		return snap, nil
	case movedName != nil:
		snap.Issue = issuefields.Issue{Number: *issueNumber, Repository: issuefields.Repository{ID: *issueRepo,
			Owner: *movedOwner, Name: *movedName, Private: *movedPrivate, OwnedByOrganization: *movedOrganization}}
		return snap, nil
	}
	snap.Issue = issuefields.Issue{Repository: snap.Repository, Number: *issueNumber}
	if *issueNumber != number {
		return snap, nil // transferred within the repository
	}
	if snap.Values, err = decodeValues(data); err != nil {
		return snap, fmt.Errorf("pgstore: read the values of %s: %w", describe(asked), err)
	}
	snap.Version = formatVersion(*version)
	snap.Fields, err = s.fields.of(ctx, s.pool, ownerID, fieldsVersion)
	return snap, err
}
