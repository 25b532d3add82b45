package server

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/banner"
	"github.com/issuefields/issuefields/example/datafile"
	"github.com/issuefields/issuefields/example/graphql"
	"github.com/issuefields/issuefields/example/issues"
	"github.com/issuefields/issuefields/example/metrics"
	"github.com/issuefields/issuefields/example/ratelimit"
	"github.com/issuefields/issuefields/example/standin"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/webhook"
)

// shutdownTimeout bounds how long a graceful stop waits for requests in
// flight and then for queued webhook deliveries.
const shutdownTimeout = 10 * time.Second

// Store is what the server serves: Data, the store of the API's data, which
// the data file is loaded into, and Hooks, the hooks and deliveries that the
// same store keeps beside it, such as memstore's and pgstore's Hooks. The
// store's optional methods (LoadIfEmpty, IsEmpty, Reload, Empty, Epoch) are
// those of Data.
type Store struct {
	Data  datafile.Store
	Hooks webhook.Store
}

// memoryStore returns s as the server serves it.
func memoryStore(s *memstore.Store) Store {
	return Store{Data: s, Hooks: s.Hooks()}
}

// Command is the example server's command line. The zero value is the command
// issuefields (go run ./example), which serves the data file from memory.
type Command struct {
	// Usage is the command as the help shows it, such as
	// "go run ./cmd/other"; "" means the name that the process was run
	// by, such as issuefields for the installed command, or example for go
	// run ./example.
	Usage string

	// Flags, if not nil, adds flags of its own to the command line before
	// Run parses it. Open reads their values.
	Flags func(fs *flag.FlagSet)

	// Open, if not nil, opens the store that the server serves. Run calls it
	// once the command line is parsed and the data file checked, with the
	// server's log, and calls closeStore after the server has stopped.
	// Without Open, the server serves the data file from a memstore.Store.
	//
	// Run loads the data file into the store only if the store holds no
	// data, and otherwise serves what it holds; the tokens come from the
	// data file either way. A store tells by one of two methods. With
	// LoadIfEmpty(ctx context.Context, load func(ctx context.Context, into
	// Store) error) (loaded bool, err error), the store calls load, if it
	// holds no data, with a Store to load into, in one transaction that it
	// commits only if load returns nil, so that a load that fails or is
	// killed part-way leaves the store empty, and reports whether it called
	// load; of several servers that start on it at once, one calls load and
	// the others wait for it, then find the store not empty. With
	// IsEmpty(context.Context) (bool, error), Run checks and then loads,
	// which is right when one server at a time starts on the store, and a
	// load that fails leaves what it loaded. A store with neither is loaded
	// at every start.
	//
	// A reset (POST /_issuefields/reset) restores the state that the server
	// started with: it empties the store and loads the data file into it as
	// into an empty store at start. A store that several servers share has
	// the method Reload(ctx context.Context, fill func(ctx context.Context,
	// into Store) error) error, which the reset calls: Reload empties the
	// store and calls fill, which loads the data file into into, in one
	// transaction that it commits only if fill returns nil, so that every
	// server sees the data before or after the reset, never a part; it calls
	// fill while no other server that shares the store runs its own Reload
	// or the load of LoadIfEmpty, so that resets through several servers at
	// once take turns and leave the data file loaded once. Another store is
	// emptied by its Empty method ([seed.Emptier]), then loaded. Reload or
	// Empty refuse the reset, having changed nothing, with an error that
	// wraps standin.ErrNoReset, which is answered 501 with the error's
	// message; a store with neither is answered 501 too, saying that reset
	// is not available for it.
	//
	// A reset is one atomic step for the server's requests: it waits for
	// those in flight (10 s at most), and those that come wait for it. A
	// reset that fails with an error that wraps issuefields.ErrUnavailable,
	// such as a turn that did not come in time, is answered 503 with
	// Retry-After.
	Open func(ctx context.Context, logger *slog.Logger) (s Store, closeStore func(), err error)

	// WriteLimiter, if not nil, returns the limiter of the secondary rate
	// limit on writes, given the limits of -write-limit and
	// -write-limit-hourly and the server's log. Run calls it after Open,
	// and calls stop after the server has stopped, before closeStore.
	// Without WriteLimiter, each server process counts its own writes
	// (issuefields.NewWriteLimiter); pgstore's command gives the limiter
	// that the servers sharing its database share.
	WriteLimiter func(limits issuefields.WriteLimits, logger *slog.Logger) (l issuefields.WriteLimiter, stop func())

	// RequestCounter, if not nil, returns the Counter of the primary rate
	// limit's budgets, given the server's log; Run calls it only when
	// -rate-limit is not 0, after Open, and calls stop after the server has
	// stopped, before closeStore. A reset calls the Counter's Reset.
	// Without RequestCounter, each server process counts its own requests
	// (ratelimit.NewMemory); pgstore's command gives the Counter that the
	// servers sharing its database share.
	RequestCounter func(logger *slog.Logger) (c ratelimit.Counter, stop func())
}

// Main runs c with the process's command line until the process gets SIGINT
// or SIGTERM, then stops gracefully; a second signal ends the process at
// once. On an error it prints the error to stderr and exits with status 1.
func (c Command) Main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	err := c.Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", commandName(), err)
		os.Exit(1)
	}
}

// Run serves the API as the command line args say until ctx is done, then
// stops gracefully. It writes the start-up message to stdout and logs to
// stderr. It returns nil after a graceful stop, or when args ask for help or
// for the version, which it writes to stdout.
func (c Command) Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	opts, err := c.parseFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if opts.version {
		return printVersion(stdout)
	}
	cert, err := opts.certificate()
	if err != nil {
		return err
	}
	d, err := readData(ctx, opts.dataFile)
	if err != nil {
		return err
	}
	logger, closeLog := newLogger(opts.logFormat, opts.logLevel, stderr)
	defer closeLog()
	d, closeStore, err := c.open(ctx, d, logger)
	if err != nil {
		return err
	}
	defer closeStore()
	limiter, stopLimiter := c.writeLimiter(opts.writeLimits(), logger)
	defer stopLimiter()
	fresh, _ := limiter.(*freshLimiter)
	tokens := newLiveTokens(d.Tokens)
	counter, stopCounter := c.requestCounter(opts.rateLimit, logger)
	defer stopCounter()
	limits := ratelimit.New(ratelimit.Config{
		Limits:   opts.rateLimits(),
		Verifier: tokens,
		Counter:  counter,
		Objects:  webhook.Objects{Directory: d.File.Directory()},
	})
	journal := new(standin.Journal)
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return fmt.Errorf("%w (-addr chooses another address)", err)
	}
	defer ln.Close()
	base := opts.scheme() + "://" + ln.Addr().String() + opts.prefix
	urls := opts.publicURLs(ln.Addr().String())
	if opts.webhookURL != "" {
		if err := ensureHooks(ctx, d, opts.webhookURL, opts.webhookSecret); err != nil {
			return err
		}
	}
	var changed func()
	if opts.tools {
		changed = journal.Changed
	}
	hooks, notifier, err := newNotifier(opts, urls, d, changed, logger)
	if err != nil {
		return err
	}
	closeNotifier := hooks.Close
	hookRoutes, err := webhook.NewRoutes(webhook.RoutesConfig{Store: d.store.Data, Notifier: hooks})
	if err != nil {
		return err
	}
	objects := webhook.Objects{BaseURL: urls.api, WebURL: urls.web, Directory: d.File.Directory()}
	issueRoutes, err := issues.Routes(issues.Config{Store: d.store.Data, Objects: objects})
	if err != nil {
		return err
	}
	gql := graphql.New(graphql.Config{Store: d.store.Data, Objects: objects, RateLimited: ratelimit.Refused})
	// gate makes each reset one step for the requests that read or change
	// the state.
	g := new(gate)
	h, err := issuefields.New(issuefields.Config{
		Store:        d.store.Data,
		Verifier:     tokens,
		Vendor:       opts.vendor,
		BaseURL:      opts.baseURL,
		Logger:       logger,
		Notifier:     notifier,
		WriteLimiter: limiter,
		Routes:       append(append(hookRoutes, issueRoutes...), gql.Route()),
	})
	if err != nil {
		return err
	}
	api := withEpochMarks(withCORS(limits.Handler(h), opts.vendor), d.store)
	// closing ends the page's event streams when the graceful stop begins.
	closing := make(chan struct{})
	var tools http.Handler
	front := g.serve
	if opts.tools {
		page := gatedPage{source: pageSource(d, hooks), gate: g}
		tools = standin.New(standin.Config{
			AdminToken: opts.adminToken,
			Hosts:      opts.hosts(ln.Addr().String()),
			Journal:    journal,
			Reset:      newResetter(d, opts, g, hooks, tokens, fresh, limits, journal).reset,
			State:      page.state,
			Redeliver:  page.redeliver,
			Closing:    closing,
			Logger:     logger,
		})
		front = func(h http.Handler) http.Handler { return g.serve(journal.Record(h, tokens.login)) }
	}
	var handler http.Handler = routes(api, tools, front, opts.prefix, opts.baseURL, d.store.Data, logger)
	errorLog := slog.NewLogLogger(logger.Handler(), slog.LevelError)
	var debugURL string
	if opts.debugAddr != "" {
		m := metrics.New(opts.prefix, hooks)
		handler = m.Count(handler)
		url, closeDebug, err := metrics.Serve(opts.debugAddr, m, errorLog)
		if err != nil {
			return fmt.Errorf("%w (-debug-addr chooses another address)", err)
		}
		defer closeDebug()
		debugURL = url
		logger.Info("debug listening", "url", debugURL)
	}
	srv := opts.server(handler)
	srv.ErrorLog = errorLog
	srv.RegisterOnShutdown(func() { close(closing) })
	served := make(chan error, 1)
	go func() { served <- serve(srv, ln, cert, opts.maxConns) }()

	logger.Info("listening", "addr", ln.Addr().String(), "prefix", opts.prefix+"/")
	fmt.Fprintf(stdout, "listening on %s/\n", base)
	if debugURL != "" {
		fmt.Fprintf(stdout, "debug listener: profiles on %[1]s/debug/pprof/, metrics on %[1]s/metrics, counters on %[1]s/debug/vars\n", debugURL)
	}
	if err := banner.Print(ctx, stdout, base, opts.vendor, opts.tlsCert, &d.Data); err != nil {
		logger.Error("cannot print the start-up message", "err", err)
	}

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down", "timeout", shutdownTimeout)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("graceful stop: %w", err)
	}
	if err := closeNotifier(sctx); err != nil {
		return fmt.Errorf("draining the webhook queue: %w", err)
	}
	logger.Info("stopped")
	return nil
}

// writeLimiter returns the limiter of the secondary rate limit on writes,
// and the function that stops it: without c.WriteLimiter, a freshLimiter,
// which a reset starts afresh.
func (c Command) writeLimiter(limits issuefields.WriteLimits, logger *slog.Logger) (issuefields.WriteLimiter, func()) {
	if c.WriteLimiter == nil {
		return newFreshLimiter(limits), func() {}
	}
	return c.WriteLimiter(limits, logger)
}

// requestCounter returns the Counter of the primary rate limit, and the
// function that stops it: without c.RequestCounter, or with the limit off
// (perHour 0), a ratelimit.Memory.
func (c Command) requestCounter(perHour int, logger *slog.Logger) (ratelimit.Counter, func()) {
	if c.RequestCounter == nil || perHour == 0 {
		return ratelimit.NewMemory(nil), func() {}
	}
	return c.RequestCounter(logger)
}
