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

// Organizations returns the logins of the store's organizations, spelt as
// they were added, in the order they were added. A server may check each
// one's fields with [issuefields.ValidateFields], through
// [Store.OrganizationFields], to report what a database holds from before a
// rule, such as two fields whose names differ only in case: the store keeps
// serving those as they are.
func (s *Store) Organizations(ctx context.Context) ([]string, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	rows, err := s.db.Query(ctx, `SELECT login FROM accounts WHERE organization ORDER BY id`)
	if err != nil {
		return nil, wrap("list the organizations", err)
	}
	logins, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, wrap("list the organizations", err)
	}
	return logins, nil
}

// AddField appends f to the fields of the organization org. It returns an
// error, and adds nothing, if org is not an organization of the store (an
// error that wraps [issuefields.ErrNotFound]) or if
// [issuefields.ValidateFields] refuses the organization's fields with f after
// them. The IDs of f and its options count as given: a field or an option
// that [Store.ChangeFields] creates later gets an ID above them.
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
			return fmt.Errorf("pgstore: %q is a user, not an organization: %w", a.login, issuefields.ErrNotFound)
		}
		fields, err := organizationFields(ctx, tx, a.login)
		if err != nil {
			return err
		}
		if err := issuefields.ValidateFields(append(fields, f)); err != nil {
			return fmt.Errorf("pgstore: field %d of organization %q: %w", f.ID, a.login, err)
		}
		lastID := f.ID
		for _, o := range f.Options {
			lastID = max(lastID, o.ID)
		}
		batch := &pgx.Batch{}
		queueInsertField(batch, a.id, f, nameKeys(nil, []issuefields.Field{f})[0])
		batch.Queue(`UPDATE accounts SET last_field_id = greatest(last_field_id, $2) WHERE id = $1`, a.id, lastID)
		if err := tx.SendBatch(ctx, batch).Close(); err != nil {
			return wrap(what, err)
		}
		return nil
	})
}

// queueInsertField queues the statements that store f, with its options in
// order, after the fields of the organization whose account is accountID,
// under the keys of their names.
func queueInsertField(batch *pgx.Batch, accountID int64, f issuefields.Field, keys fieldKeys) {
	batch.Queue(`INSERT INTO fields (account_id, id, position, name, name_key, data_type, description, visibility, created_at, updated_at)
		SELECT $1, $2, coalesce(max(position) + 1, 0), $3, $4, $5, $6, $7, $8, $9 FROM fields WHERE account_id = $1`,
		accountID, f.ID, f.Name, keys.name, string(f.DataType), f.Description, string(f.Visibility),
		optionalTime(f.CreatedAt), optionalTime(f.UpdatedAt))
	for i, o := range f.Options {
		batch.Queue(`INSERT INTO field_options (account_id, field_id, id, position, name, name_key, color, description, priority)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			accountID, f.ID, o.ID, i, o.Name, keys.options[i], o.Color, o.Description, o.Priority)
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
