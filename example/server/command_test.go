package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
)

// lockedBuffer is a bytes.Buffer that the server's goroutines may write to
// while a test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// A running is the example server running in the test's process.
type running struct {
	// base is the URL of the listening line: the address and mount prefix,
	// with a trailing slash.
	base string
	// message is the start-up message after the listening line.
	message []string
	logs    *lockedBuffer
	// stop stops the server gracefully and returns run's error.
	stop func() error
}

// run runs the example server as go run ./example does, with the data in
// memory.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return Command{}.Run(ctx, args, stdout, stderr)
}

var listeningLine = regexp.MustCompile(`^listening on (https?://127\.0\.0\.1:[1-9][0-9]*/(?:[^ ]+/)?)$`)

// stopLine is the last line of the start-up message.
const stopLine = "Stop the server with Ctrl-C."

// startServer runs the example server on a free port with the further
// command line args, and returns once it has printed its start-up message.
// The test stops the server when it ends, if it has not stopped it before.
func startServer(t *testing.T, args ...string) *running {
	t.Helper()
	return startCommand(t, Command{}, args...)
}

// startCommand is startServer for the command c.
func startCommand(t *testing.T, c Command, args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, printed := io.Pipe()
	s := &running{logs: new(lockedBuffer)}
	done := make(chan error, 1)
	go func() {
		err := c.Run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), printed, s.logs)
		printed.Close()
		done <- err
	}()
	var once sync.Once
	var runErr error
	s.stop = func() error {
		once.Do(func() {
			cancel()
			go io.Copy(io.Discard, stdout)
			runErr = <-done
		})
		return runErr
	}
	t.Cleanup(func() {
		if err := s.stop(); err != nil {
			t.Errorf("run: %v", err)
		}
	})

	lines := bufio.NewScanner(stdout)
	if !lines.Scan() {
		t.Fatalf("run printed nothing; it returned %v", s.stop())
	}
	m := listeningLine.FindStringSubmatch(lines.Text())
	if m == nil {
		t.Fatalf("first line %q, want %q", lines.Text(), "listening on http(s)://127.0.0.1:PORT/...")
	}
	s.base = m[1]
	for lines.Scan() {
		s.message = append(s.message, lines.Text())
		if lines.Text() == stopLine {
			return s
		}
	}
	t.Fatalf("the start-up message does not end with %q: %q", stopLine, s.message)
	return nil
}

// do makes a request to the server and returns the response's status and
// body.
func do(t *testing.T, method, url, token, body string) (int, string) {
	t.Helper()
	a := send(t, method, url, token, body)
	return a.status, a.body
}

func TestServeDemo(t *testing.T) {
	s := startServer(t)
	url := s.base + "repos/octo-org/roadmap/issues/2/issue-field-values"

	status, body := do(t, http.MethodGet, url, "demo-reader-token", "")
	if status != http.StatusOK || body != "[]\n" {
		t.Errorf("GET %s = %d %s, want 200 []", url, status, body)
	}
	status, body = do(t, http.MethodPost, url, "demo-writer-token", `{"issue_field_values": [{"field_id": 5, "value": ["Windows", "Linux"]}]}`)
	var items []struct {
		ID    int64  `json:"issue_field_id"`
		Value string `json:"value"`
	}
	if err := json.Unmarshal([]byte(body), &items); status != http.StatusOK || err != nil || len(items) != 1 || items[0].ID != 5 || items[0].Value != "Linux,Windows" {
		t.Errorf("POST %s = %d %s, want 200 and field 5 with Linux,Windows", url, status, body)
	}
	status, body = do(t, http.MethodGet, url, "demo-reader-token", "")
	if status != http.StatusOK || !strings.Contains(body, `"value":"Linux,Windows"`) {
		t.Errorf("GET %s after the POST = %d %s, want 200 with the new value", url, status, body)
	}
	if status, _ := do(t, http.MethodGet, url, "demo-outsider-token", ""); status != http.StatusNotFound {
		t.Errorf("GET %s with a token that cannot see it = %d, want 404", url, status)
	}

	if err := s.stop(); err != nil {
		t.Fatalf("run after a graceful stop: %v, want nil", err)
	}
	logs := s.logs.String()
	if !strings.Contains(logs, "route=") || !strings.Contains(logs, "login=octocat") {
		t.Errorf("the logs have no request lines:\n%s", logs)
	}
	if strings.Contains(logs, "-token") {
		t.Errorf("the logs show a token:\n%s", logs)
	}
}

// TestPrintedCommands runs every curl command of the start-up message, in
// order, and checks that each gets the status its comment names, under the
// default mount, under a prefix, and over an empty store that Open opens.
func TestPrintedCommands(t *testing.T) {
	for _, tt := range []struct {
		name         string
		command      Command
		args         []string
		base, header string
	}{
		{"default", Command{}, nil, "/", "X-Service-Api-Version"},
		{"prefix", Command{}, []string{"-prefix", "/api/v3/", "-vendor", "GitHub"}, "/api/v3/", "X-GitHub-Api-Version"},
		{"empty store", opening(newFakeStore(true), nil), nil, "/", "X-Service-Api-Version"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := startCommand(t, tt.command, tt.args...)
			if !strings.HasSuffix(s.base, ":"+portOf(s.base)+tt.base) {
				t.Fatalf("listening on %s, want the path %s", s.base, tt.base)
			}
			client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			expect := regexp.MustCompile(`^  # .*\(expect ([0-9]{3})\)$`)
			ran := 0
			for i, line := range s.message {
				cmd, ok := strings.CutPrefix(line, "  curl ")
				if !ok {
					continue
				}
				m := expect.FindStringSubmatch(s.message[i-1])
				if m == nil {
					t.Fatalf("the line before %q is %q, want a comment naming the status", line, s.message[i-1])
				}
				req := curlRequest(t, cmd)
				if !strings.HasPrefix(req.URL.String(), s.base+"repos/") {
					t.Errorf("%s: URL is not under %s", line, s.base)
				}
				if req.Header.Get(tt.header) == "" {
					t.Errorf("%s: no %s header", line, tt.header)
				}
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if want, _ := strconv.Atoi(m[1]); resp.StatusCode != want {
					t.Errorf("%s\n=> %d %s, want %d", line, resp.StatusCode, body, want)
				}
				if loc := resp.Header.Get("Location"); loc != "" && !strings.HasPrefix(loc, s.base+"repos/") {
					t.Errorf("%s\n=> Location %s, want it under %s", line, loc, s.base)
				}
				ran++
			}
			// A list, five adds, a set, a delete, a renamed repository, a
			// deleted issue and a transferred issue.
			if ran != 11 {
				t.Errorf("ran %d curl commands, want 11:\n%s", ran, strings.Join(s.message, "\n"))
			}
		})
	}
}

// portOf returns the port of a URL http://host:port/...
func portOf(url string) string {
	hostPort, _, _ := strings.Cut(strings.TrimPrefix(url, "http://"), "/")
	return hostPort[strings.LastIndex(hostPort, ":")+1:]
}

// curlRequest returns the request that the arguments of a printed curl
// command make: options -sS, -i, -X, -H and -d, and a URL.
func curlRequest(t *testing.T, args string) *http.Request {
	t.Helper()
	method, url, body := http.MethodGet, "", ""
	header := http.Header{}
	words := shellWords(t, args)
	for i := 0; i < len(words); i++ {
		switch w := words[i]; w {
		case "-sS", "-i":
		case "-X", "-H", "-d":
			i++
			if i == len(words) {
				t.Fatalf("%s without a value in %q", w, args)
			}
			switch w {
			case "-X":
				method = words[i]
			case "-H":
				name, value, _ := strings.Cut(words[i], ": ")
				header.Add(name, value)
			case "-d":
				body = words[i]
			}
		default:
			if strings.HasPrefix(w, "-") || url != "" {
				t.Fatalf("unexpected argument %q in %q", w, args)
			}
			url = w
		}
	}
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	return req
}

// shellWords splits s into words as a POSIX shell does, for words that are
// plain or single-quoted.
func shellWords(t *testing.T, s string) []string {
	t.Helper()
	var words []string
	var word strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			word.WriteByte(c)
		case c == '\'':
			quoted, inWord = true, true
		case c == '\\' && i+1 < len(s):
			i++
			word.WriteByte(s[i])
			inWord = true
		case c == ' ':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		case strings.IndexByte(`"$*?;&|<>(){}`+"`", c) >= 0:
			t.Fatalf("unquoted %q in %q", c, s)
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unterminated quote in %q", s)
	}
	if inWord {
		words = append(words, word.String())
	}
	return words
}

func TestFlags(t *testing.T) {
	defaults := options{addr: "127.0.0.1:8080", prefix: "", vendor: "Service", writeLimit: 80, writeLimitHourly: 500,
		rateLimit: 5000, rateLimitAnonymous: 1000, logFormat: "text",
		readTimeout: 30 * time.Second, idleTimeout: time.Minute, maxConns: 1024, tools: true}
	with := func(change func(*options)) options {
		o := defaults
		change(&o)
		return o
	}
	for _, tt := range []struct {
		args []string
		want options
	}{
		{nil, defaults},
		{[]string{"-prefix", "/"}, defaults},
		{[]string{"-prefix", "/api/"}, with(func(o *options) { o.prefix = "/api" })},
		{[]string{"-addr", ":9000", "-prefix", "/api/v3", "-vendor", "GitHub"},
			with(func(o *options) { o.addr, o.prefix, o.vendor = ":9000", "/api/v3", "GitHub" })},
		{[]string{"-write-limit", "0", "-write-limit-hourly", "20"},
			with(func(o *options) { o.writeLimit, o.writeLimitHourly = 0, 20 })},
		{[]string{"-rate-limit", "0", "-rate-limit-anonymous", "60"},
			with(func(o *options) { o.rateLimit, o.rateLimitAnonymous = 0, 60 })},
		{[]string{"-log-level", "WARN"}, with(func(o *options) { o.logLevel = slog.LevelWarn })},
		{[]string{"-webhook", "http://127.0.0.1:9999/hook", "-webhook-secret", "s3cret"},
			with(func(o *options) { o.webhookURL, o.webhookSecret = "http://127.0.0.1:9999/hook", "s3cret" })},
		{[]string{"-base-url", "https://api.example.com/", "-web-url", "https://example.com"},
			with(func(o *options) { o.baseURL, o.webURL = "https://api.example.com/", "https://example.com" })},
		{[]string{"-tools=false"}, with(func(o *options) { o.tools = false })},
		{[]string{"-data", "data.json", "-log-format", "json"},
			with(func(o *options) { o.dataFile, o.logFormat = "data.json", "json" })},
		{[]string{"-read-timeout", "5s", "-write-timeout", "1m", "-idle-timeout", "0", "-max-conns", "10"},
			with(func(o *options) {
				o.readTimeout, o.writeTimeout, o.idleTimeout, o.maxConns = 5*time.Second, time.Minute, 0, 10
			})},
	} {
		got, err := Command{}.parseFlags(tt.args, io.Discard)
		if err != nil || got != tt.want {
			t.Errorf("parseFlags(%q) = %+v, %v; want %+v", tt.args, got, err, tt.want)
		}
	}
}

// TestWriteLimitsFromFlags checks that 0 turns a limit off rather than
// selecting the handler's default.
func TestWriteLimitsFromFlags(t *testing.T) {
	got := options{writeLimit: 0, writeLimitHourly: 20}.writeLimits()
	if want := (issuefields.WriteLimits{PerMinute: -1, PerHour: 20}); got.PerMinute != want.PerMinute || got.PerHour != want.PerHour {
		t.Errorf("writeLimits() = %+v, want %+v", got, want)
	}
}

func TestBadFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-prefix", "api"}, `-prefix "api": a prefix must start with "/", such as /api`},
		{[]string{"-prefix", ""}, `-prefix "": a prefix must start with "/", such as /api`},
		{[]string{"-prefix", "/a b"}, `-prefix "/a b": each segment of a prefix is letters, digits, '.', '_', '~' or '-' (and not . or ..), such as /api/v3`},
		{[]string{"-prefix", "/api//v3"}, `-prefix "/api//v3": each segment of a prefix is letters, digits, '.', '_', '~' or '-' (and not . or ..), such as /api/v3`},
		{[]string{"-prefix", "/api/../x"}, `-prefix "/api/../x": each segment of a prefix is letters, digits, '.', '_', '~' or '-' (and not . or ..), such as /api/v3`},
		{[]string{"-prefix", "/{owner}"}, `-prefix "/{owner}": each segment of a prefix is letters, digits, '.', '_', '~' or '-' (and not . or ..), such as /api/v3`},
		{[]string{"-vendor", "Git-Hub"}, `-vendor "Git-Hub": want letters and digits, such as Service or GitHub`},
		{[]string{"-vendor", ""}, `-vendor "": want letters and digits, such as Service or GitHub`},
		{[]string{"-addr", "8080"}, `-addr "8080": want host:port, such as 127.0.0.1:8080`},
		{[]string{"-port", "8080"}, `flag provided but not defined: -port (-h lists the flags)`},
		{[]string{"serve"}, `unexpected argument "serve" (-h lists the flags)`},
		{[]string{"-log-level", "loud"}, `-log-level "loud": want debug, info, warn or error`},
		{[]string{"-write-limit", "-1"}, `-write-limit and -write-limit-hourly: want a count of writes, or 0 to turn the limit off`},
		{[]string{"-webhook", "http://127.0.0.1:9999/hook"}, `-webhook needs -webhook-secret, the secret that signs each delivery`},
		{[]string{"-webhook", "ftp://x/hook", "-webhook-secret", "s"}, `-webhook "ftp://x/hook": the URL is not an absolute http or https URL with a host`},
		{[]string{"-webhook", "http://127.0.0.1:9/x?a=b c", "-webhook-secret", "s"},
			`-webhook "http://127.0.0.1:9/x?a=b c": the URL holds a space (U+0020) at byte 24, which a URL must percent-encode (%20)`},
		{[]string{"-webhook", "http://127.0.0.1:9/x\r\nX: 1", "-webhook-secret", "s"},
			`-webhook "http://127.0.0.1:9/x\r\nX: 1": the URL holds the control character U+000D at byte 20, which a URL must percent-encode (%0D)`},
		{[]string{"-webhook", "http://a%e2%80%a8b/", "-webhook-secret", "s"},
			`-webhook "http://a%e2%80%a8b/": the URL's host holds the white space U+2028 once percent-decoded`},
		{[]string{"-base-url", "api.example.com"}, `-base-url "api.example.com": want an absolute http or https URL, such as https://api.example.com`},
		{[]string{"-web-url", "/web"}, `-web-url "/web": want an absolute http or https URL, such as https://example.com`},
		{[]string{"-log-format", "logfmt"}, `-log-format "logfmt": want text or json`},
		{[]string{"-write-timeout", "-1s"}, `-read-timeout, -write-timeout and -idle-timeout: want a duration such as 30s, or 0 for no bound`},
		{[]string{"-idle-timeout", "-1m"}, `-read-timeout, -write-timeout and -idle-timeout: want a duration such as 30s, or 0 for no bound`},
		{[]string{"-max-conns", "0"}, `-max-conns 0: want a number of connections, at least 1`},
	} {
		err := run(context.Background(), tt.args, io.Discard, io.Discard)
		if err == nil || err.Error() != tt.want {
			t.Errorf("run(%q) = %v, want %s", tt.args, err, tt.want)
		}
	}
}

func TestHelp(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-h"}, &out, io.Discard); err != nil {
		t.Fatalf("run(-h) = %v, want nil", err)
	}
	// The help names the command as the process was run, here the test binary.
	usage := "Usage: " + filepath.Base(os.Args[0]) + " [flags]\n"
	for _, want := range []string{usage, "-addr", "-prefix", "-vendor", "-data", "-log-format", `-log-level level
    	least level logged: debug (also a line per event), info (a line per request), warn or error (default "info")`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help does not mention %s:\n%s", want, out.String())
		}
	}
}

// TestLogLevel checks that -log-level warn leaves out the request lines.
func TestLogLevel(t *testing.T) {
	s := startServer(t, "-log-level", "warn")
	if status, _ := do(t, http.MethodGet, s.base+"repos/octo-org/hello-world/issues/1/issue-field-values", "demo-reader-token", ""); status != http.StatusOK {
		t.Fatalf("GET = %d, want 200", status)
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	if logs := s.logs.String(); strings.Contains(logs, "msg=request") {
		t.Errorf("-log-level warn logged a request line:\n%s", logs)
	}
}
