package server

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"regexp"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
)

// options are the command line's settings.
type options struct {
	addr   string
	prefix string // "" for the root, else "/segment..." without a trailing slash
	vendor string
	// writeLimit and writeLimitHourly are the secondary rate limits on
	// writes per principal; 0 turns one off.
	writeLimit, writeLimitHourly int
	// webhookURL receives every event, signed with webhookSecret; without
	// it, events are logged at debug level.
	webhookURL, webhookSecret string
	// dataFile is the name of the data file to serve; "" serves the
	// built-in demo data.
	dataFile string
	// logFormat is logText or logJSON.
	logFormat string
	// logLevel is the least level logged: the request lines are Info,
	// events Debug, failures Warn and Error.
	logLevel slog.Level
	// readTimeout and writeTimeout bound reading a whole request and
	// writing an answer, and idleTimeout how long a kept-alive connection
	// may wait for its next request; 0 sets no bound.
	readTimeout, writeTimeout, idleTimeout time.Duration
	// maxConns bounds the open connections.
	maxConns int
	// debugAddr is the address of the debug listener, which serves
	// profiles and counters; "" serves none.
	debugAddr string
}

// The values of -log-format.
const (
	logText = "text"
	logJSON = "json"
)

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

// connTimeouts returns the bounds on clients' time for opts: a request's
// headers get readHeaderTimeout, or the bound on a whole request when that is
// shorter.
func (opts options) connTimeouts() connTimeouts {
	header := readHeaderTimeout
	if opts.readTimeout > 0 {
		header = min(header, opts.readTimeout)
	}
	return connTimeouts{header: header, request: opts.readTimeout, idle: opts.idleTimeout}
}

// parseFlags parses and checks the command line args, with the flags of c
// besides the server's own. For -h it writes the help to stdout and returns
// flag.ErrHelp.
func (c Command) parseFlags(args []string, stdout io.Writer) (options, error) {
	var opts options
	var logLevel string
	fs := flag.NewFlagSet("example", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if c.Flags != nil {
		c.Flags(fs)
	}
	fs.StringVar(&opts.addr, "addr", "127.0.0.1:8080", "`host:port` to listen on; port 0 picks a free port")
	fs.StringVar(&opts.prefix, "prefix", "/", "`path` to mount the API under, such as /api")
	fs.StringVar(&opts.vendor, "vendor", "Service", "`word` in the API's header names, as in X-Service-Api-Version; GitHub gives GitHub's names")
	fs.IntVar(&opts.writeLimit, "write-limit", issuefields.DefaultWritesPerMinute, "most writes a minute per token; 0 turns the limit off")
	fs.IntVar(&opts.writeLimitHourly, "write-limit-hourly", issuefields.DefaultWritesPerHour, "most writes an hour per token; 0 turns the limit off")
	fs.StringVar(&opts.webhookURL, "webhook", "", "`URL` that gets an issues webhook delivery per changed field, as GitHub sends them, signed with -webhook-secret; without it, events are logged at -log-level debug")
	fs.StringVar(&opts.webhookSecret, "webhook-secret", "", "`secret` that signs webhook deliveries (X-<Vendor>-Signature-256; X-Hub-Signature-256 with -vendor GitHub)")
	fs.StringVar(&opts.dataFile, "data", "", "JSON `file` of organizations, fields, repositories, issues, values and tokens to serve; without it, the built-in demo data")
	fs.StringVar(&opts.logFormat, "log-format", logText, "`format` of the log on stderr: text (key=value) or json (one object per line)")
	fs.StringVar(&logLevel, "log-level", "info", "least `level` logged: debug (also a line per event), info (a line per request), warn or error")
	fs.DurationVar(&opts.readTimeout, "read-timeout", 30*time.Second, "longest `time` to read a whole request, body included; 0 for no bound")
	fs.DurationVar(&opts.writeTimeout, "write-timeout", 0, "longest `time` to write an answer; 0 for no bound")
	fs.DurationVar(&opts.idleTimeout, "idle-timeout", time.Minute, "longest `time` a kept-alive connection may wait for its next request; 0 for no bound")
	fs.IntVar(&opts.maxConns, "max-conns", 1024, "most open connections; at the bound, the one idle longest is closed for a new one")
	fs.StringVar(&opts.debugAddr, "debug-addr", "", "`host:port` of a second listener that serves Go's profiles (/debug/pprof/) and counters (/debug/vars); without it, none")
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		usage := c.Usage
		if usage == "" {
			usage = "go run ./example"
		}
		fmt.Fprintf(stdout, "Usage: %s [flags]\n\nServes the Issue Field Values API with the data and tokens of a data file (-data),\nor with built-in demo data.\n\nFlags:\n", usage)
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
	if _, _, err := net.SplitHostPort(opts.debugAddr); opts.debugAddr != "" && err != nil {
		return opts, fmt.Errorf("-debug-addr %q: want host:port, such as 127.0.0.1:6060", opts.debugAddr)
	}
	if opts.prefix, err = cleanPrefix(opts.prefix); err != nil {
		return opts, err
	}
	if opts.writeLimit < 0 || opts.writeLimitHourly < 0 {
		return opts, fmt.Errorf("-write-limit and -write-limit-hourly: want a count of writes, or 0 to turn the limit off")
	}
	if opts.readTimeout < 0 || opts.writeTimeout < 0 || opts.idleTimeout < 0 {
		return opts, fmt.Errorf("-read-timeout, -write-timeout and -idle-timeout: want a duration such as 30s, or 0 for no bound")
	}
	if opts.maxConns < 1 {
		return opts, fmt.Errorf("-max-conns %d: want a number of connections, at least 1", opts.maxConns)
	}
	if opts.webhookURL != "" && opts.webhookSecret == "" {
		return opts, fmt.Errorf("-webhook needs -webhook-secret, the secret that signs each delivery")
	}
	if err := opts.logLevel.UnmarshalText([]byte(logLevel)); err != nil {
		return opts, fmt.Errorf("-log-level %q: want debug, info, warn or error", logLevel)
	}
	if opts.logFormat != logText && opts.logFormat != logJSON {
		return opts, fmt.Errorf("-log-format %q: want text or json", opts.logFormat)
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
