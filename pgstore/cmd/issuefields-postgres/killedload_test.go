package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// asCommand is the environment variable that makes the test binary run as
// the command, so that a test can kill a server process.
const asCommand = "ISSUEFIELDS_POSTGRES_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(asCommand) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// TestAFirstLoadKilledHalfWay kills (SIGKILL) a server while it loads a data
// file into an empty database, once it has begun adding the file's issues:
// the database is left empty, and the next start loads the whole file and
// serves it.
func TestAFirstLoadKilledHalfWay(t *testing.T) {
	const issues = 2000
	dsn := newDatabase(t)
	file := writeDataFile(t, issues)
	cmd := exec.Command(os.Args[0], "-addr", "127.0.0.1:0", "-postgres", dsn, "-data", file)
	cmd.Env = append(os.Environ(), asCommand+"=1")
	logs, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := bufio.NewScanner(logs)
	ready := false
	for !ready && lines.Scan() {
		ready = strings.Contains(lines.Text(), "database ready")
	}
	if !ready {
		t.Fatalf("the server stopped before its database was ready: %v", cmd.Wait())
	}
	go io.Copy(io.Discard, logs)

	// The load has begun adding issues once some are committed, or once
	// another connection has written to the table in a transaction not yet
	// committed.
	awaitDatabase(t, dsn, nil, `SELECT EXISTS (SELECT FROM issues) OR EXISTS (SELECT FROM pg_locks
		WHERE relation = 'issues'::regclass AND mode = 'RowExclusiveLock' AND pid <> pg_backend_pid())`)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	ctx, conn := openConn(t, dsn)
	var accounts, repositories, loaded int
	err = conn.QueryRow(ctx, `SELECT (SELECT count(*) FROM accounts), (SELECT count(*) FROM repositories), (SELECT count(*) FROM issues)`).
		Scan(&accounts, &repositories, &loaded)
	if err != nil {
		t.Fatal(err)
	}
	if accounts+repositories+loaded != 0 {
		t.Errorf("after the kill, the database holds %d accounts, %d repositories and %d of the %d issues, want nothing",
			accounts, repositories, loaded, issues)
	}
	r := start(t, "-postgres", dsn, "-data", file)
	if want := "The store was empty: loaded"; !strings.Contains(r.message, want) {
		t.Errorf("the start after the kill does not say %q:\n%s", want, r.message)
	}
	for _, n := range []int{1, issues} {
		if status, body := do(t, http.MethodGet, valuesURL(r, "octo-org/many", n), "many-token", ""); status != http.StatusOK {
			t.Errorf("after the start that followed the kill, GET octo-org/many#%d = %d %s, want 200", n, status, body)
		}
	}
}
