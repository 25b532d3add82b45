// Package conformance runs the cases of the conformance suites (storetest's
// and webhooktest's): each case as a subtest of a testing.T, or without one,
// recording its failures, so that a suite can itself be tested against
// implementations that are broken on purpose.
package conformance

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// A Reporter receives the failures of a case: the case's *testing.T under
// Run, a recorder under Record.
type Reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// A Case is one case of a suite, which runs with an env of type E: what the
// suite's helpers need, its Reporter among them. A suite declares its cases
// in a type of its own of the same shape, C, so that its lists of cases are
// of a type of the suite's package.
type Case[E any] struct {
	Name string // the sentence of the contract that the case enforces
	Run  func(e E)
}

// Run runs each of cases as a subtest of t named with the case's Name, with
// the env that newEnv returns for the subtest's T.
func Run[E any, C ~struct {
	Name string
	Run  func(E)
}](t *testing.T, cases []C, newEnv func(t *testing.T) E) {
	for _, c := range cases {
		c := Case[E](c)
		t.Run(c.Name, func(t *testing.T) {
			c.Run(newEnv(t))
		})
	}
}

// Record runs each of cases with the env that newEnv returns for a
// recorder of the case's failures, and returns an error for each case that
// failed, combined with [errors.Join]: the case's name, a colon, and its
// failures on lines of their own, indented by a tab. Each case runs on a
// goroutine of its own, which Fatalf ends, newEnv's too (for an
// implementation that could not be made); a panic is a failure.
func Record[E any, C ~struct {
	Name string
	Run  func(E)
}](cases []C, newEnv func(r Reporter) E) error {
	var errs []error
	for _, c := range cases {
		c := Case[E](c)
		if msgs := c.record(newEnv); len(msgs) > 0 {
			errs = append(errs, fmt.Errorf("%s:\n\t%s", c.Name, strings.Join(msgs, "\n\t")))
		}
	}
	return errors.Join(errs...)
}

// record runs the case with the env of newEnv on a goroutine of its own and
// returns its failures.
func (c Case[E]) record(newEnv func(r Reporter) E) []string {
	rec := new(recorder)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if v := recover(); v != nil {
				rec.Errorf("panic: %v", v)
			}
		}()
		c.Run(newEnv(rec))
	}()
	<-done
	return rec.msgs
}

// A recorder is the Reporter of a case that Record runs. It is safe for
// concurrent use.
type recorder struct {
	mu   sync.Mutex
	msgs []string
}

// Helper does nothing; it makes a recorder a Reporter.
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

// Parallel calls f(0) to f(n-1) on goroutines of their own, released at the
// same moment, and returns their results, a panic counting as an error, once
// all have returned.
func Parallel(n int, f func(i int) error) []error {
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil {
					errs[i] = fmt.Errorf("panic: %v", v)
				}
			}()
			<-start
			errs[i] = f(i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// ExpectFailures checks err, what a suite returned for a store broken on
// purpose: it fails t when err is nil, and for each sentence of want, the
// Name of a case that must have failed, that err does not contain.
func ExpectFailures(t *testing.T, err error, want []string) {
	t.Helper()
	if err == nil {
		t.Fatal("the suite passed a broken store")
	}
	for _, c := range want {
		if !strings.Contains(err.Error(), c) {
			t.Errorf("the suite did not fail %q; it failed:\n%v", c, err)
		}
	}
}
