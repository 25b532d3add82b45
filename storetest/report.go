package storetest

import (
	"fmt"
	"runtime"
	"sync"
)

// A reporter receives the failures of a case: the case's *testing.T under
// Run, a recorder under TestStore.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// A recorder is the reporter of a case that TestStore runs. It is safe for
// concurrent use.
type recorder struct {
	mu   sync.Mutex
	msgs []string
}

// Helper does nothing; it makes a recorder a reporter.
func (r *recorder) Helper() {}

// Errorf records a failure.
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

// Fatalf records a failure and ends the case: like [testing.T.FailNow], it
// must be called from the case's own goroutine.
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}
