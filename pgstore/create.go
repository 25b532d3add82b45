package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
	"github.com/jackc/pgx/v5"
)

var _ issuefields.IssueStore = (*Store)(nil)

// createQuery adds an issue to repository $1 with the number above the
// repository's last one, which it raises in the same statement, and with
// values $4 and own fields $5 to $14, if the repository's owner $2 is at
// snapshot version $3; it returns the issue's number, ID and version. The
// row of the repository is locked by the UPDATE, so creates in one
// repository take turns, on every server, and each reads the last number
// that the one before it left; a create that fails leaves it as it was.
var createQuery = `
	WITH repo AS (
		UPDATE repositories SET last_issue_number = last_issue_number + 1
		WHERE id = $1 AND EXISTS (SELECT FROM accounts WHERE id = $2 AND snapshot_version = $3)
		RETURNING id, last_issue_number)
	INSERT INTO issues (repository_id, number, field_values, ` + contentNames[len("id, "):] + `)
	SELECT id, last_issue_number, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14 FROM repo
	RETURNING number, id, version`

// CreateIssue stores issue's content as a new live issue of snap.Repository,
// as [issuefields.IssueStore] describes, with one INSERT: one round trip,
// which adds the issue only if the owner's account is at the snapshot
// version of snap's Revision, and otherwise returns an error that wraps
// [issuefields.ErrChanged] and uses no number. The issue takes the next of
// the store's issue IDs.
func (s *Store) CreateIssue(ctx context.Context, snap issuefields.Snapshot, issue issuefields.Issue) (issuefields.Issue, error) {
	at, ok := parseRevision(snap.Revision)
	what := fmt.Sprintf("create an issue in repository %d", snap.Repository.ID)
	if !ok {
		return issuefields.Issue{}, fmt.Errorf("pgstore: %s: %w", what, issuefields.ErrChanged)
	}
	data, err := encodeValues(issue.Values)
	if err != nil {
		return issuefields.Issue{}, fmt.Errorf("pgstore: %s: %w", what, err)
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	created := clone.Issue(issue)
	created.Repository = snap.Repository
	var version int64
	args := append([]any{snap.Repository.ID, at.owner, at.version, data}, contentArgs(&issue)...)
	err = s.db.QueryRow(ctx, createQuery, args...).Scan(&created.Number, &created.ID, &version)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return issuefields.Issue{}, fmt.Errorf("pgstore: %s: %w", what, issuefields.ErrChanged)
	case err != nil:
		return issuefields.Issue{}, wrap(what, err)
	}
	created.Version = formatVersion(version)
	s.recent.put(created.Key(), version, created.Values)
	return created, nil
}

// issuesQuery reads the live issues of the repositories $1 and those whose
// IDs are $2, with their repositories as they are now, ordered by
// repository and number.
var issuesQuery = `
	SELECT r.id, a.login, r.name, r.private, a.organization, i.number, i.version, i.field_values, ` + contentColumns + `
	FROM issues i
	JOIN repositories r ON r.id = i.repository_id
	JOIN accounts a ON a.id = r.owner_id
	WHERE i.state = 'live' AND (i.repository_id = ANY ($1) OR i.id = ANY ($2))
	ORDER BY i.repository_id, i.number`

// Issues returns the live issues that q names, ordered by repository ID and
// number, with one query.
func (s *Store) Issues(ctx context.Context, q issuefields.IssueQuery) ([]issuefields.Issue, error) {
	if len(q.Repositories) == 0 && len(q.IDs) == 0 {
		return nil, nil
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	rows, err := s.db.Query(ctx, issuesQuery, nonNil(q.Repositories), nonNil(q.IDs))
	if err != nil {
		return nil, wrap("list issues", err)
	}
	defer rows.Close()
	var out []issuefields.Issue
	for rows.Next() {
		var is issuefields.Issue
		var rec record
		var version int64
		var data []byte
		r := &is.Repository
		err := rows.Scan(append([]any{&r.ID, &r.Owner, &r.Name, &r.Private, &r.OwnedByOrganization, &is.Number, &version, &data},
			rec.targets(&is)...)...)
		if err != nil {
			return nil, wrap("list issues", err)
		}
		rec.finish()
		is.Version = formatVersion(version)
		if is.Values, err = s.decode(is.Key(), version, data); err != nil {
			return nil, err
		}
		out = append(out, is)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("list issues", err)
	}
	return out, nil
}

// Repositories returns every repository of the store, by ID.
func (s *Store) Repositories(ctx context.Context) ([]issuefields.Repository, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	rows, err := s.db.Query(ctx, `
		SELECT r.id, a.login, r.name, r.private, a.organization
		FROM repositories r JOIN accounts a ON a.id = r.owner_id ORDER BY r.id`)
	if err != nil {
		return nil, wrap("list repositories", err)
	}
	repos, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (issuefields.Repository, error) {
		var r issuefields.Repository
		return r, row.Scan(&r.ID, &r.Owner, &r.Name, &r.Private, &r.OwnedByOrganization)
	})
	if err != nil {
		return nil, wrap("list repositories", err)
	}
	return repos, nil
}
