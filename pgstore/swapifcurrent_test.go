package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/jackc/pgx/v5/pgxpool"
)

// TestSwapIfCurrentSeesEveryChange keeps a snapshot of issue 1 of
// octo-org/hello-world in a store, changes the database elsewhere, through
// the seed methods of another store or by hand in SQL as an operator would,
// and writes from the kept snapshot: the write must be refused, and change
// nothing, after every change to what the snapshot shows, and must be stored
// after changes to something else.
func TestSwapIfCurrentSeesEveryChange(t *testing.T) {
	tests := []struct {
		name string
		// elsewhere changes the database through other or in SQL on pool.
		elsewhere func(t *testing.T, other *pgstore.Store, pool *pgxpool.Pool)
		// stale is whether the change makes the kept snapshot stale.
		stale bool
	}{
		{"nothing", func(*testing.T, *pgstore.Store, *pgxpool.Pool) {}, false},
		{"another issue of the repository written", func(t *testing.T, other *pgstore.Store, _ *pgxpool.Pool) {
			must(t, other.SetValues("octo-org", "hello-world", 2, []issuefields.Value{{FieldID: 1, Text: "other"}}))
		}, false},
		{"the fields of another organization changed", func(t *testing.T, other *pgstore.Store, _ *pgxpool.Pool) {
			must(t, other.AddField("other-org", issuefields.Field{ID: 2, Name: "Second", DataType: issuefields.Text}))
		}, false},
		{"a repository of another account renamed and its name taken over", func(t *testing.T, other *pgstore.Store, _ *pgxpool.Pool) {
			must(t, other.RenameRepository("other-org", "elsewhere", "renamed"))
			_, err := other.AddRepository("other-org", "elsewhere", false)
			must(t, err)
		}, false},

		{"the issue written", func(t *testing.T, other *pgstore.Store, _ *pgxpool.Pool) {
			must(t, other.SetValues("octo-org", "hello-world", 1, []issuefields.Value{{FieldID: 2, Text: "other"}}))
		}, true},
		{"the issue deleted", func(t *testing.T, other *pgstore.Store, _ *pgxpool.Pool) {
			must(t, other.DeleteIssue("octo-org", "hello-world", 1))
		}, true},
		{"the issue transferred", func(t *testing.T, other *pgstore.Store, _ *pgxpool.Pool) {
			must(t, other.TransferIssue("octo-org", "hello-world", 1, "other-org", "elsewhere", 1))
		}, true},
		{"the repository renamed", func(t *testing.T, other *pgstore.Store, _ *pgxpool.Pool) {
			must(t, other.RenameRepository("octo-org", "hello-world", "renamed"))
		}, true},
		{"the repository renamed and its name taken over", func(t *testing.T, other *pgstore.Store, _ *pgxpool.Pool) {
			must(t, other.RenameRepository("octo-org", "hello-world", "renamed"))
			_, err := other.AddRepository("octo-org", "hello-world", false)
			must(t, err)
			must(t, other.AddIssue("octo-org", "hello-world", 1))
		}, true},
		{"the repository transferred", func(t *testing.T, other *pgstore.Store, _ *pgxpool.Pool) {
			must(t, other.TransferRepository("octo-org", "hello-world", "other-org"))
		}, true},
		{"the repository made private", sqlElsewhere(`UPDATE repositories SET private = true WHERE name = 'hello-world'`), true},
		{"the repository's name respelt", sqlElsewhere(`UPDATE repositories SET name = 'Hello-World' WHERE name = 'hello-world'`), true},
		{"the name pointed at another owner's repository", sqlElsewhere(`
			UPDATE repository_names SET repository_id = (SELECT id FROM repositories WHERE name = 'elsewhere')
			WHERE owner_key = 'octo-org' AND name_key = 'hello-world'`), true},
		{"the name removed", sqlElsewhere(`
			DELETE FROM repository_names WHERE owner_key = 'octo-org' AND name_key = 'hello-world'`), true},
		{"every name removed", sqlElsewhere(`TRUNCATE repository_names`), true},
		{"the owner's login respelt", sqlElsewhere(`UPDATE accounts SET login = 'Octo-Org' WHERE login = 'octo-org'`), true},
		{"the owner made a user", sqlElsewhere(`UPDATE accounts SET organization = false WHERE login = 'octo-org'`), true},
		{"a field renamed", func(t *testing.T, other *pgstore.Store, _ *pgxpool.Pool) {
			changeFields(t, other, func(fields []issuefields.Field) []issuefields.Field {
				fields[1].Name = "Renamed elsewhere"
				return fields
			})
		}, true},
		{"a field added", func(t *testing.T, other *pgstore.Store, _ *pgxpool.Pool) {
			must(t, other.AddField("octo-org", issuefields.Field{ID: 3, Name: "Third", DataType: issuefields.Text}))
		}, true},
		{"a field's description changed by hand", sqlElsewhere(`
			UPDATE fields SET description = 'by hand'
			WHERE id = 1 AND account_id = (SELECT id FROM accounts WHERE login = 'octo-org')`), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			cfg, other := newBoundedStore(t, 2, 2)
			must(t, other.AddOrganization("other-org"))
			must(t, other.AddField("other-org", issuefields.Field{ID: 1, Name: "First", DataType: issuefields.Text}))
			_, err := other.AddRepository("other-org", "elsewhere", false)
			must(t, err)
			s := openStore(t, cfg)
			if _, err := s.Snapshot(ctx, "octo-org", "hello-world", 1); err != nil {
				t.Fatal(err)
			}
			_, check, ok := s.KeptSnapshot("octo-org", "hello-world", 1)
			if !ok {
				t.Fatal("the store keeps no snapshot of the issue it read")
			}

			tt.elsewhere(t, other, newPool(t, cfg.Copy()))
			stored := func() string {
				values, version, err := other.Values(ctx, issuefields.IssueKey{RepositoryID: 1, Number: 1})
				return fmt.Sprintf("values %v at version %q (error %v)", values, version, err)
			}
			before := stored()
			version, err := s.SwapIfCurrent(ctx, check, []issuefields.Value{{FieldID: 1, Text: "mine"}})
			after := stored()
			switch {
			case tt.stale && !errors.Is(err, issuefields.ErrVersionConflict):
				t.Errorf("SwapIfCurrent after %s = %v, want ErrVersionConflict", tt.name, err)
			case tt.stale && after != before:
				t.Errorf("SwapIfCurrent after %s changed the issue from %s to %s", tt.name, before, after)
			case !tt.stale && err != nil:
				t.Errorf("SwapIfCurrent after %s = %v, want it stored", tt.name, err)
			case !tt.stale && after != fmt.Sprintf("values %v at version %q (error %v)", []issuefields.Value{{FieldID: 1, Text: "mine"}}, version, nil):
				t.Errorf("after SwapIfCurrent, the issue holds %s, want the value written at version %q", after, version)
			}
		})
	}
}

// sqlElsewhere returns an elsewhere of TestSwapIfCurrentSeesEveryChange that
// runs sql on the pool, as an operator would by hand; an UPDATE or a DELETE
// must change one row.
func sqlElsewhere(sql string) func(*testing.T, *pgstore.Store, *pgxpool.Pool) {
	return func(t *testing.T, _ *pgstore.Store, pool *pgxpool.Pool) {
		tag, err := pool.Exec(context.Background(), sql)
		if err != nil {
			t.Fatal(err)
		}
		if (tag.Update() || tag.Delete()) && tag.RowsAffected() != 1 {
			t.Fatalf("%s changed %d rows, want 1", sql, tag.RowsAffected())
		}
	}
}

// must fails t at once when err is not nil.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestSwapIfCurrentSeesANameChangedDuringATransfer checks a change of a name
// made by hand while a transfer of its repository, also by hand, is not yet
// committed: the name's trigger must bump the owner that the transfer
// commits, not the one it read before the transfer's row lock let it go. A
// snapshot taken between the two commits shows the new owner, and a write
// from it must fail once the name is gone.
func TestSwapIfCurrentSeesANameChangedDuringATransfer(t *testing.T) {
	ctx := context.Background()
	cfg, other := newBoundedStore(t, 2, 2)
	must(t, other.AddOrganization("new-owner"))
	pool := newPool(t, cfg.Copy())

	transfer, err := pool.Begin(ctx)
	must(t, err)
	defer transfer.Rollback(ctx)
	_, err = transfer.Exec(ctx, `UPDATE repositories SET owner_id = (SELECT id FROM accounts WHERE login_key = 'new-owner') WHERE id = 1`)
	must(t, err)

	rename, err := pool.Begin(ctx)
	must(t, err)
	defer rename.Rollback(ctx)
	deleted := make(chan error, 1)
	go func() {
		_, err := rename.Exec(ctx, `DELETE FROM repository_names WHERE owner_key = 'octo-org' AND name_key = 'hello-world'`)
		deleted <- err
	}()
	waitForLockWait(t, pool)
	must(t, transfer.Commit(ctx))
	must(t, <-deleted)

	s := openStore(t, cfg)
	if _, err := s.Snapshot(ctx, "octo-org", "hello-world", 1); err != nil {
		t.Fatalf("Snapshot after the transfer, before the name is removed: %v", err)
	}
	_, check, ok := s.KeptSnapshot("octo-org", "hello-world", 1)
	if !ok {
		t.Fatal("the store keeps no snapshot of the issue it read")
	}
	must(t, rename.Commit(ctx))

	if _, err := s.SwapIfCurrent(ctx, check, []issuefields.Value{{FieldID: 1, Text: "mine"}}); !errors.Is(err, issuefields.ErrVersionConflict) {
		t.Errorf("SwapIfCurrent once the name is gone = %v, want ErrVersionConflict", err)
	}
	if _, err := other.Snapshot(ctx, "octo-org", "hello-world", 1); !errors.Is(err, issuefields.ErrNotFound) {
		t.Errorf("Snapshot of the removed name = %v, want ErrNotFound", err)
	}
}

// waitForLockWait waits until a statement of the database waits for a lock,
// for at most 10 seconds.
func waitForLockWait(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		var waiting int
		err := pool.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting)
		must(t, err)
		if waiting > 0 {
			return
		}
	}
	t.Fatal("no statement waited for a lock within 10 s")
}
