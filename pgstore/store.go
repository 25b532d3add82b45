package pgstore

import (
	"context"

	"github.com/issuefields/issuefields"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store is an [issuefields.Store] that keeps its data in PostgreSQL, in the
// tables that [Migrate] creates. Its seed methods fill it as those of
// memstore.Store do. It is safe for concurrent use, and several Stores, in
// one process or in several, may share one database. The zero value is not
// usable; call [New].
type Store struct {
	pool *pgxpool.Pool
}

var _ issuefields.Store = (*Store)(nil)

// New returns a Store that works through pool. The pool belongs to the
// caller, who closes it after the last use of the Store; the tables must
// exist, which [Migrate] sees to. The pool's connections find the tables by
// their search_path, so a database can hold several stores in schemas of
// their own.
func New(pool *pgxpool.Pool) *Store {
	return &Store{pool: pool}
}

// IsEmpty reports whether the store holds no organization and no repository,
// as after the first [Migrate]. A server uses it at start-up to load initial
// data into a new database once, and never again.
func (s *Store) IsEmpty(ctx context.Context) (bool, error) {
	var empty bool
	err := s.pool.QueryRow(ctx, `SELECT NOT EXISTS (SELECT 1 FROM accounts)`).Scan(&empty)
	if err != nil {
		return false, wrap("check whether the store is empty", err)
	}
	return empty, nil
}
