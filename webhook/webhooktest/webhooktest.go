// Package webhooktest checks an implementation of [webhook.Store] against
// the contract in that interface's documentation, as storetest checks an
// issuefields.Store: every case gets a fresh, empty Store and is named with
// the sentence of the contract it enforces. It checks that hook IDs are never
// given twice, the limit of hooks per scope is checked atomically, changes of
// a hook are atomic, HooksFor gives a repository's events to its own hooks
// and to those of the organization that owns it now, the newest deliveries
// are kept, listed newest first and filtered, recorded exactly as given, and
// that a Store copies what it is given and what it hands out.
//
// [RunStore] runs each case as a subtest; hooking a store up is one line,
// here memstore's, whose Hooks are the webhook.Store beside its data:
//
//	func TestHooksConformance(t *testing.T) {
//		webhooktest.RunStore(t, func(t *testing.T) webhook.Store { return memstore.New().Hooks() })
//	}
//
// [TestStore] runs the same cases without a [testing.T] and returns an error
// that names every failed case, so that the suite itself can be tested
// against stores that are broken on purpose.
package webhooktest

import (
	"context"
	"slices"
	"testing"

	"github.com/issuefields/issuefields/internal/conformance"
	"github.com/issuefields/issuefields/webhook"
)

// RunStore runs every case of the suite as a subtest of t named with the
// sentence of the contract it enforces. It calls newStore for an empty Store
// at the start of each case.
func RunStore(t *testing.T, newStore func(t *testing.T) webhook.Store) {
	conformance.Run(t, cases, func(t *testing.T) *env { return newEnv(t, newStore(t)) })
}

// TestStore runs every case of the suite, calling newStore for an empty
// Store at the start of each. If a case fails, or newStore returns an error,
// or a Store panics, TestStore returns an error for each failed case,
// combined with [errors.Join]; each error is the case's name, a colon, and
// the case's failures on lines of their own, indented by a tab.
func TestStore(newStore func() (webhook.Store, error)) error {
	return conformance.Record(cases, func(r conformance.Reporter) *env {
		s, err := newStore()
		if err != nil {
			r.Fatalf("new store: %v", err)
		}
		return newEnv(r, s)
	})
}

// cases lists every case of the suite.
var cases = slices.Concat(hookCases, deliveryCases, copyCases)

// A testCase is one case of the suite.
type testCase struct {
	Name string // the sentence of the contract that the case enforces
	Run  func(e *env)
}

// An env is what a case runs with: the Store under test, the reporter of
// failures, and helpers that call the Store and end the case when a call
// that must succeed fails.
type env struct {
	r   conformance.Reporter
	s   webhook.Store
	ctx context.Context
}

// newEnv returns the env of a case that reports to r and tests s.
func newEnv(r conformance.Reporter, s webhook.Store) *env {
	return &env{r: r, s: s, ctx: context.Background()}
}
