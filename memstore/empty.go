package memstore

import "github.com/issuefields/issuefields"

// Empty drops everything s holds: organizations and their fields,
// repositories, issues and their values, hooks and their deliveries. s is
// then as [New] returns it, so the seed methods fill it again with the same
// repository, issue, hook and delivery IDs as the first time, while a version is
// still never given twice: an ETag taken before Empty never matches the
// values of an issue seeded after it. A call in progress on another goroutine
// finishes on the data before or after Empty, never on a mix.
func (s *Store) Empty() {
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
}
