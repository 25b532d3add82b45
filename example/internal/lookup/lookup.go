// Package lookup finds a repository in a store, for the example server's
// packages that need a repository by its name and none of its issues.
package lookup

import (
	"context"

	"github.com/issuefields/issuefields"
)

// Repository returns the repository that owner/name names now or named
// before in s, under its current owner and name, or an error that wraps
// issuefields.ErrNotFound when no repository has or had that name. It asks
// s for a Snapshot of issue 1, whose issue it leaves aside: a store reads
// a repository only with an issue.
func Repository(ctx context.Context, s issuefields.Store, owner, name string) (issuefields.Repository, error) {
	snap, err := s.Snapshot(ctx, owner, name, 1)
	return snap.Repository, err
}
