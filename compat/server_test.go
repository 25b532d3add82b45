package compat

import (
	"bytes"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-github/v92/github"
)

// mountPrefix is where the test mounts the API, as GitHub Enterprise Server
// does.
const mountPrefix = "/api/v3"

// Bounds on waiting for a server. They guard against a server that
// hangs; nothing in the test depends on how fast it is.
const (
	startBound = time.Minute
	stopBound  = 30 * time.Second
)

// testData is the data file the tests give a server (-data). It is
// the test's own, so that a change to the example's demo data does not change
// what the test expects. Like the demo data, it has an organization with a
// field of each data type, a public, a private and a renamed repository, a
// deleted and a transferred issue, a token for each answer of the
// permission model, and tokens that manage hooks and write as an app.
const testData = `{
  "organizations": [
    {
      "login": "octo-org",
      "fields": [
        {"id": 1, "name": "Priority", "data_type": "single_select", "options": [
          {"id": 11, "name": "High", "color": "red"},
          {"id": 12, "name": "Medium", "color": "yellow"},
          {"id": 13, "name": "Low", "color": "green"}
        ]},
        {"id": 2, "name": "Estimate", "data_type": "number"},
        {"id": 3, "name": "Due date", "data_type": "date"},
        {"id": 4, "name": "Summary", "data_type": "text"},
        {"id": 5, "name": "Platforms", "data_type": "multi_select", "options": [
          {"id": 51, "name": "Linux", "color": "blue"},
          {"id": 52, "name": "macOS", "color": "gray"},
          {"id": 53, "name": "Windows", "color": "purple"}
        ]}
      ]
    }
  ],
  "repositories": [
    {
      "owner": "octo-org", "name": "hello-world", "private": false,
      "issues": [
        {"number": 1, "values": [
          {"field_id": 1, "value": "High"},
          {"field_id": 2, "value": 3},
          {"field_id": 3, "value": "2026-04-01"},
          {"field_id": 4, "value": "Crash when saving a file with a long name"},
          {"field_id": 5, "value": ["Windows", "Linux"]}
        ]},
        {"number": 2, "values": [
          {"field_id": 1, "value": "Low"},
          {"field_id": 2, "value": 0.5}
        ]},
        {"number": 3},
        {"number": 4, "deleted": true},
        {"number": 5, "values": [{"field_id": 4, "value": "Belongs in the handbook"}],
         "transferred_to": {"owner": "octo-org", "name": "handbook", "number": 8}}
      ]
    },
    {
      "owner": "octo-org", "name": "roadmap", "private": true,
      "issues": [
        {"number": 1, "values": [
          {"field_id": 1, "value": "Medium"},
          {"field_id": 3, "value": "2026-06-30"},
          {"field_id": 5, "value": ["macOS"]}
        ]},
        {"number": 2}
      ]
    },
    {
      "owner": "octo-org", "name": "handbook", "private": false, "renamed_from": ["docs"],
      "issues": [
        {"number": 1, "values": [{"field_id": 4, "value": "Document the release process"}]}
      ]
    }
  ],
  "tokens": [
    {"token": "writer-token", "kind": "fine_grained_pat", "login": "octocat",
     "repositories": {
       "octo-org/hello-world": {"issues": "write", "pull_requests": "none", "push": true},
       "octo-org/roadmap": {"issues": "write", "pull_requests": "none", "push": true},
       "octo-org/handbook": {"issues": "write", "pull_requests": "none", "push": true}
     }},
    {"token": "reader-token", "kind": "fine_grained_pat", "login": "reader",
     "repositories": {
       "octo-org/hello-world": {"issues": "read", "pull_requests": "read", "push": false},
       "octo-org/roadmap": {"issues": "read", "pull_requests": "read", "push": false}
     }},
    {"token": "no-push-token", "kind": "app_user", "login": "triager",
     "repositories": {
       "octo-org/hello-world": {"issues": "write", "pull_requests": "none", "push": false},
       "octo-org/roadmap": {"issues": "write", "pull_requests": "none", "push": false}
     }},
    {"token": "outsider-token", "kind": "fine_grained_pat", "login": "outsider",
     "repositories": {}},
    {"token": "classic-token", "kind": "classic_pat", "login": "octocat",
     "repositories": {
       "octo-org/hello-world": {"issues": "write", "pull_requests": "write", "push": true}
     }},
    {"token": "fields-admin-token", "kind": "fine_grained_pat", "login": "fields-admin",
     "organizations": {"octo-org": {"issue_fields": "write"}}},
    {"token": "fields-reader-token", "kind": "app_installation", "login": "fields-reader[bot]",
     "organizations": {"octo-org": {"issue_fields": "read"}}},
    {"token": "hooks-token", "kind": "fine_grained_pat", "login": "hook-admin",
     "organizations": {"octo-org": {"organization_hooks": "write"}},
     "repositories": {
       "octo-org/hello-world": {"issues": "read", "repository_hooks": "write"},
       "octo-org/roadmap": {"issues": "read", "repository_hooks": "write"}
     }},
    {"token": "app-writer-token", "kind": "app_installation", "login": "ci-app[bot]",
     "repositories": {
       "octo-org/hello-world": {"issues": "write", "pull_requests": "none", "push": true}
     }},
    {"token": "expired-token", "kind": "fine_grained_pat", "login": "former-member",
     "expires_at": "2020-01-01T00:00:00Z",
     "repositories": {
       "octo-org/hello-world": {"issues": "write", "pull_requests": "none", "push": true}
     }}
  ]
}
`

// The tokens of testData.
const (
	writerToken   = "writer-token"   // fine-grained PAT, writes everywhere
	readerToken   = "reader-token"   // fine-grained PAT, issues read, no push
	noPushToken   = "no-push-token"  // app user token, issues write, no push
	outsiderToken = "outsider-token" // fine-grained PAT that sees no private repository
	classicToken  = "classic-token"  // classic PAT, a kind the API refuses
	expiredToken  = "expired-token"  // fine-grained PAT past its expiry

	fieldsAdminToken  = "fields-admin-token"  // fine-grained PAT that manages octo-org's fields
	fieldsReaderToken = "fields-reader-token" // app installation token that lists them

	hooksToken     = "hooks-token"      // fine-grained PAT that manages the hooks of octo-org, hello-world and roadmap
	appWriterToken = "app-writer-token" // app installation token that writes in hello-world
)

// A server is a running example server, or issuefields-postgres.
type server struct {
	// base is the API's base URL as go-github wants it: absolute, with the
	// mount prefix and a trailing slash.
	base string
}

// startServer builds the example server, starts it on a free loopback port
// with testData, GitHub's header names, the API under mountPrefix, the write
// rate limits off and the flags of extra, and returns once it listens (over
// HTTPS when extra has -tls-cert). The
// server is stopped with SIGTERM when the test ends; a stop that is not clean
// fails the test.
func startServer(t *testing.T, extra ...string) *server {
	t.Helper()
	return startServerWith(t, testData, extra...)
}

// startServerWith is startServer with the data file data, or with the
// example's built-in demo data when data is "".
func startServerWith(t *testing.T, data string, extra ...string) *server {
	t.Helper()
	dir := t.TempDir()
	return runServer(t, build(t, dir, "..", "./example"), dir, data, extra...)
}

// runServer runs the program bin, the example server or a command that takes
// its flags, as startServer describes, with the data file data (none when data
// is "") written into dir.
func runServer(t *testing.T, bin, dir, data string, extra ...string) *server {
	t.Helper()
	args := []string{"-addr", "127.0.0.1:0"}
	if data != "" {
		file := filepath.Join(dir, "data.json")
		if err := os.WriteFile(file, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, "-data", file)
	}
	args = append(args,
		"-prefix", mountPrefix,
		"-vendor", "GitHub",
		"-write-limit", "0",
		"-write-limit-hourly", "0",
	)
	args = append(args, extra...)
	s := &server{}

	stdout := &listenWatcher{found: make(chan string, 1)}
	var stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout = stdout
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { stopServer(t, cmd, exited, &stderr) })

	scheme := "http"
	if slices.Contains(extra, "-tls-cert") {
		scheme = "https"
	}
	select {
	case addr := <-stdout.found:
		u, err := url.Parse(addr)
		if err != nil || u.Scheme != scheme || u.Path != mountPrefix+"/" {
			t.Fatalf("listening line names %q; want %s://host:port%s/", addr, scheme, mountPrefix)
		}
		s.base = addr
	case err := <-exited:
		exited <- err // for stopServer
		t.Fatalf("the server exited before it listened: %v", err)
	case <-time.After(startBound):
		t.Fatalf("the server printed no listening line within %v", startBound)
	}
	return s
}

// build builds the package pkg of the module in the folder module, relative
// to compat's, into dir and returns the program's path.
func build(t *testing.T, dir, module, pkg string) string {
	t.Helper()
	bin := filepath.Join(dir, filepath.Base(filepath.Join(module, pkg)))
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Dir = module
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s in %s: %v\n%s", pkg, module, err, out)
	}
	return bin
}

// stopServer sends SIGTERM to the server and waits for it to exit, killing
// it if it has not stopped within stopBound. A server that does not exit
// with status 0 fails the test. If the test failed, the server's log is
// written to the test log.
func stopServer(t *testing.T, cmd *exec.Cmd, exited chan error, stderr *bytes.Buffer) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("sending SIGTERM to the server: %v", err)
		_ = cmd.Process.Kill()
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the server did not stop cleanly on SIGTERM: %v", err)
		}
	case <-time.After(stopBound):
		_ = cmd.Process.Kill()
		<-exited
		t.Errorf("the server did not stop within %v of SIGTERM", stopBound)
	}
	// The process has exited and its output is copied: stderr is complete.
	if t.Failed() {
		t.Logf("server log:\n%s", stderr.String())
	}
}

// A listenWatcher is the server's standard output. It sends the URL of the
// first complete "listening on URL" line on found.
type listenWatcher struct {
	found chan string
	mu    sync.Mutex
	buf   bytes.Buffer
	done  bool
}

// Write implements io.Writer.
func (w *listenWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return len(p), nil
	}
	w.buf.Write(p)
	for {
		line, err := w.buf.ReadString('\n')
		if err != nil { // an incomplete line: keep it for the next Write
			w.buf.Reset()
			w.buf.WriteString(line)
			return len(p), nil
		}
		if addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on "); ok {
			w.done = true
			w.buf.Reset()
			w.found <- addr
			return len(p), nil
		}
	}
}

// client returns a go-github client for the server, as a GitHub Enterprise
// Server user makes one: with the server's URLs, a token and the options of
// extra. An empty token gives an anonymous client.
func (s *server) client(t *testing.T, token string, extra ...github.ClientOptionsFunc) *github.Client {
	t.Helper()
	opts := append([]github.ClientOptionsFunc{github.WithEnterpriseURLs(s.base, s.base)}, extra...)
	if token != "" {
		opts = append(opts, github.WithAuthToken(token))
	}
	c, err := github.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.BaseURL(); got != s.base {
		t.Fatalf("client base URL %q; want %q", got, s.base)
	}
	return c
}
