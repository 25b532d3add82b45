package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/ratelimit"
	"github.com/issuefields/issuefields/example/server"
	"github.com/issuefields/issuefields/example/standin"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/jackc/pgx/v5/pgxpool"
)

// errNoDatabase is the error of a start without -postgres or DATABASE_URL.
var errNoDatabase = errors.New("no database: give -postgres postgres://user:password@host:port/database, or set DATABASE_URL " +
	"(go run ./example, at the root of the repository, serves from memory without one)")

// errResetNotAllowed refuses a reset to a server started without
// -allow-reset.
var errResetNotAllowed = fmt.Errorf("%w: a reset empties the database, for every server that shares it; "+
	"start issuefields-postgres with -allow-reset to allow it", standin.ErrNoReset)

// command returns the example server's command with the flag -postgres, over
// the PostgreSQL database that the flag, or else $DATABASE_URL, names.
func command() server.Command {
	var dsn string
	var timeout time.Duration
	var poolSize int
	var allowReset bool
	var opened *pgstore.Store
	return server.Command{
		Flags: func(fs *flag.FlagSet) {
			// The default is read when the store opens, not shown as the
			// flag's default: -h would print a password it holds.
			fs.StringVar(&dsn, "postgres", "", "PostgreSQL connection `URL` of the database that keeps the data, such as postgres://user:password@localhost:5432/issuefields "+
				"(default $DATABASE_URL); the data file is loaded only into an empty database")
			fs.DurationVar(&timeout, "store-timeout", pgstore.DefaultTimeout,
				"bound on each operation of the store (a lock or statement wait, an unanswering database); past it a request is answered 503 with Retry-After. "+
					fmt.Sprintf("%d times it bounds a reset, and a start's wait for another server's first load", loadBoundFactor))
			fs.IntVar(&poolSize, "pool-size", pgstore.DefaultMaxConns(), "most connections to the database")
			fs.BoolVar(&allowReset, "allow-reset", false, "allow POST /_issuefields/reset, which empties the database's tables and loads the data file into them again, "+
				"for every server that shares the database")
		},
		Open: func(ctx context.Context, logger *slog.Logger) (server.Store, func(), error) {
			url := dsn
			if url == "" {
				url = os.Getenv("DATABASE_URL")
			}
			s, closeStore, err := open(ctx, url, logger, timeout, poolSize)
			if err != nil {
				return server.Store{}, nil, err
			}
			// A reset empties the tables, whose data every server sharing
			// the database serves, so the operator allows it.
			s.allowReset = allowReset
			opened = s.Store
			return server.Store{Data: s, Hooks: s.Hooks()}, closeStore, nil
		},
		// The servers that share the database share each token's budget of
		// writes,
		WriteLimiter: func(limits issuefields.WriteLimits, logger *slog.Logger) (issuefields.WriteLimiter, func()) {
			l := opened.WriteLimiter(limits, logger)
			return l, l.Close
		},
		// and each principal's budgets of the primary rate limit.
		RequestCounter: func(logger *slog.Logger) (ratelimit.Counter, func()) {
			c := opened.RequestCounter(logger)
			return c, c.Close
		},
	}
}

// open connects to the database at dsn, with at most poolSize connections,
// brings its schema up to date and returns a store over it whose operations
// timeout bounds, which refuses resets, with the function that closes the
// connections. Its errors never hold the password of dsn.
func open(ctx context.Context, dsn string, logger *slog.Logger, timeout time.Duration, poolSize int) (store, func(), error) {
	if dsn == "" {
		return store{}, nil, errNoDatabase
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return store{}, nil, fmt.Errorf("-postgres: %w", err)
	}
	s, err := pgstore.Open(ctx, cfg, pgstore.Timeout(timeout), pgstore.PoolSize(poolSize))
	if err != nil {
		return store{}, nil, err
	}
	if err := connect(ctx, s.Pool()); err != nil {
		s.Close()
		return store{}, nil, err
	}
	if err := pgstore.Migrate(ctx, s.Pool()); err != nil {
		s.Close()
		return store{}, nil, fmt.Errorf("bringing the database's schema up to date: %w", err)
	}
	if err := logFieldProblems(ctx, s, logger); err != nil {
		s.Close()
		return store{}, nil, fmt.Errorf("checking the fields that the database holds: %w", err)
	}
	c := cfg.ConnConfig
	logger.Info("database ready", "host", c.Host, "port", c.Port, "database", c.Database, "user", c.User,
		"pool_size", s.Pool().Config().MaxConns)
	return store{Store: s, timeout: timeout}, s.Close, nil
}

// connectTimeout bounds the first connection to the database.
const connectTimeout = 10 * time.Second

// connect makes the first connection to the database, within
// connectTimeout, so that a database that cannot be reached is reported as
// such (where, as whom, and why), not as a failure of the schema's
// migration.
func connect(ctx context.Context, pool *pgxpool.Pool) error {
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if err := pool.Ping(ctx); err != nil {
		c := pool.Config().ConnConfig
		return fmt.Errorf("cannot connect to PostgreSQL at %s:%d, database %q as user %q (is it running? docs/operations.md starts one): %w",
			c.Host, c.Port, c.Database, c.User, err)
	}
	return nil
}
