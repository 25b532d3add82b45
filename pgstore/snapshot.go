package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/issuefields/issuefields"
	"github.com/jackc/pgx/v5"
)

// snapshotQuery finds, in one statement, the repository that owner/name ($1,
// $2 as name keys) names, its owner's account and the account's snapshot
// version (which versions its fields too), and the row of its issue $3:
// state, where a transferred issue went, version, values, ID and own fields.
// A repository that does not exist gives no row; an issue that does not
// exist gives NULLs, and contentColumns' zeros.
var snapshotQuery = `
	SELECT r.id, a.login, r.name, r.private, a.organization, a.id, a.snapshot_version,
		i.state, i.moved_to_repository_id, i.moved_to_number, i.version, i.field_values, ` + contentColumns + `
	FROM repository_names n
	JOIN repositories r ON r.id = n.repository_id
	JOIN accounts a ON a.id = r.owner_id
	LEFT JOIN issues i ON i.repository_id = r.id AND i.number = $3
	WHERE n.owner_key = $1 AND n.name_key = $2`

// Snapshot reads, in one query, all that a request for issue number of
// owner/name needs: the repository that owner/name names now or named
// before, the fields of the repository's owner, the issue, and, when it is
// the issue asked for, its ID, content and version. The fields come from
// memory when the version of the owner's fields that the query reads is the
// one kept; otherwise a second query reads them, and they are kept for the
// next requests. An issue that was transferred takes a second query too,
// which follows its transfers. The Snapshot's Revision holds the owner's
// account and its snapshot version, which [Store.UpdateIssue] and
// [Store.CreateIssue] check.
func (s *Store) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var snap issuefields.Snapshot
	r := &snap.Repository
	var at revision
	var st issueState
	var version *int64
	var data []byte
	var state *string
	var content issuefields.Issue
	var rec record
	err := s.db.QueryRow(ctx, snapshotQuery, nameKey(owner), nameKey(name), number).Scan(append([]any{
		&r.ID, &r.Owner, &r.Name, &r.Private, &r.OwnedByOrganization, &at.owner, &at.version,
		&state, &st.movedToRepository, &st.movedToNumber, &version, &data}, rec.targets(&content)...)...)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return snap, fmt.Errorf("pgstore: repository %q: %w", owner+"/"+name, issuefields.ErrNotFound)
	case err != nil:
		return snap, wrap(fmt.Sprintf("read issue %d of repository %q", number, owner+"/"+name), err)
	}
	if snap.Fields, err = s.fields.of(ctx, s.db, at.owner, at.version); err != nil {
		return snap, err
	}
	snap.Revision = at.String()
	key := issuefields.IssueKey{RepositoryID: r.ID, Number: number}
	switch {
	case state == nil:
		snap.IssueErr = noIssue(key)
		return snap, nil
	case *state == "transferred":
		snap.Issue, snap.IssueErr = s.issue(ctx, key)
		return snap, nil
	}
	st.state = *state
	if snap.IssueErr = st.check(describe(key)); snap.IssueErr != nil {
		return snap, nil
	}
	rec.finish()
	snap.Issue = content
	snap.Issue.Repository, snap.Issue.Number, snap.Issue.Version = snap.Repository, number, formatVersion(*version)
	if snap.Issue.Values, err = s.decode(key, *version, data); err != nil {
		return snap, err
	}
	return snap, nil
}

// decode returns the values of key at version, which data holds: the kept
// ones, when this process kept that version, and otherwise those that data
// holds, which it keeps.
func (s *Store) decode(key issuefields.IssueKey, version int64, data []byte) ([]issuefields.Value, error) {
	if r, ok := s.recent.get(key); ok && r.version == version {
		return r.values, nil
	}
	values, err := decodeValues(data)
	if err != nil {
		return nil, fmt.Errorf("pgstore: read the values of %s: %w", describe(key), err)
	}
	s.recent.put(key, version, values)
	return values, nil
}

// formatVersion returns the version of an issue whose version column holds n.
func formatVersion(n int64) issuefields.Version {
	return issuefields.Version(strconv.FormatInt(n, 10))
}
