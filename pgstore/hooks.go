package pgstore

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
	"github.com/jackc/pgx/v5"
)

var _ webhook.Store = (*Hooks)(nil)

// Hooks is the [webhook.Store] of a Store, which [Store.Hooks] returns: the
// hooks and their newest deliveries, in the tables hooks and
// hook_deliveries beside the API's data, the same for every Store on the
// database. The package documentation says how it keeps them. It is safe
// for concurrent use.
type Hooks struct {
	s *Store
}

// Hooks returns the hooks and deliveries that s keeps. Those of a Store of
// a load (LoadIfEmpty, Reload) work in the load's transaction.
func (s *Store) Hooks() *Hooks { return &Hooks{s: s} }

// The hooks table keeps each hook with its scope, and hook_deliveries the
// newest deliveries of each hook (schema step 8).
//
//go:embed migrations/008_hooks.sql
var hooksSQL string

// hookLockClass is the first key of the advisory lock that CreateHook takes
// on a scope; the second is a hash of the scope.
const hookLockClass = 0x686f6f6b // "hook"

// hookColumns are the columns of the hooks table that scanHook reads.
const hookColumns = `id, organization, repository_id, active, events, url, content_type, secret, insecure_ssl, created_at, updated_at`

// Hooks returns the hooks of scope, by ID. An organization's login matches
// case-insensitively.
func (h *Hooks) Hooks(ctx context.Context, scope webhook.Scope) ([]webhook.Hook, error) {
	key, err := scopeKey(scope)
	if err != nil {
		return nil, err
	}
	ctx, cancel := h.s.bound(ctx)
	defer cancel()
	rows, err := h.s.db.Query(ctx, `SELECT `+hookColumns+` FROM hooks
		WHERE organization_key = $1 AND repository_id = $2 ORDER BY id`, key.Organization, key.RepositoryID)
	return collectHooks(rows, err, "read the hooks of "+describeScope(scope))
}

// CreateHook stores hook under a new ID from the hooks table's identity,
// which no hook had before, unless hook's scope has max hooks already. It
// does not check that the organization or the repository of the scope
// exists; the routes do.
//
// The check and the creation are one implicit transaction of one round trip,
// a batch of two statements: the first takes an advisory lock on the scope,
// which the transaction holds to its end, and the second, which sees every
// hook committed before the lock was granted, inserts the hook only if the
// scope has fewer than max. So creations in one scope apply one at a time,
// whichever Store on the database makes them. A Store of a load takes no
// such lock: a reload has locked the hooks table, and a creation that holds
// the scope's lock and waits for the table would deadlock with it, while a
// first load comes before any server serves the store.
func (h *Hooks) CreateHook(ctx context.Context, hook webhook.Hook, max int) (webhook.Hook, error) {
	key, err := scopeKey(hook.Scope)
	if err != nil {
		return webhook.Hook{}, err
	}
	ctx, cancel := h.s.bound(ctx)
	defer cancel()
	what := "create a hook of " + describeScope(hook.Scope)
	c := hook.Config
	batch := &pgx.Batch{}
	if h.s.load == nil {
		batch.Queue(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, hookLockClass, lockName(key))
	}
	batch.Queue(`INSERT INTO hooks (organization, organization_key, repository_id, active, events,
			url, content_type, secret, insecure_ssl, created_at, updated_at)
		SELECT $1, $2, $3, $4, coalesce($5, '{}'::text[]), $6, $7, $8, $9, $10, $11
		WHERE (SELECT count(*) FROM hooks WHERE organization_key = $2 AND repository_id = $3) < $12
		RETURNING id`,
		hook.Scope.Organization, key.Organization, key.RepositoryID, hook.Active, hook.Events,
		c.URL, c.ContentType, c.Secret, c.InsecureSSL, hook.CreatedAt, hook.UpdatedAt, max,
	).QueryRow(func(row pgx.Row) error { return row.Scan(&hook.ID) })
	err = h.s.db.SendBatch(ctx, batch).Close()
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return webhook.Hook{}, fmt.Errorf("pgstore: hooks of %s: %w", describeScope(hook.Scope), webhook.ErrTooManyHooks)
	case err != nil:
		return webhook.Hook{}, wrap(what, err)
	}
	h.s.hooks.forget()
	return hook, nil
}

// UpdateHook replaces hook id of scope with what change returns, in one
// transaction that locks the hook's row (SELECT ... FOR UPDATE), calls change
// with the hook it reads, and stores the result; so changes of one hook apply
// one at a time, whichever Store on the database makes them. It returns an
// error, and changes nothing, if change returns one or alters the hook's ID
// or scope.
func (h *Hooks) UpdateHook(ctx context.Context, scope webhook.Scope, id int64, change func(webhook.Hook) (webhook.Hook, error)) (webhook.Hook, error) {
	key, err := scopeKey(scope)
	if err != nil {
		return webhook.Hook{}, err
	}
	ctx, cancel := h.s.bound(ctx)
	defer cancel()
	what := fmt.Sprintf("update hook %d of %s", id, describeScope(scope))
	tx, err := h.s.db.Begin(ctx)
	if err != nil {
		return webhook.Hook{}, wrap(what, err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	current, err := scanHook(tx.QueryRow(ctx, `SELECT `+hookColumns+` FROM hooks
		WHERE id = $1 AND organization_key = $2 AND repository_id = $3 FOR UPDATE`, id, key.Organization, key.RepositoryID))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return webhook.Hook{}, noHookIn(scope, id)
	case err != nil:
		return webhook.Hook{}, wrap(what, err)
	}
	next, err := change(current)
	if err != nil {
		return webhook.Hook{}, fmt.Errorf("pgstore: %s: %w", what, err)
	}
	if next.ID != current.ID || next.Scope != current.Scope {
		return webhook.Hook{}, fmt.Errorf("pgstore: %s: the change made it hook %d of %s", what, next.ID, describeScope(next.Scope))
	}
	c := next.Config
	_, err = tx.Exec(ctx, `UPDATE hooks SET active = $2, events = coalesce($3, '{}'::text[]),
			url = $4, content_type = $5, secret = $6, insecure_ssl = $7, created_at = $8, updated_at = $9
		WHERE id = $1`,
		id, next.Active, next.Events, c.URL, c.ContentType, c.Secret, c.InsecureSSL, next.CreatedAt, next.UpdatedAt)
	if err != nil {
		return webhook.Hook{}, wrap(what, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return webhook.Hook{}, wrap(what, err)
	}
	h.s.hooks.forget()
	return next, nil
}

// DeleteHook deletes hook id of scope and, through the foreign key of
// hook_deliveries, its deliveries.
func (h *Hooks) DeleteHook(ctx context.Context, scope webhook.Scope, id int64) error {
	key, err := scopeKey(scope)
	if err != nil {
		return err
	}
	ctx, cancel := h.s.bound(ctx)
	defer cancel()
	tag, err := h.s.db.Exec(ctx, `DELETE FROM hooks WHERE id = $1 AND organization_key = $2 AND repository_id = $3`,
		id, key.Organization, key.RepositoryID)
	switch {
	case err != nil:
		return wrap(fmt.Sprintf("delete hook %d of %s", id, describeScope(scope)), err)
	case tag.RowsAffected() == 0:
		return noHookIn(scope, id)
	}
	h.s.hooks.forget()
	return nil
}

// HooksFor returns the hooks of repo and, when an organization owns repo,
// those of the organization repo.Owner, by ID, with one query, which it
// keeps for a second: a hook that another Store on the database creates,
// changes or deletes takes effect within that second, and one that this
// Store changes at once. It takes repo as given, and so follows a rename or
// a transfer as soon as the caller passes the repository as it is now.
func (h *Hooks) HooksFor(ctx context.Context, repo issuefields.Repository) ([]webhook.Hook, error) {
	// No hook has the scope ('', 0), which the query asks for in place of
	// the organization of a repository that a user owns.
	org := ""
	if repo.OwnedByOrganization {
		org = nameKey(repo.Owner)
	}
	key := hooksCacheKey{repositoryID: repo.ID, organization: org}
	hooks, ok, generation := h.s.hooks.get(key, time.Now())
	if ok {
		return hooks, nil
	}
	ctx, cancel := h.s.bound(ctx)
	defer cancel()
	rows, err := h.s.db.Query(ctx, `SELECT `+hookColumns+` FROM hooks
		WHERE (organization_key, repository_id) IN (('', $1), ($2, 0)) ORDER BY id`, repo.ID, org)
	hooks, err = collectHooks(rows, err, fmt.Sprintf("read the hooks of repository %d", repo.ID))
	if err == nil {
		h.s.hooks.put(key, hooks, time.Now(), generation)
	}
	return hooks, err
}

// collectHooks returns the hooks of rows, the result of a query of
// hookColumns, or the error of the query, err, or of reading rows; what
// describes the query for the error.
func collectHooks(rows pgx.Rows, err error, what string) ([]webhook.Hook, error) {
	if err != nil {
		return nil, wrap(what, err)
	}
	hooks, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (webhook.Hook, error) { return scanHook(row) })
	if err != nil {
		return nil, wrap(what, err)
	}
	if hooks == nil {
		hooks = []webhook.Hook{}
	}
	return hooks, nil
}

// scanHook reads a hook from row, the result of a query of hookColumns.
func scanHook(row pgx.Row) (webhook.Hook, error) {
	var h webhook.Hook
	c := &h.Config
	err := row.Scan(&h.ID, &h.Scope.Organization, &h.Scope.RepositoryID, &h.Active, &h.Events,
		&c.URL, &c.ContentType, &c.Secret, &c.InsecureSSL, &h.CreatedAt, &h.UpdatedAt)
	h.CreatedAt, h.UpdatedAt = h.CreatedAt.UTC(), h.UpdatedAt.UTC()
	return h, err
}

// scopeKey returns the columns organization_key and repository_id of the
// hooks of scope: the organization's login lower-cased and 0, or "" and the
// repository's ID. It returns an error unless exactly one of an
// organization and a positive repository ID is set.
func scopeKey(scope webhook.Scope) (webhook.Scope, error) {
	if (scope.Organization == "") == (scope.RepositoryID == 0) || scope.RepositoryID < 0 {
		return webhook.Scope{}, fmt.Errorf("pgstore: hook scope %+v: want an organization or a repository, not both", scope)
	}
	scope.Organization = nameKey(scope.Organization)
	return scope, nil
}

// lockName returns the name of the scope whose key is key, which CreateHook
// hashes into the advisory lock of the scope.
func lockName(key webhook.Scope) string {
	if key.Organization != "" {
		return "organization " + key.Organization
	}
	return "repository " + strconv.FormatInt(key.RepositoryID, 10)
}

// describeScope names scope in an error message.
func describeScope(scope webhook.Scope) string {
	if scope.Organization != "" {
		return fmt.Sprintf("organization %q", scope.Organization)
	}
	return fmt.Sprintf("repository %d", scope.RepositoryID)
}

// noHookIn returns the error for hook id of scope, which does not exist.
func noHookIn(scope webhook.Scope, id int64) error {
	return fmt.Errorf("pgstore: hook %d of %s: %w", id, describeScope(scope), issuefields.ErrNotFound)
}
