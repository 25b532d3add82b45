package pgstore

import (
	"context"
	"fmt"
	"sync"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
)

// keptRepositories keeps, for the owner/name pairs that Snapshot found, the
// repository they named, the ID of its owner's account and the versions of
// the owner that the same query read, for up to maxRecent pairs. What it
// keeps may be stale: SwapIfCurrent checks it.
type keptRepositories struct {
	mu    sync.RWMutex
	names map[[2]string]keptRepository
}

// A keptRepository is what a Snapshot found for one owner/name pair. Its
// owner's snapshot version (the accounts table's snapshot_version) stands for
// all of it, and for the owner's fields at fieldsVersion: every change to
// them, through any server, gives the owner a new snapshot version in its
// transaction.
type keptRepository struct {
	repo            issuefields.Repository
	ownerID         int64
	snapshotVersion int64
	fieldsVersion   int64
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
// SwapIfCurrent checks: the snapshot version of the repository's owner and
// the version of the issue.
type keptCheck struct {
	ownerID         int64
	snapshotVersion int64
	key             issuefields.IssueKey
	version         int64
}

// KeptSnapshot returns, from memory, the Snapshot of issue number of
// owner/name as this Store last read or wrote it: the repository that the
// pair named, the fields of its owner at the version read with it, and the
// issue's values at the newest version seen. It returns ok false when it
// keeps one of them not, or keeps the owner's fields at another version. The
// Snapshot may be stale; [Store.SwapIfCurrent] checks it against the
// database in the statement that writes.
func (s *Store) KeptSnapshot(owner, name string, number int64) (issuefields.Snapshot, any, bool) {
	names := [2]string{nameKey(owner), nameKey(name)}
	r, ok := s.repos.get(names)
	if !ok {
		return issuefields.Snapshot{}, nil, false
	}
	fields, ok := s.fields.kept(r.ownerID)
	if !ok || fields.version != r.fieldsVersion {
		// The owner's snapshot version stands for its fields at the version
		// read with it, not at another one.
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
	check := &keptCheck{ownerID: r.ownerID, snapshotVersion: r.snapshotVersion, key: key, version: values.version}
	return snap, check, true
}

// SwapIfCurrent stores values as the values of the issue of a kept Snapshot,
// whose check KeptSnapshot returned, in one UPDATE statement that also checks
// that the database holds what the Snapshot shows: the issue is live and has
// the same version, and the repository's owner has the same snapshot
// version, so owner/name names the same repository, with the same owner,
// name and privacy, and the owner has the same login, kind and fields. When
// one of them differs, it changes nothing and returns an error wrapping
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
	// The issue's row is checked under its lock; the owner's snapshot
	// version, one lookup by primary key, as the statement sees it, as a
	// Snapshot would. The row it writes had version $3, so the new version
	// is the next one, which the statement need not return.
	const query = `
		UPDATE issues SET field_values = $4, version = version + 1
		WHERE repository_id = $1 AND number = $2 AND state = 'live' AND version = $3
			AND EXISTS (SELECT FROM accounts WHERE id = $5 AND snapshot_version = $6)`
	tag, err := s.pool.Exec(ctx, query, c.key.RepositoryID, c.key.Number, c.version, data, c.ownerID, c.snapshotVersion)
	switch {
	case err != nil:
		return "", wrap(what, err)
	case tag.RowsAffected() == 0:
		return "", fmt.Errorf("pgstore: %s: the database no longer holds what the kept snapshot shows: %w", what, issuefields.ErrVersionConflict)
	}
	version := c.version + 1
	s.recent.put(c.key, version, clone.Values(values))
	return formatVersion(version), nil
}
