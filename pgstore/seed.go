package pgstore

import (
	"context"
	"errors"
	"strconv"

	"github.com/jackc/pgx/v5"
)

// seed runs f, one of the seed methods, in a transaction that first locks the
// accounts table in EXCLUSIVE mode. The lock makes the seed methods apply one
// at a time, across every Store on the database, so each sees the effects of
// those before it; the handler's reads do not wait for it, and its writes do
// not take it. f wraps the errors it returns; what describes the seed call
// for the errors of the transaction itself. A Store of a load runs f in the
// load's transaction, which has locked the table already, with the load's
// context; an error then ends the whole load.
func (s *Store) seed(what string, f func(ctx context.Context, tx pgx.Tx) error) error {
	if s.load != nil {
		return f(s.load.ctx, s.load.tx)
	}
	ctx := context.Background()
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return wrap(what, err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `LOCK TABLE accounts IN EXCLUSIVE MODE`); err != nil {
		return wrap(what, err)
	}
	if err := f(ctx, tx); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return wrap(what, err)
	}
	return nil
}

// An account is an organization or a user, as the accounts table keeps it.
type account struct {
	id           int64
	login        string
	organization bool
}

// findAccount returns the account login, and whether the store has it.
func findAccount(ctx context.Context, tx pgx.Tx, login string) (account, bool, error) {
	a := account{}
	err := tx.QueryRow(ctx, `SELECT id, login, organization FROM accounts WHERE login_key = $1`, nameKey(login)).
		Scan(&a.id, &a.login, &a.organization)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return a, false, nil
	case err != nil:
		return a, false, wrap("find account "+strconv.Quote(login), err)
	}
	return a, true, nil
}

// userAccount returns the account login, which it creates as a user account,
// spelt as given, if the store does not have it yet.
func userAccount(ctx context.Context, tx pgx.Tx, login string) (account, error) {
	a, ok, err := findAccount(ctx, tx, login)
	if err != nil || ok {
		return a, err
	}
	a = account{login: login}
	err = tx.QueryRow(ctx, `INSERT INTO accounts (login, login_key, organization) VALUES ($1, $2, false) RETURNING id`,
		login, nameKey(login)).Scan(&a.id)
	if err != nil {
		return a, wrap("add user "+strconv.Quote(login), err)
	}
	return a, nil
}
