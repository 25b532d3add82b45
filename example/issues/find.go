package issues

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/fieldname"
)

// Store is what Find reads: a Store that is an IssueStore.
type Store interface {
	issuefields.Store
	issuefields.IssueStore
}

// Find returns the issues of store that s finds in the repositories that
// may allows (a reader's: see issuefields.Call.MayRead), each as the
// Snapshot of its repository with Issue set to it (what Call.RenderValues
// and webhook.Objects.Issue take), ordered by repository ID and number. It
// asks may of every repository of the store, and returns the first error of
// may or of the store.
func Find(ctx context.Context, store Store, s Search, may func(issuefields.Repository) (bool, error)) ([]issuefields.Snapshot, error) {
	if s.StateConflict {
		return nil, nil
	}
	repos, err := store.Repositories(ctx)
	if err != nil {
		return nil, err
	}
	var found []issuefields.Snapshot
	for _, repo := range repos {
		// may first, so that a caller it refuses whatever the repository
		// (a token of a kind not accepted) is refused whatever q names.
		ok, err := may(repo)
		if err != nil {
			return nil, err
		}
		if !ok || !s.names(repo) {
			continue
		}
		snap, err := store.Snapshot(ctx, repo.Owner, repo.Name, 0)
		if err != nil {
			return nil, err
		}
		issues, err := store.Issues(ctx, issuefields.IssueQuery{Repositories: []int64{repo.ID}})
		if err != nil {
			return nil, err
		}
		for _, is := range issues {
			one := snap
			one.Issue, one.IssueErr = is, nil
			if s.Matches(one) {
				found = append(found, one)
			}
		}
	}
	return found, nil
}

// names reports whether repo is one that s searches.
func (s Search) names(repo issuefields.Repository) bool {
	if len(s.Repositories) == 0 && len(s.Organizations) == 0 {
		return true
	}
	return slices.ContainsFunc(s.Repositories, func(full string) bool {
		return strings.EqualFold(full, repo.Owner+"/"+repo.Name)
	}) || slices.ContainsFunc(s.Organizations, func(org string) bool { return strings.EqualFold(org, repo.Owner) })
}

// Matches reports whether the issue of snap, in the repository of snap,
// whose Fields are its organization's, is one that s finds, its
// repository aside (see Find).
func (s Search) Matches(snap issuefields.Snapshot) bool {
	is := snap.Issue
	if s.StateConflict || s.State != "" && stateOf(is) != s.State {
		return false
	}
	for _, want := range s.Fields {
		if !want.In(snap.Fields, is.Values) {
			return false
		}
	}
	text := strings.ToLower(is.Title + "\n" + is.Body)
	for _, w := range s.Words {
		if !strings.Contains(text, strings.ToLower(w)) {
			return false
		}
	}
	return true
}

// In reports whether values, of an issue whose organization has fields,
// hold want: a value of the field named want.Name (compared as field names
// are) that the values list shows as want.Value (a text compared
// case-insensitively, an option by its name as names are compared, each
// option of a multi_select value given as a,b; a number as a number). It is
// the one rule of a search by value, field.NAME:VALUE here and GraphQL's
// IssueFieldValueFilter.
func (want FieldValue) In(fields []issuefields.Field, values []issuefields.Value) bool {
	i := slices.IndexFunc(fields, func(f issuefields.Field) bool { return fieldname.Key(f.Name) == fieldname.Key(want.Name) })
	if i < 0 {
		return false
	}
	f := fields[i]
	j := slices.IndexFunc(values, func(v issuefields.Value) bool { return v.FieldID == f.ID })
	if j < 0 {
		return false
	}
	v := values[j]
	switch f.DataType {
	case issuefields.DataTypeText:
		return strings.EqualFold(v.Text, want.Value)
	case issuefields.DataTypeDate:
		return v.Date == want.Value
	case issuefields.DataTypeNumber:
		n, err := strconv.ParseFloat(want.Value, 64)
		return err == nil && n == v.Number
	}
	for name := range strings.SplitSeq(want.Value, ",") {
		if !slices.ContainsFunc(f.Options, func(o issuefields.FieldOption) bool {
			return fieldname.Key(o.Name) == fieldname.Key(strings.TrimSpace(name)) && slices.Contains(v.OptionIDs, o.ID)
		}) {
			return false
		}
	}
	return true
}
