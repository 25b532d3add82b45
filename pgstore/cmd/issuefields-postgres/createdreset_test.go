package main

import (
	"context"
	"net/http"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/jackc/pgx/v5/pgxpool"
)

// TestResetRestoresCreatedIssues creates an issue in the database that a
// server with -allow-reset serves: after the reset it is gone, and the next
// create gets the number and the ID that the first create after start got,
// as the reset restarts the number counters and the issue IDs.
func TestResetRestoresCreatedIssues(t *testing.T) {
	dsn := newDatabase(t)
	r := start(t, "-postgres", dsn, "-allow-reset")
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	store := pgstore.New(pool)
	create := func() issuefields.Issue {
		t.Helper()
		snap, err := store.Snapshot(ctx, "octo-org", "hello-world", 0)
		if err != nil {
			t.Fatal(err)
		}
		created, err := store.CreateIssue(ctx, snap, issuefields.Issue{Title: "Created", State: "open"})
		if err != nil {
			t.Fatal(err)
		}
		return created
	}
	first := create()
	if status, body := do(t, http.MethodGet, valuesURL(r, "octo-org/hello-world", int(first.Number)), "demo-reader-token", ""); status != http.StatusOK {
		t.Fatalf("the values of the created issue %d = %d %s, want 200", first.Number, status, body)
	}
	if status, body := do(t, http.MethodPost, r.base+"_issuefields/reset", "", ""); status != http.StatusNoContent {
		t.Fatalf("POST /_issuefields/reset = %d %s, want 204", status, body)
	}
	if status, body := do(t, http.MethodGet, valuesURL(r, "octo-org/hello-world", int(first.Number)), "demo-reader-token", ""); status != http.StatusNotFound {
		t.Errorf("after the reset, the values of the created issue %d = %d %s, want 404", first.Number, status, body)
	}
	if again := create(); again.Number != first.Number || again.ID != first.ID {
		t.Errorf("after the reset, a create got number %d and ID %d; want %d and %d, those of the first create after start",
			again.Number, again.ID, first.Number, first.ID)
	}
}
