package memstore

import (
	"sync"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/reponame"
)

// Store is an in-memory [issuefields.Store] that its seed methods fill. The
// zero value is not usable; call [New].
type Store struct {
	// mu guards the maps, the accounts' fields, the repositories' owners and
	// names, and the issues' states. The request path only reads them.
	mu       sync.RWMutex
	accounts map[string]*account // by lower-cased login
	repos    map[int64]*repository
	names    map[repoName]*repository // every current and former name
	issues   map[issuefields.IssueKey]*issue
	lastID   int64 // the ID of the repository added last
}

var _ issuefields.Store = (*Store)(nil)

// New returns an empty Store.
func New() *Store {
	return &Store{
		accounts: make(map[string]*account),
		repos:    make(map[int64]*repository),
		names:    make(map[repoName]*repository),
		issues:   make(map[issuefields.IssueKey]*issue),
	}
}

// An account is an organization or a user that owns repositories.
type account struct {
	login  string
	org    bool
	fields []issuefields.Field // in the organization's order; none for a user
	// lastID is the largest ID a field or an option of the organization
	// had when its fields last changed through ChangeFields.
	lastID int64
}

// A repository is the store's record of one repository.
type repository struct {
	id      int64
	owner   *account
	name    string
	private bool
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
