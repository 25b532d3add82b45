package pgstore

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A migration is one step of the schema: a version number, a description,
// and the SQL that takes the schema from the previous version to this one.
type migration struct {
	version     int
	description string
	sql         string
}

//go:embed migrations/001_tables.sql
var tablesSQL string

//go:embed migrations/002_fields_version.sql
var fieldsVersionSQL string

//go:embed migrations/003_field_management.sql
var fieldManagementSQL string

//go:embed migrations/004_snapshot_version.sql
var snapshotVersionSQL string

//go:embed migrations/005_drop_snapshot_version.sql
var dropSnapshotVersionSQL string

// migrations lists every step of the schema, in order. A step, once
// released, never changes: a change to the schema is a new step at the end.
var migrations = []migration{
	{1, "accounts, fields, repositories and issues", tablesSQL},
	{2, "a version of each account's fields", fieldsVersionSQL},
	{3, "field management: descriptions, visibility, times, priorities and the last field ID", fieldManagementSQL},
	{4, "a version of all that a snapshot of each account's repositories shows", snapshotVersionSQL},
	{5, "no snapshot version: writes check the issue's version alone", dropSnapshotVersionSQL},
	{6, "unique keys of the names of fields and options", nameKeysSQL},
	{7, "the budgets of the secondary rate limit that servers share", writeBudgetsSQL},
	{8, "webhooks and their deliveries", hooksSQL},
	{9, "issue versions that a reset never gives again, and a count of resets", resetsSQL},
	{10, "one version of all that a Snapshot shows of each account, which a kept Snapshot's write checks", accountVersionSQL},
	{11, "issues as records: IDs, their own fields beside their values, and each repository's last issue number", issueRecordsSQL},
	{12, "the budgets of the primary rate limit that servers share", requestBudgetsSQL},
}

// migrateLockClass is the first key of the advisory lock that Migrate takes;
// the second is a hash of the schema it migrates.
const migrateLockClass = 0x70677374 // "pgst"

// Migrate brings the tables of the store to the current schema, in the first
// schema of the search_path of pool's connections. It records each applied
// step in the table schema_migrations, with its version number, and applies
// each missing step in a transaction of its own, which also records it: a
// step is applied completely, exactly once. Every transaction holds an
// advisory lock on the schema, so that servers that start together and all
// call Migrate apply each step once between them, and each returns once the
// schema is current. Migrate returns an error, and changes nothing, if the
// database records a step that this package does not know: a newer version
// of it migrated the database.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	for _, m := range migrations {
		err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return m.apply(ctx, tx) })
		if err != nil {
			return wrap(fmt.Sprintf("apply schema version %d (%s)", m.version, m.description), err)
		}
	}
	return nil
}

// apply applies m in tx, unless the schema has it already.
func (m migration) apply(ctx context.Context, tx pgx.Tx) error {
	// A step may take longer than the store's Timeout, which a pool of
	// Open gives its connections, and so may the wait for another server's
	// step.
	_, err := tx.Exec(ctx, `SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0`)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext(coalesce(current_schema(), '')))`, migrateLockClass)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version     integer     PRIMARY KEY,
		description text        NOT NULL,
		applied_at  timestamptz NOT NULL DEFAULT now())`)
	if err != nil {
		return err
	}
	var newest int
	var applied bool
	err = tx.QueryRow(ctx, `SELECT coalesce(max(version), 0), coalesce(bool_or(version = $1), false) FROM schema_migrations`,
		m.version).Scan(&newest, &applied)
	if err != nil {
		return err
	}
	if latest := migrations[len(migrations)-1].version; newest > latest {
		return fmt.Errorf("the database has schema version %d, newer than version %d, the latest this package knows", newest, latest)
	}
	if applied {
		return nil
	}
	if _, err := tx.Exec(ctx, m.sql); err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO schema_migrations (version, description) VALUES ($1, $2)`, m.version, m.description)
	return err
}
