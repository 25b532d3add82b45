package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/reponame"
	"github.com/jackc/pgx/v5"
)

// AddRepository adds the repository owner/name and returns it. Its owner is
// an organization if AddOrganization added one called owner, and a user
// otherwise; the store creates a user on first use, spelt as it is first
// given. Repositories get the IDs 1, 2, 3 and so on in the order they are
// added. A name that another repository had before passes to the new
// repository, and no longer finds the old one. AddRepository returns an
// error, and adds nothing, if owner or name is empty or contains a slash, or
// if a repository is called owner/name now.
func (s *Store) AddRepository(owner, name string, private bool) (issuefields.Repository, error) {
	what := fmt.Sprintf("add repository %q", owner+"/"+name)
	var r issuefields.Repository
	err := s.seed(what, func(ctx context.Context, tx pgx.Tx) error {
		if err := claim(ctx, tx, 0, owner, name); err != nil {
			return err
		}
		a, err := userAccount(ctx, tx, owner)
		if err != nil {
			return err
		}
		r = issuefields.Repository{Owner: a.login, Name: name, Private: private, OwnedByOrganization: a.organization}
		err = tx.QueryRow(ctx, `INSERT INTO repositories (id, owner_id, name, name_key, private)
			SELECT coalesce(max(id), 0) + 1, $1, $2, $3, $4 FROM repositories RETURNING id`,
			a.id, name, nameKey(name), private).Scan(&r.ID)
		if err != nil {
			return wrap(what, err)
		}
		return nameRepository(ctx, tx, r.ID, owner, name)
	})
	if err != nil {
		return issuefields.Repository{}, err
	}
	return r, nil
}

// RenameRepository renames the repository that owner/name names now or named
// before to newName. The repository keeps its ID, its issues and their
// values, and is still found by every name it had. It returns an error, and
// changes nothing, if there is no such repository, if newName is empty or
// contains a slash, or if another repository of the owner is called newName
// now.
func (s *Store) RenameRepository(owner, name, newName string) error {
	what := fmt.Sprintf("rename repository %q to %q", owner+"/"+name, newName)
	return s.seed(what, func(ctx context.Context, tx pgx.Tx) error {
		r, err := findRepository(ctx, tx, owner, name)
		if err != nil {
			return err
		}
		if err := claim(ctx, tx, r.ID, r.Owner, newName); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE repositories SET name = $2, name_key = $3 WHERE id = $1`, r.ID, newName, nameKey(newName))
		if err != nil {
			return wrap(what, err)
		}
		return nameRepository(ctx, tx, r.ID, r.Owner, newName)
	})
}

// TransferRepository gives the repository that owner/name names now or named
// before to the account newOwner: an organization if AddOrganization added it,
// and a user otherwise. The repository keeps its ID, its issues and their
// values, and is still found by every owner and name it had; its fields are
// now those of the new owner. It returns an error, and changes nothing, if
// there is no such repository, if newOwner is empty or contains a slash, or if
// newOwner has a repository of the same name now.
func (s *Store) TransferRepository(owner, name, newOwner string) error {
	what := fmt.Sprintf("transfer repository %q to %q", owner+"/"+name, newOwner)
	return s.seed(what, func(ctx context.Context, tx pgx.Tx) error {
		r, err := findRepository(ctx, tx, owner, name)
		if err != nil {
			return err
		}
		if err := claim(ctx, tx, r.ID, newOwner, r.Name); err != nil {
			return err
		}
		a, err := userAccount(ctx, tx, newOwner)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE repositories SET owner_id = $2 WHERE id = $1`, r.ID, a.id); err != nil {
			return wrap(what, err)
		}
		return nameRepository(ctx, tx, r.ID, newOwner, r.Name)
	})
}

// claim returns an error unless the repository with ID id (0 for a new one)
// may be called owner/name: both must be non-empty without a slash, and no
// other repository may be called so now.
func claim(ctx context.Context, tx pgx.Tx, id int64, owner, name string) error {
	if err := reponame.Check(owner, name); err != nil {
		return fmt.Errorf("pgstore: %w", err)
	}
	var otherOwner, otherName string
	err := tx.QueryRow(ctx, `
		SELECT a.login, r.name FROM repositories r JOIN accounts a ON a.id = r.owner_id
		WHERE a.login_key = $1 AND r.name_key = $2 AND r.id <> $3`,
		nameKey(owner), nameKey(name), id).Scan(&otherOwner, &otherName)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil
	case err != nil:
		return wrap(fmt.Sprintf("check whether repository %q exists", owner+"/"+name), err)
	}
	return fmt.Errorf("pgstore: repository %q already exists", otherOwner+"/"+otherName)
}

// nameRepository makes owner/name find the repository with ID id, taking the
// name over from any repository that had it before.
func nameRepository(ctx context.Context, tx pgx.Tx, id int64, owner, name string) error {
	_, err := tx.Exec(ctx, `
		INSERT INTO repository_names (owner_key, name_key, repository_id) VALUES ($1, $2, $3)
		ON CONFLICT (owner_key, name_key) DO UPDATE SET repository_id = excluded.repository_id`,
		nameKey(owner), nameKey(name), id)
	if err != nil {
		return wrap(fmt.Sprintf("record the name %q of repository %d", owner+"/"+name, id), err)
	}
	return nil
}
