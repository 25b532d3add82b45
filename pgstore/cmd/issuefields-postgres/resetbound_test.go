package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestResetWithinTheLoadLocksBound holds the load lock on a connection of
// the test's own, as another server's reset or first load would, and
// resets through a server started with -store-timeout 500ms: the reset
// answers 503 with Retry-After once the lock's bound, twelve times the
// timeout, has passed, says so, and changes nothing. Once the lock is free,
// the next reset restores the demo data.
func TestResetWithinTheLoadLocksBound(t *testing.T) {
	dsn := newDatabase(t)
	r := start(t, "-postgres", dsn, "-allow-reset", "-store-timeout", "500ms")
	hello1 := valuesURL(r, "octo-org/hello-world", 1)
	_, loaded, _ := get(t, hello1, "demo-reader-token", "")
	write := `{"issue_field_values": [{"field_id": 4, "value": "Written before the reset"}]}`
	if status, body := do(t, http.MethodPost, hello1, "demo-writer-token", write); status != http.StatusOK {
		t.Fatalf("POST octo-org/hello-world#1 = %d %s", status, body)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	other, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	const key = `$1, hashtext(coalesce(current_schema(), ''))`
	if _, err := other.Exec(ctx, `SELECT pg_advisory_lock(`+key+`)`, loadLockClass); err != nil {
		t.Fatal(err)
	}

	status, body, header := exchange(t, http.MethodPost, r.base+"_issuefields/reset", "", "", nil)
	if status != http.StatusServiceUnavailable || header.Get("Retry-After") == "" ||
		!strings.Contains(body, "load lock") || !strings.Contains(body, "not done within 6s (12 times -store-timeout)") {
		t.Errorf("POST /_issuefields/reset while another server holds the load lock = %d %s with Retry-After %q, "+
			"want 503 with Retry-After, saying that the lock was not free within 6s", status, body, header.Get("Retry-After"))
	}
	if _, body, _ := get(t, hello1, "demo-reader-token", ""); !strings.Contains(body, "Written before the reset") {
		t.Errorf("after a reset that did not get the lock, GET octo-org/hello-world#1 = %s, want the write kept", body)
	}

	if _, err := other.Exec(ctx, `SELECT pg_advisory_unlock(`+key+`)`, loadLockClass); err != nil {
		t.Fatal(err)
	}
	if status, body := do(t, http.MethodPost, r.base+"_issuefields/reset", "", ""); status != http.StatusNoContent {
		t.Fatalf("POST /_issuefields/reset once the lock is free = %d %s, want 204", status, body)
	}
	if _, body, _ := get(t, hello1, "demo-reader-token", ""); body != loaded {
		t.Errorf("after the reset, GET octo-org/hello-world#1 = %s, want the demo data's %s", body, loaded)
	}
}
