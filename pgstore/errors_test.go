package pgstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/jackc/pgx/v5/pgconn"
)

func TestWrapTellsUnavailableFromFaults(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Nothing listens on port 1; connecting there fails at once.
	_, refused := pgconn.Connect(ctx, "postgres://nobody@127.0.0.1:1/db?connect_timeout=5")
	var connectErr *pgconn.ConnectError
	if !errors.As(refused, &connectErr) {
		t.Fatalf("connecting to a closed port gave %T %v, want a *pgconn.ConnectError", refused, refused)
	}
	tests := []struct {
		err         error
		unavailable bool
	}{
		{refused, true},
		{&pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}, true},
		{&pgconn.PgError{Code: "57P02"}, true},
		{&pgconn.PgError{Code: "57P03", Message: "the database system is starting up"}, true},
		{&pgconn.PgError{Code: "08006"}, true},
		{&pgconn.PgError{Code: "08001"}, true},
		{&pgconn.PgError{Code: "53300", Message: "sorry, too many clients already"}, true},
		{&pgconn.PgError{Code: "57014", Message: "canceling statement due to statement timeout"}, true},
		{&pgconn.PgError{Code: "55P03"}, true},
		{&pgconn.PgError{Code: "40001"}, true},
		{&pgconn.PgError{Code: "40P01"}, true},
		{&pgconn.PgError{Code: "25006"}, true},
		{fmt.Errorf("read: %w", &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}), true},
		{fmt.Errorf("receive message: %w", io.ErrUnexpectedEOF), true},
		{fmt.Errorf("receive message: %w", io.EOF), true},
		{fmt.Errorf("acquire: %w", context.DeadlineExceeded), true},
		{fmt.Errorf("query: %w", pgconn.ErrConnClosed), true},
		{&pgconn.PgError{Code: "23505", Message: "duplicate key value violates unique constraint"}, false},
		{&pgconn.PgError{Code: "42P01", Message: `relation "issues" does not exist`}, false},
		{&pgconn.PgError{Code: "28P01", Message: "password authentication failed"}, false},
		{&pgconn.PgError{Code: "22P02"}, false},
		{context.Canceled, false},
		{errors.New("cannot encode"), false},
	}
	for _, tt := range tests {
		err := wrap("read the values of issue 1 of repository 1", tt.err)
		if got := errors.Is(err, issuefields.ErrUnavailable); got != tt.unavailable {
			t.Errorf("wrap(%v) wraps ErrUnavailable: %t, want %t", tt.err, got, tt.unavailable)
		}
		if !errors.Is(err, tt.err) {
			t.Errorf("wrap(%v) = %v, which does not wrap the cause", tt.err, err)
		}
		if errors.Is(err, issuefields.ErrNotFound) || errors.Is(err, issuefields.ErrIssueDeleted) {
			t.Errorf("wrap(%v) = %v, which wraps another sentinel", tt.err, err)
		}
	}
}
