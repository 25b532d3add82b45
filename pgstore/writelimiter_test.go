package pgstore_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/issuefields/issuefields/storetest"
)

// patientTimeout is the store Timeout of the limiters that must not fall
// back: their writes wait for the database a twentieth of it, a second,
// longer than a loaded machine that runs the tests under the race detector
// takes to answer.
const patientTimeout = 20 * time.Second

// writerKey is the key that the handler gives the limiter for writer.
var writerKey = string(writer.Kind) + ":" + writer.Login

// quietLog returns the log of a limiter that must never fall back: it fails
// t with every line.
func quietLog(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(failWriter{t}, nil))
}

// A failWriter fails its test with every line written to it.
type failWriter struct{ t testing.TB }

func (w failWriter) Write(p []byte) (int, error) {
	w.t.Errorf("the limiter logged: %s", p)
	return len(p), nil
}

func TestWriteLimiterConformance(t *testing.T) {
	databaseURL(t)
	storetest.RunWriteLimiter(t, func(t *testing.T, limits issuefields.WriteLimits) issuefields.WriteLimiter {
		_, pool := newStore(t)
		l := pgstore.New(pool, pgstore.Timeout(patientTimeout)).WriteLimiter(limits, quietLog(t))
		t.Cleanup(l.Close)
		return l
	})
}

// newLimitedHandler returns a handler over s, as newHandler does, that
// limits writes with l.
func newLimitedHandler(t testing.TB, s issuefields.Store, l issuefields.WriteLimiter) *issuefields.Handler {
	t.Helper()
	h, err := issuefields.New(issuefields.Config{
		Store: s,
		Verifier: issuefields.TokenVerifierFunc(func(context.Context, string) (*issuefields.Principal, error) {
			return writer, nil
		}),
		WriteLimiter: l,
		Logger:       slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}
