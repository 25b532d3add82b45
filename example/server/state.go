package server

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/datafile"
	"github.com/issuefields/issuefields/example/standin"
)

// pageState returns what the page of the tools shows of d: the
// organizations of d's data file with their fields, the file's repositories
// with their issues (those that a transfer created included), and the hooks
// of both with their newest deliveries, as d's store holds them now. An
// organization or a repository that the store does not have is left out.
func pageState(d *dataset) func(ctx context.Context) (standin.State, error) {
	return func(ctx context.Context) (standin.State, error) {
		var state standin.State
		if fm, ok := d.store.(issuefields.FieldManager); ok {
			for _, login := range d.organizations() {
				fields, err := fm.OrganizationFields(ctx, login)
				if errors.Is(err, issuefields.ErrNotFound) {
					continue
				}
				if err != nil {
					return state, fmt.Errorf("the fields of %s: %w", login, err)
				}
				state.Organizations = append(state.Organizations, standin.Organization{Login: login, Fields: shownFields(fields)})
			}
		}
		for _, rd := range d.file.Repositories {
			repo, err := shownRepository(ctx, d, rd)
			if errors.Is(err, issuefields.ErrNotFound) {
				continue
			}
			if err != nil {
				return state, fmt.Errorf("the issues of %s/%s: %w", rd.Owner, rd.Name, err)
			}
			state.Repositories = append(state.Repositories, repo)
		}
		var err error
		state.Hooks, err = shownHooks(ctx, d)
		return state, err
	}
}

// shownFields returns fields as the page shows them.
func shownFields(fields []issuefields.Field) []standin.Field {
	shown := make([]standin.Field, len(fields))
	for i, f := range fields {
		shown[i] = standin.Field{ID: f.ID, Name: f.Name, DataType: string(f.DataType)}
		for _, o := range f.Options {
			shown[i].Options = append(shown[i].Options, o.Name)
		}
	}
	return shown
}

// shownRepository returns the repository rd of d's file as the page shows
// it: its issues of the file, then those that transfers created in it, each
// with its values or with what became of it.
func shownRepository(ctx context.Context, d *dataset, rd datafile.Repository) (standin.Repository, error) {
	repo := standin.Repository{Owner: rd.Owner, Name: rd.Name}
	var numbers []int64
	for _, is := range rd.Issues {
		numbers = append(numbers, is.Number)
	}
	for _, other := range d.file.Repositories {
		for _, is := range other.Issues {
			if to := is.TransferredTo; to != nil && strings.EqualFold(to.Owner, rd.Owner) && strings.EqualFold(to.Name, rd.Name) {
				numbers = append(numbers, to.Number)
			}
		}
	}
	for _, n := range numbers {
		snap, err := d.store.Snapshot(ctx, rd.Owner, rd.Name, n)
		if err != nil {
			return repo, err
		}
		issue := standin.Issue{Number: n}
		switch at := snap.Issue; {
		case errors.Is(snap.IssueErr, issuefields.ErrIssueDeleted):
			issue.Note = "deleted"
		case snap.IssueErr != nil:
			issue.Note = "not found"
		case at.Repository.ID != snap.Repository.ID || at.Number != n:
			issue.Note = fmt.Sprintf("transferred to %s/%s#%d", at.Repository.Owner, at.Repository.Name, at.Number)
		default:
			issue.Values = shownValues(snap.Fields, snap.Values)
		}
		repo.Issues = append(repo.Issues, issue)
	}
	return repo, nil
}

// shownValues returns the values of the fields, in the fields' order, as
// the page shows them; a value of a field that is no longer there is left
// out, as the API leaves it out.
func shownValues(fields []issuefields.Field, values []issuefields.Value) []standin.Value {
	var shown []standin.Value
	for _, f := range fields {
		for _, v := range values {
			if v.FieldID == f.ID {
				shown = append(shown, standin.Value{Field: f.Name, Value: fmt.Sprint(shownValue(f, &v))})
			}
		}
	}
	return shown
}
