package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/jackc/pgx/v5"
)

// AddIssue adds issue number, with no content but its ID, to the repository
// that owner/repo names now or named before. The issue takes the next of the
// store's issue IDs, which a new or emptied database starts at 1, so that
// issues added in one order get the same IDs after every reset. It returns
// an error, and adds
// nothing, if there is no such repository, if number is not positive, or if
// the repository has or had an issue with that number (live, deleted or
// transferred).
func (s *Store) AddIssue(owner, repo string, number int64) error {
	return s.seed(fmt.Sprintf("add issue %d to %q", number, owner+"/"+repo), func(ctx context.Context, tx pgx.Tx) error {
		key, what, err := issueKey(ctx, tx, owner, repo, number)
		if err != nil {
			return err
		}
		// The issue takes the next ID, and raises the repository's last
		// number when it is above it.
		tag, err := tx.Exec(ctx, `
			WITH added AS (INSERT INTO issues (repository_id, number) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING number)
			UPDATE repositories SET last_issue_number = greatest(last_issue_number, $2)
			WHERE id = $1 AND EXISTS (SELECT FROM added)`,
			key.RepositoryID, key.Number)
		switch {
		case err != nil:
			return wrap("add "+what, err)
		case tag.RowsAffected() == 0:
			return fmt.Errorf("pgstore: %s already exists", what)
		}
		return nil
	})
}

// DeleteIssue deletes issue number of the repository that owner/repo names
// now or named before. Afterwards a Snapshot of it reports
// [issuefields.ErrIssueDeleted], and its number is never used again.
// It returns an error, and changes nothing, if there is no such live issue.
func (s *Store) DeleteIssue(owner, repo string, number int64) error {
	var key issuefields.IssueKey
	err := s.seed(fmt.Sprintf("delete issue %d of %q", number, owner+"/"+repo), func(ctx context.Context, tx pgx.Tx) error {
		var what string
		var err error
		key, what, err = liveIssue(ctx, tx, owner, repo, number)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE issues SET state = 'deleted', field_values = '[]' WHERE repository_id = $1 AND number = $2`,
			key.RepositoryID, key.Number)
		if err != nil {
			return wrap("delete "+what, err)
		}
		return nil
	})
	if err == nil {
		s.recent.forget(key)
	}
	return err
}

// TransferIssue moves issue number of owner/repo to issue toNumber of
// toOwner/toRepo, which it creates if it does not exist. The issue's ID and
// content move with it and replace those the destination had, under a new version of
// the destination. Afterwards a Snapshot finds the old issue at its new
// place, following chains of transfers, and the old number is never used
// again. It returns an error, and changes nothing, if the source is not a
// live issue, if the destination is the source or an issue that was deleted
// or transferred, or if toNumber is not positive.
func (s *Store) TransferIssue(owner, repo string, number int64, toOwner, toRepo string, toNumber int64) error {
	op := fmt.Sprintf("transfer issue %d of %q to issue %d of %q", number, owner+"/"+repo, toNumber, toOwner+"/"+toRepo)
	var from issuefields.IssueKey
	err := s.seed(op, func(ctx context.Context, tx pgx.Tx) error {
		var err error
		from, _, err = liveIssue(ctx, tx, owner, repo, number)
		if err != nil {
			return err
		}
		to, what, err := issueKey(ctx, tx, toOwner, toRepo, toNumber)
		if err != nil {
			return err
		}
		if to == from {
			return fmt.Errorf("pgstore: cannot transfer %s to itself", what)
		}
		st, found, err := readIssue(ctx, tx, to, what)
		if err != nil {
			return err
		}
		if found {
			if err := st.check(what); err != nil {
				return err
			}
		}
		batch := &pgx.Batch{}
		batch.Queue(`
			INSERT INTO issues (repository_id, number, field_values, `+contentNames+`)
			SELECT $3, $4, field_values, `+contentNames+` FROM issues WHERE repository_id = $1 AND number = $2
			ON CONFLICT (repository_id, number)
			DO UPDATE SET field_values = excluded.field_values, version = issues.version + 1, `+takeContent,
			from.RepositoryID, from.Number, to.RepositoryID, to.Number)
		batch.Queue(`
			UPDATE issues SET state = 'transferred', moved_to_repository_id = $3, moved_to_number = $4, field_values = '[]'
			WHERE repository_id = $1 AND number = $2`,
			from.RepositoryID, from.Number, to.RepositoryID, to.Number)
		batch.Queue(`UPDATE repositories SET last_issue_number = greatest(last_issue_number, $2) WHERE id = $1`,
			to.RepositoryID, to.Number)
		if err := tx.SendBatch(ctx, batch).Close(); err != nil {
			return wrap(op, err)
		}
		return nil
	})
	if err == nil {
		s.recent.forget(from)
	}
	return err
}

// SetIssue replaces the content of issue issue.Number of owner/repo with
// issue's (everything but its Repository, Number, ID and Version: see
// [issuefields.Issue]) and gives the issue a new version, as
// [Store.UpdateIssue] would. It stores the content as given. It returns an
// error, and changes nothing, if there is no such live issue.
func (s *Store) SetIssue(owner, repo string, issue issuefields.Issue) error {
	op := fmt.Sprintf("set issue %d of %q", issue.Number, owner+"/"+repo)
	data, err := encodeValues(issue.Values)
	if err != nil {
		return fmt.Errorf("pgstore: %s: %w", op, err)
	}
	return s.setIssue(op, owner, repo, issue.Number, `field_values = $3, `+setContent(4), append([]any{data}, contentArgs(&issue)...))
}

// SetValues replaces the values of issue number of owner/repo with values
// and gives the issue a new version, as [Store.UpdateIssue] would. It does
// not check values against the organization's fields: seed data must be
// valid, as the handler would have written it. It returns an error, and
// changes nothing, if there is no such live issue.
func (s *Store) SetValues(owner, repo string, number int64, values []issuefields.Value) error {
	op := fmt.Sprintf("set the values of issue %d of %q", number, owner+"/"+repo)
	data, err := encodeValues(values)
	if err != nil {
		return fmt.Errorf("pgstore: %s: %w", op, err)
	}
	return s.setIssue(op, owner, repo, number, `field_values = $3`, []any{data})
}

// setIssue sets what set says (from the parameters $3 on, args) in the row of
// the live issue number of owner/repo, and gives it the next version; op
// describes the seed call.
func (s *Store) setIssue(op, owner, repo string, number int64, set string, args []any) error {
	return s.seed(op, func(ctx context.Context, tx pgx.Tx) error {
		key, _, err := liveIssue(ctx, tx, owner, repo, number)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE issues SET `+set+`, version = version + 1 WHERE repository_id = $1 AND number = $2`,
			append([]any{key.RepositoryID, key.Number}, args...)...)
		if err != nil {
			return wrap(op, err)
		}
		return nil
	})
}

// issueKey returns the key of issue number in the repository that owner/repo
// names now or named before, and a description of the issue for error
// messages. It returns an error if there is no such repository or number is
// not positive.
func issueKey(ctx context.Context, tx pgx.Tx, owner, repo string, number int64) (issuefields.IssueKey, string, error) {
	what := fmt.Sprintf("issue %d of %q", number, owner+"/"+repo)
	r, err := findRepository(ctx, tx, owner, repo)
	if err != nil {
		return issuefields.IssueKey{}, what, err
	}
	if number <= 0 {
		return issuefields.IssueKey{}, what, fmt.Errorf("pgstore: %s: number is not positive", what)
	}
	return issuefields.IssueKey{RepositoryID: r.ID, Number: number}, what, nil
}

// liveIssue returns the key of issue number of owner/repo, and its
// description, and locks the issue's row until tx ends, so that no write
// commits on it meanwhile. It returns an error if there is no
// such issue, or if it was deleted or transferred.
func liveIssue(ctx context.Context, tx pgx.Tx, owner, repo string, number int64) (issuefields.IssueKey, string, error) {
	key, what, err := issueKey(ctx, tx, owner, repo, number)
	if err != nil {
		return key, what, err
	}
	st, found, err := readIssue(ctx, tx, key, what)
	switch {
	case err != nil:
		return key, what, err
	case !found:
		return key, what, fmt.Errorf("pgstore: %s: %w", what, issuefields.ErrNotFound)
	}
	return key, what, st.check(what)
}

// readIssue returns the state of the issue that key identifies, described as
// what, and whether there is such an issue, and locks its row until tx ends.
func readIssue(ctx context.Context, tx pgx.Tx, key issuefields.IssueKey, what string) (issueState, bool, error) {
	var st issueState
	err := tx.QueryRow(ctx, `
		SELECT state, moved_to_repository_id, moved_to_number FROM issues
		WHERE repository_id = $1 AND number = $2 FOR UPDATE`,
		key.RepositoryID, key.Number).Scan(&st.state, &st.movedToRepository, &st.movedToNumber)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return st, false, nil
	case err != nil:
		return st, false, wrap("read "+what, err)
	}
	return st, true, nil
}
