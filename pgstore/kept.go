package pgstore

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
	"github.com/jackc/pgx/v5"
)

// keptRepositories keeps, for the owner/name pairs that Snapshot found, the
// repository they named and the ID of its owner's account, for up to
// maxRecent pairs. What it keeps may be stale: SwapIfCurrent checks it.
type keptRepositories struct {
	mu    sync.RWMutex
	names map[[2]string]keptRepository
}

// A keptRepository is what a Snapshot found for one owner/name pair.
type keptRepository struct {
	repo    issuefields.Repository
	ownerID int64
}

// get returns what is kept of the pair of name keys.
func (k *keptRepositories) get(names [2]string) (keptRepository, bool) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	r, ok := k.names[names]
	return r, ok
}

// put keeps r as what the pair of name keys names. When the map is full, a
// pair picked at random makes room.
func (k *keptRepositories) put(names [2]string, r keptRepository) {
	if kept, ok := k.get(names); ok && kept == r {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.names == nil {
		k.names = make(map[[2]string]keptRepository)
	}
	if _, ok := k.names[names]; !ok && len(k.names) >= maxRecent {
		for other := range k.names {
			delete(k.names, other)
			break
		}
	}
	k.names[names] = r
}

// A keptCheck is the state of the database that a kept Snapshot shows, which
// SwapIfCurrent checks.
type keptCheck struct {
	names         [2]string
	repo          keptRepository
	fieldsVersion int64
	key           issuefields.IssueKey
	version       int64
}

// KeptSnapshot returns, from memory, the Snapshot of issue number of
// owner/name as this Store last read or wrote it: the repository that the
// pair named, the fields of its owner at the version last seen, and the
// issue's values at the newest version seen. It returns ok false when it
// keeps one of them not. The Snapshot may be stale; [Store.SwapIfCurrent]
// checks it against the database in the statement that writes.
func (s *Store) KeptSnapshot(owner, name string, number int64) (issuefields.Snapshot, any, bool) {
	names := [2]string{nameKey(owner), nameKey(name)}
	r, ok := s.repos.get(names)
	if !ok {
		return issuefields.Snapshot{}, nil, false
	}
	fields, ok := s.fields.kept(r.ownerID)
	if !ok {
		return issuefields.Snapshot{}, nil, false
	}
	key := issuefields.IssueKey{RepositoryID: r.repo.ID, Number: number}
	values, ok := s.recent.get(key)
	if !ok {
		return issuefields.Snapshot{}, nil, false
	}
	snap := issuefields.Snapshot{
		Repository: r.repo,
		Issue:      issuefields.Issue{Repository: r.repo, Number: number},
		Fields:     fields.fields,
		Values:     values.values,
		Version:    formatVersion(values.version),
	}
	check := &keptCheck{names: names, repo: r, fieldsVersion: fields.version, key: key, version: values.version}
	return snap, check, true
}

// SwapIfCurrent stores values as the values of the issue of a kept Snapshot,
// whose check KeptSnapshot returned, in one UPDATE statement that also checks
// that the database holds what the Snapshot shows: owner/name names the same
// repository, with the same owner, name and privacy; the owner's fields have
// the same version; the issue is live and has the same version. When one of
// them differs, it changes nothing and returns an error wrapping
// [issuefields.ErrVersionConflict]. Writers of one issue in this process
// take turns before they take a connection, as those of
// [Store.CompareAndSwap].
func (s *Store) SwapIfCurrent(ctx context.Context, check any, values []issuefields.Value) (issuefields.Version, error) {
	c, ok := check.(*keptCheck)
	if !ok {
		return "", fmt.Errorf("pgstore: SwapIfCurrent got a check of type %T, not one of KeptSnapshot", check)
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	what := "write the values of " + describe(c.key)
	release, err := s.turns.take(ctx, c.key)
	if err != nil {
		return "", wrap("wait for the turn to write "+describe(c.key), err)
	}
	defer release()
	if r, ok := s.recent.get(c.key); ok && r.version > c.version {
		// A write of this process committed since the snapshot was kept.
		return "", conflict(c.key, formatVersion(c.version))
	}
	data, err := encodeValues(values)
	if err != nil {
		return "", fmt.Errorf("pgstore: %s: %w", what, err)
	}
	// The issue's row is checked under its lock; the repository and the
	// fields' version as the statement sees them, as a Snapshot would.
	const query = `
		UPDATE issues SET field_values = $4, version = version + 1
		WHERE repository_id = $1 AND number = $2 AND state = 'live' AND version = $3
			AND EXISTS (
				SELECT FROM repository_names n
				JOIN repositories r ON r.id = n.repository_id
				JOIN accounts a ON a.id = r.owner_id
				WHERE n.owner_key = $5 AND n.name_key = $6 AND r.id = $1
					AND a.id = $7 AND a.login = $8 AND r.name = $9 AND r.private = $10
					AND a.organization = $11 AND a.fields_version = $12)
		RETURNING version`
	r := c.repo.repo
	var version int64
	err = s.pool.QueryRow(ctx, query, c.key.RepositoryID, c.key.Number, c.version, data,
		c.names[0], c.names[1], c.repo.ownerID, r.Owner, r.Name, r.Private, r.OwnedByOrganization, c.fieldsVersion).
		Scan(&version)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", fmt.Errorf("pgstore: %s: the database no longer holds what the kept snapshot shows: %w", what, issuefields.ErrVersionConflict)
	case err != nil:
		return "", wrap(what, err)
	}
	s.recent.put(c.key, version, clone.Values(values))
	return formatVersion(version), nil
}
