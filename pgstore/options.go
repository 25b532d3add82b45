package pgstore

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultTimeout bounds each operation of a Store when no [Timeout] option is
// given.
const DefaultTimeout = 5 * time.Second

// DefaultMaxConns returns the size of the pool that [Open] creates when no
// [PoolSize] option is given: four connections per CPU that the process may
// use (GOMAXPROCS), and at least eight. A request holds one connection for
// one or two round trips, so a few per CPU keep the CPUs of the server and of
// the database busy without queueing work in the database.
func DefaultMaxConns() int {
	return max(8, 4*runtime.GOMAXPROCS(0))
}

// An Option configures a Store made by [New] or [Open].
type Option func(*settings) error

// settings are what the options configure.
type settings struct {
	timeout  time.Duration
	poolSize int
}

// Timeout bounds the time that each operation of the Store takes, waits
// included: for a connection of the pool, for the turn of an issue that other
// writers are changing, for a row lock, for the database to answer. An
// operation past the bound fails with an error that wraps
// [issuefields.ErrUnavailable], which the handler answers with 503 and
// Retry-After. The pool that [Open] creates also gives the bound to the
// database, as the session's statement_timeout and lock_timeout, so that the
// database stops a statement or a lock wait past it and the connection stays
// usable. d must be positive; the default is [DefaultTimeout].
func Timeout(d time.Duration) Option {
	return func(s *settings) error {
		if d <= 0 {
			return fmt.Errorf("pgstore.Timeout(%v): the timeout must be positive", d)
		}
		s.timeout = d
		return nil
	}
}

// PoolSize sets the number of connections of the pool that [Open] creates.
// The handler's writers of one issue take turns before they call the Store,
// so an issue that is locked elsewhere holds at most one connection per
// handler, and every other request finds the rest. n must be positive; the
// default is [DefaultMaxConns]. A pool given to [New] keeps its own size, and
// New refuses this option.
func PoolSize(n int) Option {
	return func(s *settings) error {
		if n <= 0 {
			return fmt.Errorf("pgstore.PoolSize(%d): the size must be positive", n)
		}
		s.poolSize = n
		return nil
	}
}

// apply returns the settings that opts make of the defaults.
func apply(opts []Option) (settings, error) {
	s := settings{timeout: DefaultTimeout}
	for _, o := range opts {
		if err := o(&s); err != nil {
			return s, err
		}
	}
	return s, nil
}

// Open creates a pool of connections with cfg, as the options ask, and
// returns a Store over it that owns it: [Store.Close] closes it. The pool has
// PoolSize connections at most, and each connection has the store's Timeout
// as its statement_timeout and lock_timeout, unless cfg sets them. The
// tables must exist; [Migrate] sees to that, and may be given the store's
// [Store.Pool].
func Open(ctx context.Context, cfg *pgxpool.Config, opts ...Option) (*Store, error) {
	set, err := apply(opts)
	if err != nil {
		return nil, err
	}
	cfg = cfg.Copy()
	cfg.MaxConns = int32(DefaultMaxConns())
	if set.poolSize > 0 {
		cfg.MaxConns = int32(set.poolSize)
	}
	ms := strconv.FormatInt(set.timeout.Milliseconds(), 10)
	for _, name := range []string{"statement_timeout", "lock_timeout"} {
		if _, ok := cfg.ConnConfig.RuntimeParams[name]; !ok {
			cfg.ConnConfig.RuntimeParams[name] = ms
		}
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgstore: open a pool: %w", err)
	}
	s := newStore(pool, set)
	s.ownsPool = true
	return s, nil
}
