package storetest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
)

// Store is a store under test: an issuefields.Store that the suite can also
// fill through the seed methods of [Seeder]. Each seed method either applies
// completely or returns an error and changes nothing; the suite sets up its
// cases with valid calls, failing a case when one of them returns an error,
// and checks with invalid calls that each is refused and changes nothing.
// Every owner/name argument names a repository as
// [issuefields.Store.Snapshot] finds it: case-insensitively, by its current
// name or a former one.
type Store interface {
	issuefields.Store
	Seeder
}

// Run runs every case of the suite as a subtest of t named with the sentence
// of the contract it enforces. It calls newStore for an empty store at the
// start of each case.
func Run(t *testing.T, newStore func(t *testing.T) Store) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.run(newEnv(t, newStore(t)))
		})
	}
}

// TestStore runs every case of the suite, calling newStore for an empty store
// at the start of each. If a case fails, or newStore returns an error, or a
// store panics, TestStore returns an error for each failed case, combined
// with [errors.Join]; each error is the case's name, a colon, and the case's
// failures on lines of their own, indented by a tab.
func TestStore(newStore func() (Store, error)) error {
	var errs []error
	for _, c := range cases {
		if msgs := c.record(newStore); len(msgs) > 0 {
			errs = append(errs, fmt.Errorf("%s:\n\t%s", c.name, strings.Join(msgs, "\n\t")))
		}
	}
	return errors.Join(errs...)
}

// A testCase is one case of the suite.
type testCase struct {
	name string // the sentence of the contract that the case enforces
	run  func(e *env)
}

// record runs the case on a store from newStore and returns its failures.
// It runs the case on a goroutine of its own, which a failed seed call ends.
func (c testCase) record(newStore func() (Store, error)) []string {
	rec := new(recorder)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if v := recover(); v != nil {
				rec.Errorf("panic: %v", v)
			}
		}()
		s, err := newStore()
		if err != nil {
			rec.Fatalf("new store: %v", err)
		}
		c.run(newEnv(rec, s))
	}()
	<-done
	return rec.msgs
}
