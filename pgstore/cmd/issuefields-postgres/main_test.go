package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// databaseURL returns the address of the PostgreSQL database that the tests
// use, from DATABASE_URL. When it is not set, it skips t, or fails it
// when the environment variable CI is set.
func databaseURL(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("DATABASE_URL")
	if dsn == "" {
		skipOrFail := t.Skip
		if os.Getenv("CI") != "" {
			skipOrFail = t.Fatal // CI runs every test
		}
		skipOrFail("DATABASE_URL is not set, and this test needs a PostgreSQL database. " +
			"Run it with DATABASE_URL=postgres://user@host:port/database go test ./..., " +
			"or let the script start a throwaway server: bash ../../../.ci/postgres.sh -- go test ./... (from pgstore/cmd/issuefields-postgres/)")
	}
	return dsn
}

// newDatabase creates an empty schema of its own for t in the test database,
// which it drops, with everything in it, when t ends. It returns a
// connection string whose connections work in that schema, as a new database
// of their own.
func newDatabase(t *testing.T) string {
	t.Helper()
	dsn := databaseURL(t)
	schema := fmt.Sprintf("t_%016x", rand.Uint64())
	admin(t, dsn, "CREATE SCHEMA "+schema)
	t.Cleanup(func() { admin(t, dsn, "DROP SCHEMA "+schema+" CASCADE") })
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return dsn + " search_path=" + schema // a keyword/value connection string
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// admin runs sql on a connection of its own to the database at dsn.
func admin(t *testing.T, dsn, sql string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

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

// A running is the command running in the test's process.
type running struct {
	// base is the URL of the listening line, with a trailing slash.
	base string
	// message is the start-up message after the listening line.
	message string
	logs    *lockedBuffer
	// stdout is what the command prints.
	stdout io.Reader
	// stop stops the server gracefully and returns Run's error.
	stop func() error
}

var listeningLine = regexp.MustCompile(`^listening on (http://127\.0\.0\.1:[1-9][0-9]*/)$`)

// stopLine is the last line of the start-up message.
const stopLine = "Stop the server with Ctrl-C."

// start runs the command on a free port with the further command line args,
// and returns once it has printed its start-up message. The test stops it
// when it ends, if it has not stopped it before.
func start(t *testing.T, args ...string) *running {
	t.Helper()
	r := launch(t, args...)
	r.await(t)
	return r
}

// launch runs the command as start does, and returns at once.
func launch(t *testing.T, args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, printed := io.Pipe()
	r := &running{logs: new(lockedBuffer), stdout: stdout}
	done := make(chan error, 1)
	go func() {
		err := command().Run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), printed, r.logs)
		printed.Close()
		done <- err
	}()
	var once sync.Once
	var runErr error
	r.stop = func() error {
		once.Do(func() {
			cancel()
			go io.Copy(io.Discard, stdout)
			runErr = <-done
		})
		return runErr
	}
	t.Cleanup(func() {
		if err := r.stop(); err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return r
}

// await reads the listening line and the start-up message of a launched
// command.
func (r *running) await(t *testing.T) {
	t.Helper()
	lines := bufio.NewScanner(r.stdout)
	if !lines.Scan() {
		t.Fatalf("Run printed nothing; it returned %v\nits log:\n%s", r.stop(), r.logs)
	}
	m := listeningLine.FindStringSubmatch(lines.Text())
	if m == nil {
		t.Fatalf("first line %q, want %q", lines.Text(), "listening on http://127.0.0.1:PORT/")
	}
	r.base = m[1]
	var message []string
	for lines.Scan() {
		message = append(message, lines.Text())
		if lines.Text() == stopLine {
			r.message = strings.Join(message, "\n")
			return
		}
	}
	t.Fatalf("the start-up message does not end with %q: %q", stopLine, message)
}

// do makes a request with token to the server and returns the response's
// status and body.
func do(t *testing.T, method, url, token, body string) (int, string) {
	t.Helper()
	status, b, _ := exchange(t, method, url, token, body, nil)
	return status, b
}

// client makes the tests' requests, each of which the server answers in
// far less than its time bound.
var client = &http.Client{Timeout: time.Minute}

// exchange makes a request with token and the further headers header to the
// server, and returns the response's status, body and headers.
func exchange(t *testing.T, method, url, token, body string, header http.Header) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for name, values := range header {
		req.Header[name] = values
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b), resp.Header
}

// valuesURL returns the URL of the values of issue number of repo, "owner/name".
func valuesURL(r *running, repo string, number int) string {
	return fmt.Sprintf("%srepos/%s/issues/%d/issue-field-values", r.base, repo, number)
}

// TestLoadsAnEmptyDatabaseOnce starts the command twice on one database: the
// first start loads the demo data into the empty database, the second serves
// what the database holds, the first server's write included.
func TestLoadsAnEmptyDatabaseOnce(t *testing.T) {
	dsn := newDatabase(t)

	first := start(t, "-postgres", dsn)
	if want := "The store was empty: loaded the built-in demo data into it"; !strings.Contains(first.message, want) {
		t.Errorf("the first start-up message does not say %q:\n%s", want, first.message)
	}
	status, body := do(t, http.MethodGet, valuesURL(first, "octo-org/hello-world", 1), "demo-reader-token", "")
	if status != http.StatusOK || strings.Count(body, `"issue_field_id"`) != 5 {
		t.Errorf("GET octo-org/hello-world#1 = %d %s, want 200 with the demo data's five values", status, body)
	}
	roadmap2 := valuesURL(first, "octo-org/roadmap", 2)
	status, body = do(t, http.MethodPost, roadmap2, "demo-writer-token", `{"issue_field_values": [{"field_id": 4, "value": "Written before the restart"}]}`)
	if status != http.StatusOK || !strings.Contains(body, `"value":"Written before the restart"`) {
		t.Errorf("POST octo-org/roadmap#2 = %d %s, want 200 with the new value", status, body)
	}
	if err := first.stop(); err != nil {
		t.Fatalf("the first server's graceful stop: %v", err)
	}
	if logs := first.logs.String(); !strings.Contains(logs, "loaded the data file into the empty store") {
		t.Errorf("the first server did not log that it loaded the data:\n%s", logs)
	}

	// The second start takes the database from DATABASE_URL, -postgres's
	// default.
	t.Setenv("DATABASE_URL", dsn)
	second := start(t)
	if want := "The store was not empty, so the built-in demo data was not loaded: serving what the store holds"; !strings.Contains(second.message, want) {
		t.Errorf("the second start-up message does not say %q:\n%s", want, second.message)
	}
	status, body = do(t, http.MethodGet, valuesURL(second, "octo-org/roadmap", 2), "demo-reader-token", "")
	if status != http.StatusOK || strings.Count(body, `"issue_field_id"`) != 1 || !strings.Contains(body, `"value":"Written before the restart"`) {
		t.Errorf("GET octo-org/roadmap#2 after the restart = %d %s, want 200 with the value written before it", status, body)
	}
	if status, _ := do(t, http.MethodGet, valuesURL(second, "octo-org/roadmap", 2), "demo-outsider-token", ""); status != http.StatusNotFound {
		t.Errorf("GET of the private octo-org/roadmap#2 with a token that cannot see it = %d, want 404", status)
	}
	if err := second.stop(); err != nil {
		t.Fatalf("the second server's graceful stop: %v", err)
	}
	if logs := second.logs.String(); !strings.Contains(logs, "the store is not empty: serving what it holds") {
		t.Errorf("the second server did not log that it skipped loading:\n%s", logs)
	}
}

// TestServesADatabaseLoadedByAnother starts the command on a database that
// another program filled: it serves that data as it is, and the demo tokens
// hold their permissions in the repositories that the database has under the
// same names.
func TestServesADatabaseLoadedByAnother(t *testing.T) {
	dsn := newDatabase(t)
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if err := pgstore.Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	store := pgstore.New(pool)
	for _, seed := range []func() error{
		func() error { return store.AddOrganization("octo-org") },
		func() error {
			return store.AddField("octo-org", issuefields.Field{ID: 40, Name: "Owner team", DataType: issuefields.DataTypeText})
		},
		func() error { _, err := store.AddRepository("acme", "tools", false); return err },
		func() error { _, err := store.AddRepository("octo-org", "hello-world", false); return err },
		func() error { return store.AddIssue("octo-org", "hello-world", 1) },
		func() error {
			return store.SetValues("octo-org", "hello-world", 1, []issuefields.Value{{FieldID: 40, Text: "Platform"}})
		},
	} {
		if err := seed(); err != nil {
			t.Fatal(err)
		}
	}

	r := start(t, "-postgres", dsn)
	if want := "The store was not empty, so the built-in demo data was not loaded"; !strings.Contains(r.message, want) {
		t.Errorf("the start-up message does not say %q:\n%s", want, r.message)
	}
	if strings.Contains(r.message, "curl") || strings.Contains(r.message, "Issue fields of organization") {
		t.Errorf("the start-up message describes the demo data, which the store does not hold:\n%s", r.message)
	}
	hello1 := valuesURL(r, "octo-org/hello-world", 1)
	status, body := do(t, http.MethodGet, hello1, "demo-reader-token", "")
	if status != http.StatusOK || strings.Count(body, `"issue_field_id"`) != 1 || !strings.Contains(body, `"value":"Platform"`) {
		t.Errorf("GET octo-org/hello-world#1 = %d %s, want 200 with the value the other program stored", status, body)
	}
	status, body = do(t, http.MethodPost, hello1, "demo-writer-token", `{"issue_field_values": [{"field_id": 40, "value": "Docs"}]}`)
	if status != http.StatusOK || !strings.Contains(body, `"value":"Docs"`) {
		t.Errorf("POST octo-org/hello-world#1 with the demo writer's token = %d %s, want 200", status, body)
	}
	if status, _ := do(t, http.MethodGet, valuesURL(r, "octo-org/roadmap", 1), "demo-writer-token", ""); status != http.StatusNotFound {
		t.Errorf("GET octo-org/roadmap#1, a repository of the demo data only = %d, want 404", status)
	}
	if err := r.stop(); err != nil {
		t.Fatalf("graceful stop: %v", err)
	}
	logs := r.logs.String()
	for _, want := range []string{"the store is not empty: serving what it holds", "octo-org/roadmap", "octo-org/handbook"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log does not mention %q:\n%s", want, logs)
		}
	}
	if _, err := store.Snapshot(ctx, "octo-org", "roadmap", 1); !errors.Is(err, issuefields.ErrNotFound) {
		t.Errorf("after the run, Snapshot(octo-org, roadmap, 1) error = %v, want ErrNotFound: nothing was loaded", err)
	}
}

// TestServersStartingTogether starts several servers at once on a new
// database: one loads the demo data, and the others serve it, each with the
// tokens' permissions in every repository.
func TestServersStartingTogether(t *testing.T) {
	dsn := newDatabase(t)
	servers := make([]*running, 4)
	for i := range servers {
		servers[i] = launch(t, "-postgres", dsn)
	}
	loaded := 0
	for i, r := range servers {
		r.await(t)
		if strings.Contains(r.message, "The store was empty: loaded the built-in demo data") {
			loaded++
		}
		body := fmt.Sprintf(`{"issue_field_values": [{"field_id": 4, "value": "From server %d"}]}`, i)
		if status, body := do(t, http.MethodPost, valuesURL(r, "octo-org/roadmap", 2), "demo-writer-token", body); status != http.StatusOK {
			t.Errorf("server %d: POST octo-org/roadmap#2 = %d %s, want 200", i, status, body)
		}
	}
	if loaded != 1 {
		t.Errorf("%d of %d servers loaded the demo data, want 1", loaded, len(servers))
	}
}

// TestNoDatabase checks that without -postgres and DATABASE_URL the command
// says how to give a database, and does not serve.
func TestNoDatabase(t *testing.T) {
	t.Setenv("DATABASE_URL", "")
	err := command().Run(context.Background(), []string{"-addr", "127.0.0.1:0"}, io.Discard, io.Discard)
	if !errors.Is(err, errNoDatabase) {
		t.Errorf("Run without a database = %v, want %v", err, errNoDatabase)
	}
}

// TestBadConnectionString checks that a connection string that cannot be
// parsed stops the start with an error that names the flag and does not show
// the password.
func TestBadConnectionString(t *testing.T) {
	for _, dsn := range []string{
		"postgres://user:s3cret@localhost:99999/db",
		"postgres://user:s3cret@local host/db",
		"host=localhost password=s3cret port=x",
	} {
		err := command().Run(context.Background(), []string{"-addr", "127.0.0.1:0", "-postgres", dsn}, io.Discard, io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), "-postgres: ") || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Run -postgres %q = %v, want an error about -postgres without the password", dsn, err)
		}
	}
}

// TestReadyOverPostgreSQL checks that /readyz asks the database, and that
// /healthz answers beside the API.
func TestReadyOverPostgreSQL(t *testing.T) {
	r := start(t, "-postgres", newDatabase(t))
	for _, path := range []string{"healthz", "readyz"} {
		if status, body := do(t, http.MethodGet, r.base+path, "", ""); status != http.StatusOK || body != `{"status":"ok"}`+"\n" {
			t.Errorf("GET /%s = %d %q, want 200 and status ok", path, status, body)
		}
	}
	if logs := r.logs.String(); strings.Contains(logs, "not ready") {
		t.Errorf("the log says the server was not ready:\n%s", logs)
	}
}

// TestRefusedConnection checks that a database that refuses connections
// stops the start with an error that says so and where, without the
// password, rather than as a failure of the schema's migration.
func TestRefusedConnection(t *testing.T) {
	err := command().Run(context.Background(), []string{"-addr", "127.0.0.1:0", "-postgres", "postgres://alice:s3cret@127.0.0.1:1/shop"}, io.Discard, io.Discard)
	if err == nil {
		t.Fatal("Run with a database that refuses connections = nil, want an error")
	}
	msg := err.Error()
	for _, want := range []string{"cannot connect to PostgreSQL at 127.0.0.1:1", `database "shop"`, `user "alice"`, "refused"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not say %q: %s", want, msg)
		}
	}
	for _, wrong := range []string{"s3cret", "schema"} {
		if strings.Contains(msg, wrong) {
			t.Errorf("the error says %q: %s", wrong, msg)
		}
	}
}

// TestHelp checks that -h shows the command by the name it was run by,
// every flag of go run ./example and -postgres, and not the connection
// string that DATABASE_URL holds.
func TestHelp(t *testing.T) {
	t.Setenv("DATABASE_URL", "postgres://user:s3cret@localhost:5432/db")
	var out bytes.Buffer
	if err := command().Run(context.Background(), []string{"-h"}, &out, io.Discard); err != nil {
		t.Fatalf("Run(-h) = %v, want nil", err)
	}
	help := out.String()
	if !strings.HasPrefix(help, "Usage: "+filepath.Base(os.Args[0])+" [flags]\n") || !strings.Contains(help, "(default $DATABASE_URL)") {
		t.Errorf("help does not begin with the command's usage or does not name DATABASE_URL:\n%s", help)
	}
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z-]+)`).FindAllStringSubmatch(help, -1) {
		names = append(names, m[1])
	}
	for _, want := range []string{"addr", "allow-reset", "data", "log-format", "log-level", "postgres", "prefix", "vendor", "webhook", "webhook-secret", "write-limit", "write-limit-hourly"} {
		if !slices.Contains(names, want) {
			t.Errorf("the help lists the flags %q, without -%s", names, want)
		}
	}
	if strings.Contains(help, "s3cret") {
		t.Errorf("help shows DATABASE_URL's password:\n%s", help)
	}
}
