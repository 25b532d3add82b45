package pgstore

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/seed"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store is an [issuefields.Store] and an [issuefields.FieldManager] that
// keeps its data in PostgreSQL, in the tables that [Migrate] creates. Its
// seed methods ([seed.Seeder]) fill it as those of memstore.Store do,
// [Store.Empty] ([seed.Emptier]), [Store.LoadIfEmpty] and [Store.Reload]
// empty and load it, and [Store.Epoch] counts those resets. [Store.Hooks]
// returns the [webhook.Store] beside it, and [Store.WriteLimiter] a write
// limiter that the servers on its database share.
// It is safe for concurrent use, and several Stores, in one process or in
// several, may share one database. The zero value is not usable; call [Open]
// or [New].
type Store struct {
	pool *pgxpool.Pool
	// db is what the Store's statements go through: the pool, or the
	// transaction of a load (see loading).
	db       db
	ownsPool bool
	timeout  time.Duration
	// load is the load that a Store of a load's transaction serves, and
	// nil for a Store over the pool.
	load *loading
	// resets is the count of resets that the Store has seen, which
	// Epoch reads and Empty, Reload and every write learn.
	resets   atomic.Int64
	fields   fieldsCache
	recent   recentValues
	hooks    hooksCache
	limiters limiterSet
}

var (
	_ issuefields.Store        = (*Store)(nil)
	_ issuefields.FieldManager = (*Store)(nil)
	_ seed.Seeder              = (*Store)(nil)
	_ seed.Emptier             = (*Store)(nil)
)

// New returns a Store that works through pool, which belongs to the caller,
// who closes it after the last use of the Store; the tables must exist, which
// [Migrate] sees to. The pool's connections find the tables by their
// search_path, so a database can hold several stores in schemas of their
// own. The [Timeout] option bounds each operation by a deadline of its
// context; the database enforces it too only if the pool's connections have
// a statement_timeout and lock_timeout, as those of [Open] have. New panics
// on an invalid option, and on [PoolSize], which a given pool cannot take.
func New(pool *pgxpool.Pool, opts ...Option) *Store {
	set, err := apply(opts)
	if err == nil && set.poolSize != 0 {
		err = fmt.Errorf("pgstore.New: the PoolSize option sizes the pool of Open; size a pool of your own with pgxpool.Config.MaxConns")
	}
	if err != nil {
		panic(err)
	}
	return newStore(pool, set)
}

// newStore returns a Store over pool with set.
func newStore(pool *pgxpool.Pool, set settings) *Store {
	return &Store{pool: pool, db: pool, timeout: set.timeout}
}

// db is what a Store's statements go through: a pool, or a transaction.
type db interface {
	Begin(ctx context.Context) (pgx.Tx, error)
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// Pool returns the pool that the Store works through.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Close closes the pool that [Open] created. It does nothing for a Store made
// by [New], whose pool belongs to the caller.
func (s *Store) Close() {
	if s.ownsPool {
		s.pool.Close()
	}
}

// bound returns ctx bounded by the store's timeout.
func (s *Store) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout)
}

// IsEmpty reports whether the store holds no organization and no repository,
// as after the first [Migrate]. A server uses it at start-up to load initial
// data into a new database once, and never again.
func (s *Store) IsEmpty(ctx context.Context) (bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var empty bool
	err := s.db.QueryRow(ctx, `SELECT NOT EXISTS (SELECT 1 FROM accounts)`).Scan(&empty)
	if err != nil {
		return false, wrap("check whether the store is empty", err)
	}
	return empty, nil
}
