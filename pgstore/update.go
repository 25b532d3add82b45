package pgstore

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
	"github.com/issuefields/issuefields/webhook"
	"github.com/jackc/pgx/v5"
)

// accountVersionSQL is schema step 10: one version of all that a Snapshot
// shows of an account and its repositories, which a write checks with one
// lookup.
//
//go:embed migrations/010_snapshot_version.sql
var accountVersionSQL string

// A revision is what a Snapshot's Revision records of all that it shows
// besides the issue: the account that owns the repository, and the
// account's snapshot version, which every change to the account, its fields,
// its repositories and their names replaces (schema step 10).
type revision struct {
	owner, version int64
}

// String returns r as a Snapshot's Revision holds it.
func (r revision) String() string {
	return strconv.FormatInt(r.owner, 10) + "." + strconv.FormatInt(r.version, 10)
}

// parseRevision returns the revision that s holds, and false when String
// did not make s.
func parseRevision(s string) (revision, bool) {
	owner, version, ok := strings.Cut(s, ".")
	var r revision
	var errOwner, errVersion error
	r.owner, errOwner = strconv.ParseInt(owner, 10, 64)
	r.version, errVersion = strconv.ParseInt(version, 10, 64)
	return r, ok && errOwner == nil && errVersion == nil
}

// swapQuery stores $3 as the values of issue $2 of repository $1, and $7 to
// $16 as its own fields, under the next version, if the issue is live there
// at version $4 and the owner $5 of the repository is at snapshot version
// $6: everything a Snapshot shows, since every change to the owner's login,
// kind, fields, repositories and their names gives the owner a new snapshot
// version (schema step 10). It returns the count of resets, which the same
// snapshot of the database shows: the epoch that the write was made in.
var swapQuery = `
	UPDATE issues SET field_values = $3, version = version + 1, ` + setContent(7) + `
	WHERE repository_id = $1 AND number = $2 AND state = 'live' AND version = $4
		AND EXISTS (SELECT FROM accounts WHERE id = $5 AND snapshot_version = $6)
	RETURNING (SELECT count FROM resets)`

// UpdateIssue stores next's content as the content of the issue that snap
// shows live in its repository, under the next version, as
// [issuefields.Store] describes, with one UPDATE: one round trip, which
// changes the issue's row only if the database still holds what snap shows
// (the issue live at snap's version, and the owner's account at the snapshot
// version of snap's Revision). Otherwise it returns an error that wraps
// [issuefields.ErrChanged]. It records in ctx's mark the epoch of the write
// (webhook.MarkEpoch), and keeps the values it stored, so that the next
// Snapshot of that version need not decode them.
func (s *Store) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	key := snap.Issue.Key()
	at, ok := parseRevision(snap.Revision)
	version, err := strconv.ParseInt(string(snap.Issue.Version), 10, 64)
	if snap.IssueErr != nil || key.RepositoryID != snap.Repository.ID || !ok || err != nil {
		return "", changed(key)
	}
	data, err := encodeValues(next.Values)
	if err != nil {
		return "", fmt.Errorf("pgstore: write the values of %s: %w", describe(key), err)
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var resets int64
	args := append([]any{key.RepositoryID, key.Number, data, version, at.owner, at.version}, contentArgs(&next)...)
	err = s.db.QueryRow(ctx, swapQuery, args...).Scan(&resets)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", changed(key)
	case err != nil:
		return "", wrap("write "+describe(key), err)
	}
	s.saw(resets)
	webhook.MarkEpoch(ctx, resets)
	// The row had version, so it has the next one now.
	s.recent.put(key, version+1, clone.Values(next.Values))
	return formatVersion(version + 1), nil
}

// changed returns the error of an UpdateIssue of key from a Snapshot that
// the database no longer holds.
func changed(key issuefields.IssueKey) error {
	return fmt.Errorf("pgstore: %s: %w", describe(key), issuefields.ErrChanged)
}
