package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/jackc/pgx/v5"
)

var _ issuefields.FieldManager = (*Store)(nil)

// fieldColumns are the columns that fieldsOf reads: one row per option, or
// per field without options, or one row of NULLs for an account without
// fields. A query that selects them orders by f.position, o.position.
const fieldColumns = `f.id, f.name, f.data_type, f.description, f.visibility, f.created_at, f.updated_at,
	o.id, o.name, o.color, o.description, o.priority`

// Fields returns the issue fields of the organization that owns repo now, in
// the organization's order, with their options in order. A repository owned by
// a user has no fields: Fields returns an empty slice. It returns an error
// wrapping [issuefields.ErrNotFound] for a repository the store does not know.
func (s *Store) Fields(ctx context.Context, repo issuefields.Repository) ([]issuefields.Field, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	const query = `SELECT ` + fieldColumns + `
		FROM repositories r
		LEFT JOIN fields f ON f.account_id = r.owner_id
		LEFT JOIN field_options o ON o.account_id = f.account_id AND o.field_id = f.id
		WHERE r.id = $1
		ORDER BY f.position, o.position`
	return fieldsOf(ctx, s.pool, fmt.Sprintf("repository %d", repo.ID), query, repo.ID)
}

// OrganizationFields returns the fields of the organization org, in the
// organization's order, as Fields returns them for its repositories. It
// returns an error wrapping [issuefields.ErrNotFound] when org is not an
// organization of the store.
func (s *Store) OrganizationFields(ctx context.Context, org string) ([]issuefields.Field, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return organizationFields(ctx, s.pool, org)
}

// organizationFields reads the fields of the organization org through q.
func organizationFields(ctx context.Context, q fieldQuerier, org string) ([]issuefields.Field, error) {
	const query = `SELECT ` + fieldColumns + `
		FROM accounts a
		LEFT JOIN fields f ON f.account_id = a.id
		LEFT JOIN field_options o ON o.account_id = f.account_id AND o.field_id = f.id
		WHERE a.login_key = $1 AND a.organization
		ORDER BY f.position, o.position`
	return fieldsOf(ctx, q, fmt.Sprintf("organization %q", org), query, nameKey(org))
}

// ChangeFields replaces the fields of the organization org with those that
// change returns, as [issuefields.FieldManager] describes, in one
// transaction. The transaction first locks the organization's row, so that
// changes of one organization's fields apply one at a time across every
// Store on the database; readers see the fields before or after a change,
// never a part of it. When a field or an option goes, the transaction
// removes the values that used it and moves every live issue of the
// organization's repositories to a new version, which a CompareAndSwap
// prepared before the change no longer matches.
func (s *Store) ChangeFields(ctx context.Context, org string, change func(current []issuefields.Field) ([]issuefields.Field, error)) ([]issuefields.Field, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	what := fmt.Sprintf("change the fields of organization %q", org)
	var stored []issuefields.Field
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var accountID, lastID int64
		err := tx.QueryRow(ctx, `SELECT id, last_field_id FROM accounts WHERE login_key = $1 AND organization FOR UPDATE`,
			nameKey(org)).Scan(&accountID, &lastID)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("pgstore: organization %q: %w", org, issuefields.ErrNotFound)
		}
		if err != nil {
			return wrap(what, err)
		}
		current, err := organizationFields(ctx, tx, org)
		if err != nil {
			return err
		}
		next, err := change(current)
		if err != nil {
			return err
		}
		plan, err := issuefields.PlanFieldChange(current, next, lastID)
		if err != nil {
			return fmt.Errorf("pgstore: fields of organization %q: %w", org, err)
		}
		if err := storeFields(ctx, tx, accountID, plan); err != nil {
			return wrap(what, err)
		}
		if plan.Removes {
			if err := pruneValues(ctx, tx, accountID, plan.Fields); err != nil {
				return wrap(what, err)
			}
		}
		stored = plan.Fields
		return nil
	})
	if err != nil {
		return nil, err
	}
	return stored, nil
}

// storeFields replaces the fields of the account accountID with those of
// plan, and keeps its last ID.
func storeFields(ctx context.Context, tx pgx.Tx, accountID int64, plan issuefields.FieldPlan) error {
	batch := &pgx.Batch{}
	batch.Queue(`DELETE FROM field_options WHERE account_id = $1`, accountID)
	batch.Queue(`DELETE FROM fields WHERE account_id = $1`, accountID)
	for _, f := range plan.Fields {
		queueInsertField(batch, accountID, f)
	}
	batch.Queue(`UPDATE accounts SET last_field_id = $2 WHERE id = $1`, accountID, plan.LastID)
	return tx.SendBatch(ctx, batch).Close()
}

// pruneValues removes the values that fields no longer define from the live
// issues of the account accountID's repositories, and gives each a new
// version.
func pruneValues(ctx context.Context, tx pgx.Tx, accountID int64, fields []issuefields.Field) error {
	rows, err := tx.Query(ctx, `
		SELECT i.repository_id, i.number, i.field_values
		FROM issues i JOIN repositories r ON r.id = i.repository_id
		WHERE r.owner_id = $1 AND i.state = 'live'
		ORDER BY i.repository_id, i.number
		FOR UPDATE OF i`, accountID)
	if err != nil {
		return err
	}
	type stored struct {
		key  issuefields.IssueKey
		data []byte
	}
	issues, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (stored, error) {
		var is stored
		err := row.Scan(&is.key.RepositoryID, &is.key.Number, &is.data)
		return is, err
	})
	if err != nil {
		return err
	}
	batch := &pgx.Batch{}
	for _, is := range issues {
		values, err := decodeValues(is.data)
		if err != nil {
			return fmt.Errorf("read the values of %s: %w", describe(is.key), err)
		}
		values, _ = issuefields.PruneValues(values, fields)
		data, err := encodeValues(values)
		if err != nil {
			return err
		}
		batch.Queue(`UPDATE issues SET field_values = $3, version = version + 1 WHERE repository_id = $1 AND number = $2`,
			is.key.RepositoryID, is.key.Number, data)
	}
	return tx.SendBatch(ctx, batch).Close()
}

// A fieldQuerier is a pool or a transaction.
type fieldQuerier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// fieldsOf runs query, which selects fieldColumns for the account that arg
// names, and returns the fields. It returns ErrNotFound, naming what, when
// the query finds no row.
func fieldsOf(ctx context.Context, q fieldQuerier, what, query string, arg any) ([]issuefields.Field, error) {
	rows, err := q.Query(ctx, query, arg)
	if err != nil {
		return nil, wrap("read the fields of "+what, err)
	}
	defer rows.Close()
	fields := []issuefields.Field{}
	found := false
	for rows.Next() {
		found = true
		var f fieldRow
		if err := rows.Scan(f.columns()...); err != nil {
			return nil, wrap("read the fields of "+what, err)
		}
		fields = f.appendTo(fields)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("read the fields of "+what, err)
	}
	if !found {
		return nil, fmt.Errorf("pgstore: %s: %w", what, issuefields.ErrNotFound)
	}
	return fields, nil
}

// A fieldRow is one row of fieldColumns; every column may be NULL.
type fieldRow struct {
	id, optionID                            *int64
	name, dataType, description, visibility *string
	optionName, color, optionDescription    *string
	createdAt, updatedAt                    *time.Time
	priority                                *int
}

// columns returns where to scan fieldColumns into r.
func (r *fieldRow) columns() []any {
	return []any{&r.id, &r.name, &r.dataType, &r.description, &r.visibility, &r.createdAt, &r.updatedAt,
		&r.optionID, &r.optionName, &r.color, &r.optionDescription, &r.priority}
}

// appendTo adds what r holds to fields: a new field, an option of the last
// field, or nothing for the row of an account without fields.
func (r *fieldRow) appendTo(fields []issuefields.Field) []issuefields.Field {
	if r.id == nil {
		return fields
	}
	if n := len(fields); n == 0 || fields[n-1].ID != *r.id {
		f := issuefields.Field{ID: *r.id, Name: *r.name, DataType: issuefields.DataType(*r.dataType),
			Description: *r.description, Visibility: issuefields.Visibility(*r.visibility)}
		if r.createdAt != nil {
			f.CreatedAt = r.createdAt.UTC()
		}
		if r.updatedAt != nil {
			f.UpdatedAt = r.updatedAt.UTC()
		}
		fields = append(fields, f)
	}
	if r.optionID != nil {
		f := &fields[len(fields)-1]
		f.Options = append(f.Options, issuefields.Option{ID: *r.optionID, Name: *r.optionName, Color: *r.color,
			Description: *r.optionDescription, Priority: *r.priority})
	}
	return fields
}
