package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/clone"
	"github.com/issuefields/issuefields/webhook"
	"github.com/jackc/pgx/v5"
)

// UpdateValues calls change with a Snapshot of issue number of owner/name
// and stores what change returns as the issue's values under a new version,
// as [issuefields.Store] describes.
//
// When this process keeps a Snapshot of the place (a Snapshot or a write
// kept it), UpdateValues calls change with it and stores the result with one
// UPDATE that changes the issue's row only if the database still holds what
// the Snapshot shows: one round trip. Otherwise it reads a Snapshot first:
// two. That first call of change, which reads the request's body, runs
// before the write takes its turn and its time bound. Writers of one place in
// this process then take turns, before they take a connection of the pool.
// When the UPDATE finds the database moved on, or change refused a kept
// Snapshot (which may be stale), UpdateValues calls change again with the
// Snapshot that another writer of this process kept meanwhile, if any, and
// then with Snapshots it reads, storing with the same UPDATE, while another
// write gets there first, within the time bound. An error of change is
// returned only from a call with a Snapshot read for this write.
func (s *Store) UpdateValues(ctx context.Context, owner, name string, number int64, change func(issuefields.Snapshot) ([]issuefields.Value, error)) (issuefields.Version, error) {
	at := placeOf(owner, name, number)
	what := fmt.Sprintf("write the values of issue %d of repository %q", number, owner+"/"+name)
	k, kept := s.kept.get(at)
	if !kept {
		var err error
		if k, err = s.readBounded(ctx, owner, name, number); err != nil {
			return "", err
		}
	}
	next, changeErr := change(k.snap)
	if changeErr != nil && !kept {
		return "", fmt.Errorf("pgstore: %s: %w", what, changeErr)
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	release, err := s.turns.take(ctx, at)
	if err != nil {
		return "", wrap("wait for the turn to "+what, err)
	}
	defer release()
	// A writer of this process that had the turn before may have kept a
	// newer Snapshot meanwhile: k is then stale, and the write starts from
	// that one instead.
	other, ok := s.kept.get(at)
	moved := ok && other.version != k.version
	if changeErr == nil && !moved {
		if !kept {
			if err := notHere(&k.snap, number); err != nil {
				return "", err
			}
		}
		version, stored, err := s.swap(ctx, at, &k, next)
		if stored || err != nil {
			return version, err
		}
	}
	if moved {
		if next, err := change(other.snap); err == nil {
			version, stored, err := s.swap(ctx, at, &other, next)
			if stored || err != nil {
				return version, err
			}
		}
	}
	for {
		k, err := s.read(ctx, owner, name, number)
		if err != nil {
			return "", err
		}
		next, err := change(k.snap)
		if err != nil {
			return "", fmt.Errorf("pgstore: %s: %w", what, err)
		}
		if err := notHere(&k.snap, number); err != nil {
			return "", err
		}
		version, stored, err := s.swap(ctx, at, &k, next)
		if stored || err != nil {
			return version, err
		}
		if err := ctx.Err(); err != nil {
			return "", wrap(what, err)
		}
	}
}

// notHere returns the error of a Snapshot that shows no live issue number
// in its Repository, and nil for one that does.
func notHere(snap *issuefields.Snapshot, number int64) error {
	key := issuefields.IssueKey{RepositoryID: snap.Repository.ID, Number: number}
	switch {
	case snap.IssueErr != nil:
		return snap.IssueErr
	case snap.Issue.Key() != key:
		return fmt.Errorf("pgstore: %s was transferred to %s: %w", describe(key), describe(snap.Issue.Key()), issuefields.ErrNotFound)
	}
	return nil
}

// swapQuery stores $3 as the values of issue $2 of repository $1 under the
// next version, if the issue is live there at version $4 and the owner $5 of
// the repository is at snapshot version $6: everything a Snapshot shows,
// since every change to the owner's login, kind, fields, repositories and
// their names gives the owner a new snapshot version (schema step 10). It
// returns the count of resets, which the same snapshot of the database
// shows: the epoch that the write was made in.
const swapQuery = `
	UPDATE issues SET field_values = $3, version = version + 1
	WHERE repository_id = $1 AND number = $2 AND state = 'live' AND version = $4
		AND EXISTS (SELECT FROM accounts WHERE id = $5 AND snapshot_version = $6)
	RETURNING (SELECT count FROM resets)`

// swap stores values as the values of the issue of k, a Snapshot of the
// place at, if the database still holds what k shows, in one statement. It
// reports whether it stored them, and returns the new version when it did,
// keeping the Snapshot it made, and recording in ctx's mark the epoch of the
// write (webhook.MarkEpoch). The caller has the place's turn.
func (s *Store) swap(ctx context.Context, at place, k *kept, values []issuefields.Value) (issuefields.Version, bool, error) {
	r := &k.snap.Repository
	what := "write the values of " + describe(k.snap.Issue.Key())
	data, err := encodeValues(values)
	if err != nil {
		return "", false, fmt.Errorf("pgstore: %s: %w", what, err)
	}
	var resets int64
	err = s.db.QueryRow(ctx, swapQuery, r.ID, at.number, data, k.version, k.ownerID, k.snapshotVersion).Scan(&resets)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		s.kept.forget(at)
		return "", false, nil
	case err != nil:
		return "", false, wrap(what, err)
	}
	s.saw(resets)
	webhook.MarkEpoch(ctx, resets)
	// The row had version k.version, so it has the next one now.
	next := *k
	next.version++
	next.snap.Version = formatVersion(next.version)
	next.snap.Values = clone.Values(values)
	s.kept.put(at, next)
	s.recent.put(k.snap.Issue.Key(), next.version, next.snap.Values)
	return next.snap.Version, true, nil
}
