package memstore

import (
	"sync"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/reponame"
	"github.com/issuefields/issuefields/seed"
)

// Store is an in-memory [issuefields.Store], [issuefields.FieldManager] and
// [issuefields.IssueStore] that its seed methods ([seed.Seeder]) fill and
// [Store.Empty] empties ([seed.Emptier]). [Store.Hooks] returns the [webhook.Store] beside it. The
// zero value is not usable; call [New].
//
// Locks are taken in one order: an organization's fieldsMu, then mu, then an
// issue's mu. Only a seed method that holds mu for writing holds two issues'
// locks at once. The lock of the hooks is never held with another.
type Store struct {
	// mu guards the maps, the accounts' fields, the repositories' owners and
	// names, and the issues' states. The request path only reads them.
	mu       sync.RWMutex
	accounts map[string]*account // by lower-cased login
	repos    map[int64]*repository
	names    map[repoName]*repository // every current and former name
	issues   map[issuefields.IssueKey]*issue
	byID     map[int64]issuefields.IssueKey // the live issues, by ID
	lastID   int64                          // the ID of the repository added last
	// lastIssueID is the ID of the issue added or created last.
	lastIssueID int64

	hooks Hooks
}

var (
	_ issuefields.Store        = (*Store)(nil)
	_ issuefields.FieldManager = (*Store)(nil)
	_ issuefields.IssueStore   = (*Store)(nil)
	_ seed.Seeder              = (*Store)(nil)
)

// New returns an empty Store.
func New() *Store {
	return &Store{
		accounts: make(map[string]*account),
		repos:    make(map[int64]*repository),
		names:    make(map[repoName]*repository),
		issues:   make(map[issuefields.IssueKey]*issue),
		byID:     make(map[int64]issuefields.IssueKey),
	}
}

// An account is an organization or a user that owns repositories. Its login
// and org never change.
type account struct {
	login string
	org   bool

	// fieldsMu serializes the changes of the organization's fields
	// (ChangeFields and AddField) and guards lastID. A change holds it, and
	// takes Store.mu for writing only to replace fields.
	fieldsMu sync.Mutex
	// fields are the organization's fields, in its order; none for a user.
	// The slice is shared with callers: a change replaces it and never
	// writes into it. Reading it needs Store.mu or fieldsMu.
	fields []issuefields.Field
	// lastID is the largest ID that a field or an option of the
	// organization has ever had.
	lastID int64
}

// A repository is the store's record of one repository.
type repository struct {
	id      int64
	owner   *account
	name    string
	private bool
	// numbers are the numbers of its issues, live, deleted or transferred,
	// in order: the last is the largest it has had.
	numbers []int64
}

// A repoName is an owner and repository name, lower-cased, under which a
// repository is found.
type repoName struct {
	owner, name string
}

// nameOf returns the key under which owner/name is found.
func nameOf(owner, name string) repoName {
	return repoName{reponame.Key(owner), reponame.Key(name)}
}

// current returns the key of the repository's current owner and name.
func (r *repository) current() repoName {
	return nameOf(r.owner.login, r.name)
}

// snapshot returns the repository as the store knows it now. The caller
// holds s.mu.
func (r *repository) snapshot() issuefields.Repository {
	return issuefields.Repository{
		ID:                  r.id,
		Owner:               r.owner.login,
		Name:                r.name,
		Private:             r.private,
		OwnedByOrganization: r.owner.org,
	}
}
