// Command example serves the Issue Field Values API on a local address, as a
// stand-in for the real API that real clients can talk to:
//
//	go run ./example
//	go run ./example -data data.json
//
// It serves the organizations, fields, repositories, issues, values and
// tokens of a data file (see dataFile for the format), or built-in demo data.
// A data file that breaks a rule stops it at start-up with the file's name,
// the place in the file and the rule. Once it listens it prints the address,
// the data, the tokens and what each may do, and curl commands to try. It
// logs one line per request, as text or JSON (-log-format), and stops
// gracefully on SIGINT or SIGTERM.
package main

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
)

// demoData is the data the server serves without -data: see dataFile for its
// format.
//
//go:embed demo.json
var demoData []byte

// The server's timeouts. shutdownTimeout bounds how long a graceful stop
// waits for requests in flight and then for queued webhook deliveries.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = 2 * time.Minute
	shutdownTimeout   = 10 * time.Second
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// A second signal during the graceful stop ends the program at once.
	context.AfterFunc(ctx, stop)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "example: %v\n", err)
		os.Exit(1)
	}
}

// run serves the API as the command line args say until ctx is done, then
// stops gracefully. It writes the start-up message to stdout and logs to
// stderr. It returns nil after a graceful stop or when args ask for help.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	opts, err := parseFlags(args, stdout)
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
	logger := newLogger(opts.logFormat, opts.logLevel, stderr)
	notifier, closeNotifier, err := newNotifier(opts, logger)
	if err != nil {
		return err
	}
	h, err := issuefields.New(issuefields.Config{
		Store:       d.store,
		Verifier:    d.tokens,
		Vendor:      opts.vendor,
		Logger:      logger,
		Notifier:    notifier,
		WriteLimits: opts.writeLimits(),
	})
	if err != nil {
		return err
	}
	var handler http.Handler = h
	if opts.prefix != "" {
		mux := http.NewServeMux()
		mux.Handle(opts.prefix+"/", http.StripPrefix(opts.prefix, h))
		handler = mux
	}
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return fmt.Errorf("%w (-addr chooses another address)", err)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelError),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	base := "http://" + ln.Addr().String() + opts.prefix
	logger.Info("listening", "addr", ln.Addr().String(), "prefix", opts.prefix+"/")
	fmt.Fprintf(stdout, "listening on %s/\n", base)
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

// newLogger returns a logger that writes the records of level and above to
// w in format, "text" (key=value pairs) or "json" (one JSON object per line).
func newLogger(format string, level slog.Level, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	if format == logJSON {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
