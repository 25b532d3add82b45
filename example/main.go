// Command example serves the Issue Field Values API on a local address with
// built-in demo data and tokens, as a stand-in for the real API:
//
//	go run ./example
//
// At start-up it prints the address it listens on, the demo tokens and what
// each may do, and curl commands to try. It stops gracefully on SIGINT or
// SIGTERM.
package main

import (
	"bytes"
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
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/issuefields/issuefields"
)

// demoData is the data the server serves: see dataFile for its format.
//
//go:embed demo.json
var demoData []byte

// The server's timeouts. shutdownTimeout bounds how long a graceful stop
// waits for requests in flight.
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

// options are the command line's settings.
type options struct {
	addr   string
	prefix string // "" for the root, else "/segment..." without a trailing slash
	vendor string
	// writeLimit and writeLimitHourly are the secondary rate limits on
	// writes per principal; 0 turns one off.
	writeLimit, writeLimitHourly int
	// webhookURL receives every event, signed with webhookSecret; without
	// it, events are logged.
	webhookURL, webhookSecret string
}

// writeLimits returns the handler's rate limit configuration for opts.
func (opts options) writeLimits() issuefields.WriteLimits {
	off := func(n int) int {
		if n == 0 {
			return -1
		}
		return n
	}
	return issuefields.WriteLimits{PerMinute: off(opts.writeLimit), PerHour: off(opts.writeLimitHourly)}
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
	d, err := load(bytes.NewReader(demoData))
	if err != nil {
		return fmt.Errorf("demo data: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
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

// parseFlags parses and checks the command line args. For -h it writes the
// help to stdout and returns flag.ErrHelp.
func parseFlags(args []string, stdout io.Writer) (options, error) {
	var opts options
	fs := flag.NewFlagSet("example", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&opts.addr, "addr", "127.0.0.1:8080", "`host:port` to listen on; port 0 picks a free port")
	fs.StringVar(&opts.prefix, "prefix", "/", "`path` to mount the API under, such as /api")
	fs.StringVar(&opts.vendor, "vendor", "Service", "`word` in the API's header names, as in X-Service-Api-Version; GitHub gives GitHub's names")
	fs.IntVar(&opts.writeLimit, "write-limit", issuefields.DefaultWritesPerMinute, "most writes a minute per token; 0 turns the limit off")
	fs.IntVar(&opts.writeLimitHourly, "write-limit-hourly", issuefields.DefaultWritesPerHour, "most writes an hour per token; 0 turns the limit off")
	fs.StringVar(&opts.webhookURL, "webhook", "", "`URL` to POST every event to, signed with -webhook-secret; without it, events are logged")
	fs.StringVar(&opts.webhookSecret, "webhook-secret", "", "`secret` that signs webhook deliveries (X-<Vendor>-Signature-256)")
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fmt.Fprintf(stdout, "Usage: go run ./example [flags]\n\nServes the Issue Field Values API with demo data and tokens.\n\nFlags:\n")
		fs.PrintDefaults()
		return opts, err
	}
	if err != nil {
		return opts, fmt.Errorf("%w (-h lists the flags)", err)
	}
	if fs.NArg() > 0 {
		return opts, fmt.Errorf("unexpected argument %q (-h lists the flags)", fs.Arg(0))
	}
	if _, _, err := net.SplitHostPort(opts.addr); err != nil {
		return opts, fmt.Errorf("-addr %q: want host:port, such as 127.0.0.1:8080", opts.addr)
	}
	if opts.prefix, err = cleanPrefix(opts.prefix); err != nil {
		return opts, err
	}
	if opts.writeLimit < 0 || opts.writeLimitHourly < 0 {
		return opts, fmt.Errorf("-write-limit and -write-limit-hourly: want a count of writes, or 0 to turn the limit off")
	}
	if opts.webhookURL != "" && opts.webhookSecret == "" {
		return opts, fmt.Errorf("-webhook needs -webhook-secret, the secret that signs each delivery")
	}
	if !vendorPattern.MatchString(opts.vendor) {
		return opts, fmt.Errorf("-vendor %q: want letters and digits, such as Service or GitHub", opts.vendor)
	}
	return opts, nil
}

var (
	vendorPattern  = regexp.MustCompile(`^[A-Za-z0-9]+$`)
	segmentPattern = regexp.MustCompile(`^[A-Za-z0-9._~-]+$`)
)

// cleanPrefix checks a -prefix value and returns it without its trailing
// slash: "" for "/", "/api" for "/api" or "/api/".
func cleanPrefix(prefix string) (string, error) {
	if !strings.HasPrefix(prefix, "/") {
		return "", fmt.Errorf("-prefix %q: a prefix must start with \"/\", such as /api", prefix)
	}
	p := strings.TrimSuffix(prefix, "/")
	if p == "" {
		return "", nil
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if !segmentPattern.MatchString(seg) || seg == "." || seg == ".." {
			return "", fmt.Errorf("-prefix %q: each segment of a prefix is letters, digits, '.', '_', '~' or '-' (and not . or ..), such as /api/v3", prefix)
		}
	}
	return p, nil
}
