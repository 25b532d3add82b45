package pgstore

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/issuefields/issuefields"
	"github.com/jackc/pgx/v5"
)

// ChangeFields replaces the fields of the organization org with those that
// change returns, as [issuefields.FieldManager] describes, in one
// transaction. The transaction first locks the organization's row, so that
// changes of one organization's fields apply one at a time across every
// Store on the database, and calls change with the fields it then reads;
// readers see the fields before or after a change, never a part of it. Each
// field and option with ID 0 gets the next number of the organization's
// counter (the accounts table's last_field_id), which fields and options
// share and which never goes down, so no ID is given twice. The change gives
// the fields a new version, so every Store on the database reads them again.
// It leaves the issues alone: values of a field or an option that the change
// removes stay in the database, and the handler no longer shows them.
//
// It writes the key of every name (see nameKeys), so that the database
// refuses a field or an option that is new, or renamed, with the name of
// another field of the organization or another option of its field: then
// ChangeFields changes nothing and returns an error that says so. The
// handler never asks for such a change (it checks names while the
// organization's row is locked), so the index stops only rows written by
// other means. Names that the change keeps are never refused.
func (s *Store) ChangeFields(ctx context.Context, org string, change func(current []issuefields.Field) ([]issuefields.Field, error)) ([]issuefields.Field, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	what := fmt.Sprintf("change the fields of organization %q", org)
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return nil, wrap(what, err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var accountID, lastID int64
	err = tx.QueryRow(ctx, `SELECT id, last_field_id FROM accounts WHERE login_key = $1 AND organization FOR UPDATE`,
		nameKey(org)).Scan(&accountID, &lastID)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, fmt.Errorf("pgstore: organization %q: %w", org, issuefields.ErrNotFound)
	case err != nil:
		return nil, wrap(what, err)
	}
	current, err := organizationFields(ctx, tx, org)
	if err != nil {
		return nil, err
	}
	next, err := change(current)
	if err != nil {
		return nil, fmt.Errorf("pgstore: %s: %w", what, err)
	}
	stored, lastID := withIDs(current, next, lastID)
	batch := &pgx.Batch{}
	batch.Queue(`DELETE FROM field_options WHERE account_id = $1`, accountID)
	batch.Queue(`DELETE FROM fields WHERE account_id = $1`, accountID)
	for i, keys := range nameKeys(current, stored) {
		queueInsertField(batch, accountID, stored[i], keys)
	}
	batch.Queue(`UPDATE accounts SET last_field_id = $2 WHERE id = $1`, accountID, lastID)
	err = tx.SendBatch(ctx, batch).Close()
	switch {
	case nameTaken(err):
		return nil, fmt.Errorf("pgstore: %s: a name that another field or option has: %w", what, err)
	case err != nil:
		return nil, wrap(what, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, wrap(what, err)
	}
	return stored, nil
}

// withIDs returns a copy of next, the new fields of an organization whose
// fields are current and whose counter of IDs is at lastID, in which each
// field and option with ID 0 has a new ID, and the counter afterwards. New
// IDs follow lastID and every ID of current and next, so that none is one
// that a field or an option of the organization has, or had.
func withIDs(current, next []issuefields.Field, lastID int64) ([]issuefields.Field, int64) {
	for _, f := range slices.Concat(current, next) {
		lastID = max(lastID, f.ID)
		for _, o := range f.Options {
			lastID = max(lastID, o.ID)
		}
	}
	out := make([]issuefields.Field, len(next))
	for i, f := range next {
		f.Options = slices.Clone(f.Options)
		if f.ID == 0 {
			lastID++
			f.ID = lastID
		}
		for j := range f.Options {
			if f.Options[j].ID == 0 {
				lastID++
				f.Options[j].ID = lastID
			}
		}
		out[i] = f
	}
	return out, lastID
}
