package storetest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
)

// Store is a store under test: an issuefields.Store that the suite can also
// fill. Each seed method either applies completely or returns an error and
// changes nothing; the suite only calls them with valid arguments and fails
// the case when one returns an error. Every owner/name argument names a
// repository as [issuefields.Store.Repository] finds it: case-insensitively,
// by its current name or a former one.
type Store interface {
	issuefields.Store

	// AddOrganization adds the organization login, which has no fields yet.
	AddOrganization(login string) error

	// AddField appends f to the fields of the organization org.
	AddField(org string, f issuefields.Field) error

	// AddRepository adds the repository owner/name and returns it. The owner
	// is an organization if AddOrganization added it, and a user otherwise.
	AddRepository(owner, name string, private bool) (issuefields.Repository, error)

	// RenameRepository renames the repository owner/name to newName.
	RenameRepository(owner, name, newName string) error

	// TransferRepository gives the repository owner/name to the account
	// newOwner, an organization or a user as for AddRepository.
	TransferRepository(owner, name, newOwner string) error

	// AddIssue adds issue number, with no values, to the repository
	// owner/repo.
	AddIssue(owner, repo string, number int64) error

	// DeleteIssue deletes issue number of the repository owner/repo.
	DeleteIssue(owner, repo string, number int64) error

	// TransferIssue moves issue number of owner/repo to issue toNumber of
	// toOwner/toRepo, which it creates if it does not exist.
	TransferIssue(owner, repo string, number int64, toOwner, toRepo string, toNumber int64) error

	// SetValues replaces the values of issue number of owner/repo and gives
	// the issue a new version, as a successful CompareAndSwap would.
	SetValues(owner, repo string, number int64, values []issuefields.Value) error
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
