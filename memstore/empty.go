package memstore

import (
	"context"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/seed"
)

var _ seed.Emptier = (*Store)(nil)

// Empty drops everything s holds, as [seed.Emptier] says: organizations and
// their fields, repositories, issues and their values, and the hooks of
// [Store.Hooks] and their deliveries. s is then as [New] returns it, but for
// versions: the seed methods fill it again with the same repository, issue,
// hook and delivery IDs as the first time, and each repository's issue
// numbers start again. It never fails, and does not use ctx.
func (s *Store) Empty(context.Context) error {
	s.mu.Lock()
	s.accounts = make(map[string]*account)
	s.repos = make(map[int64]*repository)
	s.names = make(map[repoName]*repository)
	s.issues = make(map[issuefields.IssueKey]*issue)
	s.byID = make(map[int64]issuefields.IssueKey)
	s.lastID, s.lastIssueID = 0, 0
	s.mu.Unlock()

	h := &s.hooks
	h.mu.Lock()
	h.hooks, h.byScope = nil, nil
	h.lastHook, h.lastDelivery = 0, 0
	h.mu.Unlock()
	return nil
}
