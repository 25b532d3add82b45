package server

import (
	"context"
	_ "embed"
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
	"github.com/issuefields/issuefields/storetest"
	"github.com/issuefields/issuefields/webhook"
)

// demoData is the data the server serves without -data: see dataFile for its
// format.
//
//go:embed demo.json
var demoData []byte

// The server's own bounds. readHeaderTimeout bounds reading a request's
// headers, so that a client cannot hold a connection by sending them slowly;
// a shorter -read-timeout bounds them too. The flags -read-timeout (a whole
// request, body included), -write-timeout, -idle-timeout (a kept-alive
// connection that sends nothing) and -max-conns set the others. shutdownTimeout bounds how long a graceful stop waits for
// requests in flight and then for queued webhook deliveries.
const (
	readHeaderTimeout = 10 * time.Second
	shutdownTimeout   = 10 * time.Second
)

// Store is a store that the server serves and loads a data file into.
type Store interface {
	issuefields.Store
	storetest.Seeder
}

// Command is the example server's command line. The zero value is the command
// go run ./example, which serves the data file from memory.
type Command struct {
	// Usage is the command as the help shows it, such as
	// "go run ./cmd/example"; "" means "go run ./example".
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
	// LoadIfEmpty(ctx context.Context, load func() error) (loaded bool, err
	// error), the store calls load if it holds no data, and reports whether
	// it did; of several servers that start on it at once, one calls load
	// and the others wait for it, then find the store not empty. With
	// IsEmpty(context.Context) (bool, error), as pgstore.Store has, Run
	// checks and then loads, which is right when one server at a time
	// starts on the store. A store with neither is loaded at every start.
	Open func(ctx context.Context, logger *slog.Logger) (s Store, closeStore func(), err error)

	// ListCacheBytes is the handler's Config.ListCacheBytes: 0 keeps
	// rendered lists within the default budget; a negative value keeps
	// none.
	ListCacheBytes int
}

// Main runs c with the process's command line until the process gets SIGINT
// or SIGTERM, then stops gracefully; a second signal ends the process at
// once. On an error it prints the error to stderr and exits with status 1.
// Before it runs c, it sets the garbage collector for a server's small
// heap (GOGC=400 and a 192 MiB memory limit), unless the environment sets
// GOGC or GOMEMLIMIT.
func (c Command) Main() {
	tuneGC(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	err := c.Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "example: %v\n", err)
		os.Exit(1)
	}
}

// Run serves the API as the command line args say until ctx is done, then
// stops gracefully. It writes the start-up message to stdout and logs to
// stderr. It returns nil after a graceful stop or when args ask for help.
func (c Command) Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	opts, err := c.parseFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	d, err := readData(opts.dataFile)
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
	notifier, closeNotifier, err := newNotifier(opts, logger)
	if err != nil {
		return err
	}
	h, m, err := c.newHandler(opts, d, notifier, logger)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return fmt.Errorf("%w (-addr chooses another address)", err)
	}
	conns := limitConns(ln, opts.maxConns, opts.connTimeouts())
	srv := &http.Server{
		Handler:      conns.Guard(routes(h, opts.prefix, d.store, logger)),
		WriteTimeout: opts.writeTimeout,
		ConnContext:  conns.ConnContext,
		ConnState:    conns.ConnState,
		ErrorLog:     slog.NewLogLogger(logger.Handler(), slog.LevelError),
	}
	var debugURL string
	if m != nil {
		url, closeDebug, err := serveDebug(opts.debugAddr, m, opts.idleTimeout, srv.ErrorLog)
		if err != nil {
			conns.Close()
			return err
		}
		defer closeDebug()
		debugURL = url
		logger.Info("debug listening", "url", debugURL)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(conns) }()

	base := "http://" + ln.Addr().String() + opts.prefix
	logger.Info("listening", "addr", ln.Addr().String(), "prefix", opts.prefix+"/")
	fmt.Fprintf(stdout, "listening on %s/\n", base)
	if debugURL != "" {
		fmt.Fprintf(stdout, "debug listener: profiles on %[1]s/debug/pprof/, counters on %[1]s/debug/vars\n", debugURL)
	}
	if err := printUsage(stdout, base, opts.vendor, d); err != nil {
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

// newHandler returns the API's handler over d's store and tokens. With
// -debug-addr it also returns the counters that the handler's requests and
// store calls, and the webhook deliveries, are counted in; otherwise m is
// nil.
func (c Command) newHandler(opts options, d *dataset, notifier issuefields.Notifier, logger *slog.Logger) (h *issuefields.Handler, m *metrics, err error) {
	store, handlerLog := issuefields.Store(d.store), logger
	if opts.debugAddr != "" {
		m = newMetrics()
		store, handlerLog = timed(d.store, m), m.countRequests(logger)
		if hook, ok := notifier.(*webhook.Notifier); ok {
			m.showWebhook(hook)
		}
	}
	h, err = issuefields.New(issuefields.Config{
		Store:          store,
		Verifier:       d.tokens,
		Vendor:         opts.vendor,
		Logger:         handlerLog,
		Notifier:       notifier,
		WriteLimits:    opts.writeLimits(),
		ListCacheBytes: c.ListCacheBytes,
	})
	return h, m, err
}

// newLogger returns a logger that writes the records of level and above to
// w in format, "text" (key=value pairs) or "json" (one JSON object per line),
// and a function that writes out what the logger holds, to be called when the
// server has stopped. Records below Warn (a line per request) are formatted
// and written off the requests' path; the others at once.
func newLogger(format string, level slog.Level, w io.Writer) (*slog.Logger, func()) {
	log := newAsyncLog(w)
	opts := &slog.HandlerOptions{Level: level}
	if format == logJSON {
		return slog.New(asyncHandler{log: log, inner: slog.NewJSONHandler(&log.out, opts)}), log.Close
	}
	return slog.New(asyncHandler{log: log, inner: slog.NewTextHandler(&log.out, opts), plainText: true}), log.Close
}
