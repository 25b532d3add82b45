package pgstore

import (
	"context"
	"fmt"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/jackc/pgx/v5"
)

// fieldColumns are the columns that organizationFields and readFields read:
// one row per option, or per field without options, or one row of NULLs for
// an account without fields. A query that selects them orders by f.position,
// o.position.
const fieldColumns = `f.id, f.name, f.data_type, f.description, f.visibility, f.created_at, f.updated_at,
	o.id, o.name, o.color, o.description, o.priority`

// OrganizationFields returns the fields of the organization org, in the
// organization's order, with their options in order, as Snapshot returns
// them for its repositories. It returns an error wrapping
// [issuefields.ErrNotFound] when org is not an organization of the store.
func (s *Store) OrganizationFields(ctx context.Context, org string) ([]issuefields.Field, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return organizationFields(ctx, s.db, org)
}

// organizationFields reads the fields of the organization org through q. It
// returns an error wrapping [issuefields.ErrNotFound] when org is not an
// organization of the store.
func organizationFields(ctx context.Context, q fieldQuerier, org string) ([]issuefields.Field, error) {
	const query = `SELECT ` + fieldColumns + `
		FROM accounts a
		LEFT JOIN fields f ON f.account_id = a.id
		LEFT JOIN field_options o ON o.account_id = f.account_id AND o.field_id = f.id
		WHERE a.login_key = $1 AND a.organization
		ORDER BY f.position, o.position`
	what := fmt.Sprintf("read the fields of organization %q", org)
	rows, err := q.Query(ctx, query, nameKey(org))
	if err != nil {
		return nil, wrap(what, err)
	}
	defer rows.Close()
	fields := []issuefields.Field{}
	found := false
	for rows.Next() {
		found = true
		var f fieldRow
		if err := rows.Scan(f.columns()...); err != nil {
			return nil, wrap(what, err)
		}
		fields = f.appendTo(fields)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(what, err)
	}
	if !found {
		return nil, fmt.Errorf("pgstore: organization %q: %w", org, issuefields.ErrNotFound)
	}
	return fields, nil
}

// A fieldQuerier is a pool or a transaction.
type fieldQuerier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
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
		f.Options = append(f.Options, issuefields.FieldOption{ID: *r.optionID, Name: *r.optionName, Color: *r.color,
			Description: *r.optionDescription, Priority: *r.priority})
	}
	return fields
}
