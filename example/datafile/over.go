package datafile

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/internal/lookup"
)

// Over returns the tokens and repositories of l's file over s, a store that
// holds data of its own, which the file was not loaded into. A token's
// permissions follow each of l's repositories to the repository of s that
// its current owner and name find, unless an earlier one of l's found it
// already. missing names, as "owner/name", the repositories of l that s does
// not have: no token has permissions in them.
func (l *Loaded) Over(ctx context.Context, s issuefields.Store) (over *Loaded, missing []string, err error) {
	over = new(Loaded)
	found := make(map[int64]issuefields.Repository) // by the repositories' IDs in l's store
	for _, repo := range l.Repositories {
		r, err := lookup.Repository(ctx, s, repo.Owner, repo.Name)
		if errors.Is(err, issuefields.ErrNotFound) {
			missing = append(missing, repo.Owner+"/"+repo.Name)
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("looking up %s/%s in the store: %w", repo.Owner, repo.Name, err)
		}
		if slices.ContainsFunc(over.Repositories, func(k issuefields.Repository) bool { return k.ID == r.ID }) {
			continue
		}
		found[repo.ID] = r
		over.Repositories = append(over.Repositories, r)
	}
	over.Tokens = l.Tokens.remap(found)
	return over, missing, nil
}
