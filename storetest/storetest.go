package storetest

import (
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/conformance"
	"github.com/issuefields/issuefields/seed"
)

// Store is a store under test: an issuefields.Store that the suite can also
// fill through the seed methods of [seed.Seeder]. Each seed method either applies
// completely or returns an error and changes nothing; the suite sets up its
// cases with valid calls, failing a case when one of them returns an error,
// and checks with invalid calls that each is refused and changes nothing.
// Every owner/name argument names a repository as
// [issuefields.Store.Snapshot] finds it: case-insensitively, by its current
// name or a former one.
type Store interface {
	issuefields.Store
	seed.Seeder
}

// Run runs every case of the suite as a subtest of t named with the sentence
// of the contract it enforces. It calls newStore for an empty store at the
// start of each case.
func Run(t *testing.T, newStore func(t *testing.T) Store) {
	conformance.Run(t, cases, func(t *testing.T) *env { return newEnv(t, newStore(t)) })
}

// TestStore runs every case of the suite, calling newStore for an empty store
// at the start of each. If a case fails, or newStore returns an error, or a
// store panics, TestStore returns an error for each failed case, combined
// with [errors.Join]; each error is the case's name, a colon, and the case's
// failures on lines of their own, indented by a tab.
func TestStore(newStore func() (Store, error)) error {
	return conformance.Record(cases, func(r conformance.Reporter) *env {
		s, err := newStore()
		if err != nil {
			r.Fatalf("new store: %v", err)
		}
		return newEnv(r, s)
	})
}

// A testCase is one case of the suite.
type testCase struct {
	Name string // the sentence of the contract that the case enforces
	Run  func(e *env)
}
