package storetest_test

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/storetest"
)

// auditedStore is a store of one's own: a memstore.Store that also records
// who last wrote each issue's values, from the principal the handler puts in
// the context. Any type with the methods of issuefields.Store and
// seed.Seeder can be tested the same way.
type auditedStore struct {
	*memstore.Store
	mu         sync.Mutex
	lastWriter map[issuefields.IssueKey]string
}

func newAuditedStore() *auditedStore {
	return &auditedStore{Store: memstore.New(), lastWriter: map[issuefields.IssueKey]string{}}
}

func (s *auditedStore) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	version, err := s.Store.UpdateIssue(ctx, snap, next)
	if err != nil {
		return version, err
	}
	if p, ok := issuefields.PrincipalFromContext(ctx); ok {
		s.mu.Lock()
		s.lastWriter[snap.Issue.Key()] = p.Login
		s.mu.Unlock()
	}
	return version, nil
}

// forgetfulStore breaks the contract: it does not find a repository by a
// former name.
type forgetfulStore struct{ *auditedStore }

func (s forgetfulStore) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	snap, err := s.auditedStore.Snapshot(ctx, owner, name, number)
	if r := snap.Repository; err == nil && !strings.EqualFold(owner+"/"+name, r.Owner+"/"+r.Name) {
		return issuefields.Snapshot{}, issuefields.ErrNotFound
	}
	return snap, err
}

// A custom store is hooked up to the suite by a function that returns an
// empty store. In the store's own tests, that is one line:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) storetest.Store { return newAuditedStore() })
//	}
//
// TestStore runs the same cases without a testing.T and returns an error that
// joins one error per case a store fails: the case's name, a colon, and what
// went wrong.
func Example_customStore() {
	err := storetest.TestStore(func() (storetest.Store, error) { return newAuditedStore(), nil })
	fmt.Println("auditedStore:", err)

	err = storetest.TestStore(func() (storetest.Store, error) { return forgetfulStore{newAuditedStore()}, nil })
	fmt.Println("forgetfulStore fails:")
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		name, _, _ := strings.Cut(e.Error(), ":\n")
		fmt.Println("-", name)
	}
	// Output:
	// auditedStore: <nil>
	// forgetfulStore fails:
	// - Snapshot finds a renamed repository by every former name, under its current name
	// - Snapshot finds a transferred repository by every former owner and name, under its current owner and name
	// - RenameRepository takes over a former name of another repository, which keeps its other names
	// - Snapshot returns the issue in its repository as it is now, after a rename and a transfer
	// - An issue's values and version survive a rename and a transfer of its repository
	// - A stale Snapshot (after a rename, a transfer of the repository, a change of the owner's fields, a new field, a deleted or transferred issue, another write) gives ErrChanged and stores nothing
	// - CreateIssue from a Snapshot that the store no longer holds returns ErrChanged, stores nothing and uses no number
	// - After Empty, the seed methods fill the store as a new one, with the organizations, names and issue numbers it held
}
