package pgstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/issuefields/issuefields"
	"github.com/jackc/pgx/v5/pgconn"
)

// wrap returns err, an error of the database or of the connection to it,
// prefixed with what the store was doing. It wraps
// [issuefields.ErrUnavailable] too when err says that the database cannot
// serve now but may later, so that the handler answers 503 instead of 500.
func wrap(what string, err error) error {
	if unavailable(err) {
		return fmt.Errorf("pgstore: %s: %w: %w", what, issuefields.ErrUnavailable, err)
	}
	return fmt.Errorf("pgstore: %s: %w", what, err)
}

// unavailable reports whether err says that the database is down, out of
// reach, starting, stopping, overloaded or failed over: a condition of the
// server, not of the request, that a later attempt may find gone. An error
// that the database reports counts by its SQLSTATE; any other error counts
// when it comes from connecting, from the connection breaking, or from a
// deadline, such as the one of a pool's acquire.
func unavailable(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return unavailableState(pgErr.Code)
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connectErr) ||
		errors.As(err, &netErr) ||
		errors.Is(err, pgconn.ErrConnClosed) ||
		errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, context.DeadlineExceeded) ||
		pgconn.Timeout(err)
}

// unavailableState reports whether the SQLSTATE code names such a condition.
func unavailableState(code string) bool {
	switch code {
	case "57P01", // admin_shutdown: the server is stopping or the backend was terminated
		"57P02", // crash_shutdown
		"57P03", // cannot_connect_now: the server is starting or recovering
		"57014", // query_canceled, by statement_timeout
		"55P03", // lock_not_available, by lock_timeout
		"40001", // serialization_failure
		"40P01", // deadlock_detected
		"25006": // read_only_sql_transaction: connected to a standby after a failover
		return true
	}
	// Class 08 is connection exceptions, class 53 insufficient resources
	// (too many connections, out of memory, disk full).
	return strings.HasPrefix(code, "08") || strings.HasPrefix(code, "53")
}
