package server

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/ratelimit"
	"github.com/issuefields/issuefields/webhook"
)

// options are the command line's settings, as parseFlags's help for each
// flag describes them. prefix is "" for the root, else "/segment..."
// without a trailing slash.
type options struct {
	addr, prefix, vendor                   string
	writeLimit, writeLimitHourly, maxConns int
	rateLimit, rateLimitAnonymous          int
	webhookURL, webhookSecret, dataFile    string
	logFormat, debugAddr                   string
	tlsCert, tlsKey, adminToken            string
	version, tools                         bool
	baseURL, webURL                        string
	logLevel                               slog.Level
	readTimeout, writeTimeout, idleTimeout time.Duration
}

// The values of -log-format.
const (
	logText = "text"
	logJSON = "json"
)

// The defaults of -write-limit and -write-limit-hourly: GitHub's secondary
// rate limit on content-creating requests.
const (
	defaultWritesPerMinute = 80
	defaultWritesPerHour   = 500
)

// headerTimeout bounds reading a request's headers, so that a client cannot
// hold a connection by sending them slowly; a shorter -read-timeout bounds
// them too.
const headerTimeout = 10 * time.Second

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

// rateLimits returns the primary rate limit's budgets for opts.
func (opts options) rateLimits() ratelimit.Limits {
	return ratelimit.Limits{PerHour: opts.rateLimit, Anonymous: opts.rateLimitAnonymous}
}

// server returns the http.Server that serves h with the bounds of opts. Its
// IdleTimeout is the longest duration when -idle-timeout is 0, because
// http.Server bounds idle connections by ReadTimeout when IdleTimeout is 0.
func (opts options) server(h http.Handler) *http.Server {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: headerTimeout,
		ReadTimeout:       opts.readTimeout,
		WriteTimeout:      opts.writeTimeout,
		IdleTimeout:       opts.idleTimeout,
	}
	if opts.readTimeout > 0 {
		srv.ReadHeaderTimeout = min(headerTimeout, opts.readTimeout)
	}
	if opts.idleTimeout == 0 {
		srv.IdleTimeout = math.MaxInt64
	}
	return srv
}

// parseFlags parses and checks the command line args, with the flags of c
// besides the server's own. For -h it writes the help to stdout and returns
// flag.ErrHelp.
func (c Command) parseFlags(args []string, stdout io.Writer) (options, error) {
	var opts options
	var logLevel string
	fs := flag.NewFlagSet(commandName(), flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if c.Flags != nil {
		c.Flags(fs)
	}
	fs.StringVar(&opts.addr, "addr", "127.0.0.1:8080", "`host:port` to listen on; port 0 picks a free port")
	fs.StringVar(&opts.prefix, "prefix", "/", "`path` to mount the API under, such as /api")
	fs.StringVar(&opts.vendor, "vendor", "Service", "`word` in the API's header names, as in X-Service-Api-Version; GitHub gives GitHub's names")
	fs.IntVar(&opts.writeLimit, "write-limit", defaultWritesPerMinute, "most writes a minute per token; 0 turns the limit off")
	fs.IntVar(&opts.writeLimitHourly, "write-limit-hourly", defaultWritesPerHour, "most writes an hour per token; 0 turns the limit off")
	fs.IntVar(&opts.rateLimit, "rate-limit", ratelimit.DefaultPerHour, "most requests an hour per principal (its core budget, and the points of its graphql budget), as GitHub's primary rate limit; search has 30 a minute; 0 turns every budget and the x-ratelimit-* headers off")
	fs.IntVar(&opts.rateLimitAnonymous, "rate-limit-anonymous", ratelimit.DefaultAnonymous, "most requests an hour per client address, for callers without a token or with a bad one (GitHub's is 60)")
	fs.StringVar(&opts.webhookURL, "webhook", "", "`URL` of an organization hook, created at start-up unless it exists, for every organization: it gets an issues delivery per changed field, as GitHub sends them, signed with -webhook-secret (hooks are managed through GitHub's /orgs/{org}/hooks and /repos/{owner}/{repo}/hooks routes)")
	fs.StringVar(&opts.webhookSecret, "webhook-secret", "", "`secret` that signs the deliveries of -webhook's hooks (X-<Vendor>-Signature-256; X-Hub-Signature-256 with -vendor GitHub)")
	fs.StringVar(&opts.baseURL, "base-url", "", "public `URL` of the API, its path included (such as https://example.com/api/v3 with -prefix /api/v3): every absolute URL the server writes (Link, Location, webhook bodies, hook URLs) is under it; without it, Link and Location follow each request's Host, and webhook bodies and hook URLs are under the listening address and -prefix, as http:// or, with -tls-cert, https://")
	fs.StringVar(&opts.webURL, "web-url", "", "public `URL` of the web pages, under which webhook bodies' html_url are; without it, the scheme and host of -base-url")
	fs.StringVar(&opts.dataFile, "data", "", "JSON `file` of organizations, fields, repositories, issues, values and tokens to serve; without it, the built-in demo data")
	fs.StringVar(&opts.logFormat, "log-format", logText, "`format` of the log on stderr: text (key=value) or json (one object per line)")
	fs.StringVar(&logLevel, "log-level", "info", "least `level` logged: debug (also a line per event), info (a line per request), warn or error")
	fs.DurationVar(&opts.readTimeout, "read-timeout", 30*time.Second, "longest `time` to read a whole request, body included; 0 for no bound")
	fs.DurationVar(&opts.writeTimeout, "write-timeout", 0, "longest `time` to write an answer; 0 for no bound (the tools under /_issuefields/ have 5s on each write instead)")
	fs.DurationVar(&opts.idleTimeout, "idle-timeout", time.Minute, "longest `time` a kept-alive connection may wait for its next request; 0 for no bound")
	fs.IntVar(&opts.maxConns, "max-conns", 1024, "most open connections; at the bound, a new connection closes the oldest that has sent no whole request header, else the one idle the longest, else it is answered 503")
	fs.StringVar(&opts.debugAddr, "debug-addr", "", "`host:port` of a second listener that serves Go's profiles (/debug/pprof/), metrics (/metrics) and counters (/debug/vars); without it, none")
	fs.StringVar(&opts.tlsCert, "tls-cert", "", "PEM `file` of the certificate to serve HTTPS (and HTTP/2) with, its chain after it; needs -tls-key")
	fs.StringVar(&opts.tlsKey, "tls-key", "", "PEM `file` of -tls-cert's private key")
	fs.StringVar(&opts.adminToken, "admin-token", "", "`token` that the tools under /_issuefields/ require from every client, as a Bearer token or the password of Basic authentication; without it, $"+adminTokenEnv+", and without either, they are served to loopback clients only")
	fs.BoolVar(&opts.tools, "tools", true, "serve the page, the reset and the recorded requests under /_issuefields/, and record the API's requests for them; false serves nothing there and records nothing")
	fs.BoolVar(&opts.version, "version", false, "print the command's module, version and revision, and exit")
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fmt.Fprintf(stdout, "Usage: %s [flags]\n\nServes the Issue Field Values API with the data and tokens of a data file (-data),\nor with built-in demo data.\n\nFlags:\n",
			cmp.Or(c.Usage, commandName()))
		fs.PrintDefaults()
		return opts, err
	}
	if err != nil {
		return opts, fmt.Errorf("%w (-h lists the flags)", err)
	}
	_, _, addrErr := net.SplitHostPort(opts.addr)
	_, _, debugAddrErr := net.SplitHostPort(opts.debugAddr)
	prefix, prefixErr := cleanPrefix(opts.prefix)
	levelErr := opts.logLevel.UnmarshalText([]byte(logLevel))
	var webhookErr error
	if opts.webhookURL != "" {
		webhookErr = webhook.CheckHookURL(opts.webhookURL)
	}
	for _, check := range []struct {
		failed bool
		err    error
	}{
		{fs.NArg() > 0, fmt.Errorf("unexpected argument %q (-h lists the flags)", fs.Arg(0))},
		{addrErr != nil, fmt.Errorf("-addr %q: want host:port, such as 127.0.0.1:8080", opts.addr)},
		{opts.debugAddr != "" && debugAddrErr != nil, fmt.Errorf("-debug-addr %q: want host:port, such as 127.0.0.1:6060", opts.debugAddr)},
		{prefixErr != nil, prefixErr},
		{opts.writeLimit < 0 || opts.writeLimitHourly < 0, errors.New("-write-limit and -write-limit-hourly: want a count of writes, or 0 to turn the limit off")},
		{opts.rateLimit < 0, errors.New("-rate-limit: want a count of requests an hour, or 0 to turn the primary rate limit off")},
		{opts.rateLimitAnonymous < 1, errors.New("-rate-limit-anonymous: want a count of requests an hour, at least 1")},
		{opts.readTimeout < 0 || opts.writeTimeout < 0 || opts.idleTimeout < 0,
			errors.New("-read-timeout, -write-timeout and -idle-timeout: want a duration such as 30s, or 0 for no bound")},
		{(opts.tlsCert == "") != (opts.tlsKey == ""), errors.New("-tls-cert and -tls-key: give both, the certificate and its private key, or neither")},
		{opts.maxConns < 1, fmt.Errorf("-max-conns %d: want a number of connections, at least 1", opts.maxConns)},
		{opts.webhookURL != "" && opts.webhookSecret == "", errors.New("-webhook needs -webhook-secret, the secret that signs each delivery")},
		{webhookErr != nil, fmt.Errorf("-webhook %q: %v", opts.webhookURL, webhookErr)},
		{opts.baseURL != "" && !absoluteURL(opts.baseURL), fmt.Errorf("-base-url %q: want an absolute http or https URL, such as https://api.example.com", opts.baseURL)},
		{opts.webURL != "" && !absoluteURL(opts.webURL), fmt.Errorf("-web-url %q: want an absolute http or https URL, such as https://example.com", opts.webURL)},
		{levelErr != nil, fmt.Errorf("-log-level %q: want debug, info, warn or error", logLevel)},
		{opts.logFormat != logText && opts.logFormat != logJSON, fmt.Errorf("-log-format %q: want text or json", opts.logFormat)},
		{!vendorPattern.MatchString(opts.vendor), fmt.Errorf("-vendor %q: want letters and digits, such as Service or GitHub", opts.vendor)},
	} {
		if check.failed {
			return opts, check.err
		}
	}
	opts.prefix = prefix
	opts.adminToken = cmp.Or(opts.adminToken, os.Getenv(adminTokenEnv))
	return opts, nil
}

// adminTokenEnv is the environment variable that gives the admin token
// when -admin-token does not.
const adminTokenEnv = "ISSUEFIELDS_ADMIN_TOKEN"

// hosts returns the values of the Host header that name a server of opts
// listening on addr: addr, -addr as given, localhost, 127.0.0.1 and [::1]
// with addr's port, and the hosts of -base-url and -web-url.
func (opts options) hosts(addr string) []string {
	_, port, _ := net.SplitHostPort(addr)
	hosts := []string{addr, opts.addr}
	for _, name := range []string{"localhost", "127.0.0.1", "::1"} {
		hosts = append(hosts, net.JoinHostPort(name, port))
	}
	for _, public := range []string{opts.baseURL, opts.webURL} {
		if u, err := url.Parse(public); err == nil && u.Host != "" {
			hosts = append(hosts, u.Host)
		}
	}
	return hosts
}

// absoluteURL reports whether s is an absolute http or https URL.
func absoluteURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// publicURLs are the public addresses of the API and of the web pages.
type publicURLs struct{ api, web string }

// publicURLs returns the public addresses of opts for a server that listens
// on addr: -base-url and -web-url, or what they default to.
func (opts options) publicURLs(addr string) publicURLs {
	api := strings.TrimSuffix(cmp.Or(opts.baseURL, opts.scheme()+"://"+addr+opts.prefix), "/")
	web := opts.webURL
	if web == "" {
		u, _ := url.Parse(api)
		web = u.Scheme + "://" + u.Host
	}
	return publicURLs{api: api, web: strings.TrimSuffix(web, "/")}
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
