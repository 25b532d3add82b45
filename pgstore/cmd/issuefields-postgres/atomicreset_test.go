package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// writeDataFile writes a data file with the organization octo-org and its
// text fields "Notes" (1) and "Owner" (2), the public repository
// octo-org/many with issues 1 to issues, each with a note, and the token
// many-token, which may write values, fields and hooks there, and returns
// its name.
func writeDataFile(t *testing.T, issues int) string {
	t.Helper()
	type value struct {
		FieldID int64  `json:"field_id"`
		Value   string `json:"value"`
	}
	type issue struct {
		Number int     `json:"number"`
		Values []value `json:"values"`
	}
	list := make([]issue, issues)
	for i := range list {
		list[i] = issue{Number: i + 1, Values: []value{{FieldID: 1, Value: fmt.Sprintf("Note of issue %d", i+1)}}}
	}
	data := map[string]any{
		"organizations": []any{map[string]any{"login": "octo-org", "fields": []any{
			map[string]any{"id": 1, "name": "Notes", "data_type": "text"},
			map[string]any{"id": 2, "name": "Owner", "data_type": "text"},
		}}},
		"repositories": []any{map[string]any{"owner": "octo-org", "name": "many", "private": false, "issues": list}},
		"tokens": []any{map[string]any{"token": "many-token", "kind": "fine_grained_pat", "login": "octocat",
			"repositories":  map[string]any{"octo-org/many": map[string]any{"issues": "write", "push": true}},
			"organizations": map[string]any{"octo-org": map[string]any{"organization_hooks": "write", "issue_fields": "write"}}}},
	}
	b, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "many.json")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// manyState returns what r serves of the state of writeDataFile's file: the
// values of its first and last issue, octo-org's fields, and where its
// hooks deliver.
func manyState(t *testing.T, r *running, issues int) string {
	t.Helper()
	var parts []string
	for _, url := range []string{valuesURL(r, "octo-org/many", 1), valuesURL(r, "octo-org/many", issues), r.base + "orgs/octo-org/issue-fields"} {
		status, body := do(t, http.MethodGet, url, "many-token", "")
		parts = append(parts, fmt.Sprintf("GET %s: %d %s", strings.TrimPrefix(url, r.base), status, body))
	}
	status, body := do(t, http.MethodGet, r.base+"orgs/octo-org/hooks", "many-token", "")
	var hooks []struct {
		Config struct {
			URL string `json:"url"`
		} `json:"config"`
	}
	if err := json.Unmarshal([]byte(body), &hooks); status != http.StatusOK || err != nil {
		t.Fatalf("GET orgs/octo-org/hooks = %d %s", status, body)
	}
	for _, h := range hooks {
		parts = append(parts, "hook to "+h.Config.URL)
	}
	return strings.Join(parts, "\n")
}

// TestResetIsOneStepAcrossServers resets two servers that share a
// database, through each of them at once, while values, fields and hooks are
// written through both and the last issue of the data file is read through
// both: no request and no reset answers a 5xx, every read finds the issue,
// and after the last reset both servers serve the state they started with.
func TestResetIsOneStepAcrossServers(t *testing.T) {
	const issues = 300
	dsn := newDatabase(t)
	args := []string{"-postgres", dsn, "-allow-reset", "-data", writeDataFile(t, issues), "-webhook", "http://127.0.0.1:1/hook",
		"-webhook-secret", "s", "-write-limit", "0", "-write-limit-hourly", "0"}
	servers := []*running{start(t, args...), start(t, args...)}
	started := manyState(t, servers[0], issues)

	stop := make(chan struct{})
	var writers sync.WaitGroup
	for i, r := range servers {
		for j, req := range []struct{ method, url, body string }{
			{http.MethodPost, valuesURL(r, "octo-org/many", 7), `{"issue_field_values": [{"field_id": 2, "value": "written"}]}`},
			{http.MethodPost, r.base + "orgs/octo-org/issue-fields", `{"name": "Extra %d", "data_type": "text"}`},
			{http.MethodPost, r.base + "orgs/octo-org/hooks", `{"name": "web", "events": ["issues"], "config": {"url": "http://127.0.0.1:1/other", "content_type": "json"}}`},
			{http.MethodGet, valuesURL(r, "octo-org/many", issues), ""},
		} {
			writers.Go(func() {
				for n := 0; ; n++ {
					select {
					case <-stop:
						return
					default:
					}
					body := strings.ReplaceAll(req.body, "%d", fmt.Sprintf("%d-%d-%d", i, j, n))
					status, answer := do(t, req.method, req.url, "many-token", body)
					if status >= 500 || req.method == http.MethodGet && status != http.StatusOK {
						t.Errorf("server %d: %s %s during resets = %d %s", i+1, req.method, strings.TrimPrefix(req.url, r.base), status, answer)
						return
					}
				}
			})
		}
	}
	var resets sync.WaitGroup
	for i, r := range servers {
		resets.Go(func() {
			for range 4 {
				if status, body := do(t, http.MethodPost, r.base+"_issuefields/reset", "", ""); status != http.StatusNoContent {
					t.Errorf("POST /_issuefields/reset to server %d during writes = %d %s, want 204", i+1, status, body)
				}
			}
		})
	}
	resets.Wait()
	close(stop)
	writers.Wait()

	if status, body := do(t, http.MethodPost, servers[1].base+"_issuefields/reset", "", ""); status != http.StatusNoContent {
		t.Fatalf("the last POST /_issuefields/reset = %d %s, want 204", status, body)
	}
	for i, r := range servers {
		if after := manyState(t, r, issues); after != started {
			t.Errorf("after the last reset, server %d serves\n%s\nwant the state it started with:\n%s", i+1, after, started)
		}
	}
}

// awaitDatabase asks the database at dsn the question query, whose answer
// is true or false, until it answers true or done is closed; a nil done is
// never closed. Each wait for an answer is bounded.
func awaitDatabase(t *testing.T, dsn string, done <-chan struct{}, query string, args ...any) {
	t.Helper()
	ctx, conn := openConn(t, dsn)
	for {
		var yes bool
		if err := conn.QueryRow(ctx, query, args...).Scan(&yes); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		select {
		case <-done:
			return
		default:
		}
		if yes {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// openConn opens a connection of its own to the database at dsn, which t's
// end closes, and returns it with the context of its use, which ends a
// minute later.
func openConn(t *testing.T, dsn string) (context.Context, *pgx.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return ctx, conn
}

// loadLockHeld asks whether a server holds the load lock, as a reset does
// while it empties and loads the database.
const loadLockHeld = `SELECT EXISTS (SELECT FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND granted)`

// TestAWriteRacingAResetThroughAnotherServer writes a value through one
// server while another one that shares the database resets, many times,
// once the reset holds the load lock: the write's answer shows either the
// state before the reset, and then the reset took the write away, or the
// state after it, and then the issue keeps the write.
func TestAWriteRacingAResetThroughAnotherServer(t *testing.T) {
	const issues = 300
	dsn := newDatabase(t)
	args := []string{"-postgres", dsn, "-allow-reset", "-data", writeDataFile(t, issues), "-write-limit", "0", "-write-limit-hourly", "0"}
	resetter, writer := start(t, args...), start(t, args...)
	issue := valuesURL(writer, "octo-org/many", issues)
	_, fresh := do(t, http.MethodGet, issue, "many-token", "")
	for i := range 8 {
		if status, body := do(t, http.MethodPost, issue, "many-token", `{"issue_field_values": [{"field_id": 2, "value": "before the reset"}]}`); status != http.StatusOK {
			t.Fatalf("POST = %d %s", status, body)
		}
		racing := fmt.Sprintf("racing %d", i)
		reset := make(chan struct{})
		go func() {
			defer close(reset)
			if status, body := do(t, http.MethodPost, resetter.base+"_issuefields/reset", "", ""); status != http.StatusNoContent {
				t.Errorf("POST /_issuefields/reset = %d %s, want 204", status, body)
			}
		}()
		awaitDatabase(t, dsn, reset, loadLockHeld, uint32(loadLockClass))
		status, written := do(t, http.MethodPost, issue, "many-token", `{"issue_field_values": [{"field_id": 1, "value": "`+racing+`"}]}`)
		<-reset
		_, after := do(t, http.MethodGet, issue, "many-token", "")
		switch {
		case status != http.StatusOK || !strings.Contains(written, racing):
			t.Fatalf("trial %d: the write during the reset = %d %s, want 200 with its value", i, status, written)
		case strings.Contains(written, "before the reset"):
			if after != fresh {
				t.Errorf("trial %d: the write landed before the reset (%s), but after it the issue holds %s, want %s", i, written, after, fresh)
			}
		case after != written || strings.Contains(after, "Note of issue"):
			t.Errorf("trial %d: the write landed after the reset (%s), but the issue holds %s, want the data file's issue with the write", i, written, after)
		}
	}
}
