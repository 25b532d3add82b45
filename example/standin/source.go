package standin

import (
	"context"
	"errors"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/internal/fieldvalue"
	"github.com/issuefields/issuefields/webhook"
)

// A Source reads the page's state from a store, and sends the page's
// redeliveries: its State and Redeliver are those of a Config. It shows the
// organizations and the repositories that it lists, as the store holds
// them now, with their hooks; one that the store does not have is left
// out.
type Source struct {
	// Store holds the API's data, and Hooks the hooks and their
	// deliveries.
	Store issuefields.Store
	Hooks webhook.Store

	// Notifier sends the deliveries again. Redeliver needs it: without
	// one, it returns an error, which the page answers 500.
	Notifier *webhook.Notifier

	// Organizations are the logins of the organizations that the page
	// shows with their fields and hooks, in order.
	Organizations []string

	// Repositories are the repositories that the page shows with their
	// issues and hooks, in order.
	Repositories []RepositoryIssues
}

// RepositoryIssues names a repository and the numbers of its issues that
// the page shows, in order.
type RepositoryIssues struct {
	Owner, Name string
	Issues      []int64
}

// State returns what the page shows: the organizations with their fields,
// the repositories with their issues, each with its values or with what
// became of it, and the hooks of both with their newest deliveries.
func (s Source) State(ctx context.Context) (State, error) {
	var state State
	if fm, ok := s.Store.(issuefields.FieldManager); ok {
		for _, login := range s.Organizations {
			fields, err := fm.OrganizationFields(ctx, login)
			if errors.Is(err, issuefields.ErrNotFound) {
				continue
			}
			if err != nil {
				return state, fmt.Errorf("the fields of %s: %w", login, err)
			}
			state.Organizations = append(state.Organizations, Organization{Login: login, Fields: shownFields(fields)})
		}
	}
	for _, ri := range s.Repositories {
		repo, err := s.repository(ctx, ri)
		if errors.Is(err, issuefields.ErrNotFound) {
			continue
		}
		if err != nil {
			return state, fmt.Errorf("the issues of %s/%s: %w", ri.Owner, ri.Name, err)
		}
		state.Repositories = append(state.Repositories, repo)
	}
	var err error
	state.Hooks, err = s.hooks(ctx)
	return state, err
}

// shownFields returns fields as the page shows them.
func shownFields(fields []issuefields.Field) []Field {
	shown := make([]Field, len(fields))
	for i, f := range fields {
		shown[i] = Field{ID: f.ID, Name: f.Name, DataType: string(f.DataType)}
		for _, o := range f.Options {
			shown[i].Options = append(shown[i].Options, o.Name)
		}
	}
	return shown
}

// repository returns the repository ri as the page shows it: its issues,
// each with its values or with what became of it.
func (s Source) repository(ctx context.Context, ri RepositoryIssues) (Repository, error) {
	repo := Repository{Owner: ri.Owner, Name: ri.Name}
	for _, n := range ri.Issues {
		snap, err := s.Store.Snapshot(ctx, ri.Owner, ri.Name, n)
		if err != nil {
			return repo, err
		}
		issue := Issue{Number: n}
		switch at := snap.Issue; {
		case errors.Is(snap.IssueErr, issuefields.ErrIssueDeleted):
			issue.Note = "deleted"
		case snap.IssueErr != nil:
			issue.Note = "not found"
		case at.Repository.ID != snap.Repository.ID || at.Number != n:
			issue.Note = fmt.Sprintf("transferred to %s/%s#%d", at.Repository.Owner, at.Repository.Name, at.Number)
		default:
			issue.Values = shownValues(snap.Fields, snap.Issue.Values)
		}
		repo.Issues = append(repo.Issues, issue)
	}
	return repo, nil
}

// shownValues returns the values of the fields, in the fields' order, as
// the page shows them; a value of a field that is no longer there is left
// out, as the API leaves it out.
func shownValues(fields []issuefields.Field, values []issuefields.Value) []Value {
	var shown []Value
	for _, f := range fields {
		for _, v := range values {
			if v.FieldID == f.ID {
				shown = append(shown, Value{Field: f.Name, Value: fmt.Sprint(fieldvalue.Shown(f, &v))})
			}
		}
	}
	return shown
}
