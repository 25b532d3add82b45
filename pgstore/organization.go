package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/jackc/pgx/v5"
)

// AddOrganization adds the organization login. Repositories that
// AddRepository or TransferRepository give to it are owned by an
// organization, and have the fields that AddField gives it. It returns an
// error if login is empty or already names an account of the store, be it an
// organization or a user that owns a repository.
func (s *Store) AddOrganization(login string) error {
	if login == "" {
		return errors.New("pgstore: empty organization login")
	}
	what := "add organization " + strconv.Quote(login)
	return s.seed(what, func(ctx context.Context, tx pgx.Tx) error {
		a, ok, err := findAccount(ctx, tx, login)
		switch {
		case err != nil:
			return err
		case ok:
			return fmt.Errorf("pgstore: organization %q: account %q already exists", login, a.login)
		}
		_, err = tx.Exec(ctx, `INSERT INTO accounts (login, login_key, organization) VALUES ($1, $2, true)`, login, nameKey(login))
		if err != nil {
			return wrap(what, err)
		}
		return nil
	})
}

// AddField appends f to the fields of the organization org. It returns an
// error, and adds nothing, if org is not an organization of the store or f is
// not a well-formed field of it: f.ID must be positive and f.Name non-empty,
// both unique among the organization's fields; f.DataType must be valid; a
// single_select or multi_select field needs at least one option, each with a
// positive ID and a non-empty name that are unique within the field; a field
// of another data type has no options.
func (s *Store) AddField(org string, f issuefields.Field) error {
	what := fmt.Sprintf("add field %d to organization %q", f.ID, org)
	return s.seed(what, func(ctx context.Context, tx pgx.Tx) error {
		a, ok, err := findAccount(ctx, tx, org)
		switch {
		case err != nil:
			return err
		case !ok:
			return fmt.Errorf("pgstore: organization %q: %w", org, issuefields.ErrNotFound)
		case !a.organization:
			return fmt.Errorf("pgstore: %q is a user, not an organization", a.login)
		}
		fields, err := fieldNames(ctx, tx, a.id)
		if err != nil {
			return wrap(what, err)
		}
		if err := issuefields.ValidateField(fields, f); err != nil {
			return fmt.Errorf("pgstore: field %d of organization %q: %w", f.ID, a.login, err)
		}
		if err := insertField(ctx, tx, a.id, f); err != nil {
			return wrap(what, err)
		}
		return nil
	})
}

// fieldNames returns the IDs and names of the fields of the organization
// whose account is accountID.
func fieldNames(ctx context.Context, tx pgx.Tx, accountID int64) ([]issuefields.Field, error) {
	rows, err := tx.Query(ctx, `SELECT id, name FROM fields WHERE account_id = $1`, accountID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (issuefields.Field, error) {
		var f issuefields.Field
		err := row.Scan(&f.ID, &f.Name)
		return f, err
	})
}

// insertField stores f, with its options in order, after the fields of the
// organization whose account is accountID.
func insertField(ctx context.Context, tx pgx.Tx, accountID int64, f issuefields.Field) error {
	batch := &pgx.Batch{}
	queueInsertField(batch, accountID, f)
	return tx.SendBatch(ctx, batch).Close()
}

// queueInsertField queues the statements that store f, with its options in
// order, after the fields of the organization whose account is accountID.
func queueInsertField(batch *pgx.Batch, accountID int64, f issuefields.Field) {
	batch.Queue(`INSERT INTO fields (account_id, id, position, name, data_type, description, visibility, created_at, updated_at)
		SELECT $1, $2, coalesce(max(position) + 1, 0), $3, $4, $5, $6, $7, $8 FROM fields WHERE account_id = $1`,
		accountID, f.ID, f.Name, string(f.DataType), f.Description, string(f.Visibility), optionalTime(f.CreatedAt), optionalTime(f.UpdatedAt))
	for i, o := range f.Options {
		batch.Queue(`INSERT INTO field_options (account_id, field_id, id, position, name, color, description, priority)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			accountID, f.ID, o.ID, i, o.Name, o.Color, o.Description, o.Priority)
	}
}

// optionalTime returns nil, stored as NULL, for the zero time, and t
// otherwise.
func optionalTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
