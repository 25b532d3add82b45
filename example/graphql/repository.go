package graphql

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/issues"
	"github.com/issuefields/issuefields/internal/ids"
	"github.com/vektah/gqlparser/v2/ast"
)

// repository writes the repository of snap, a Snapshot of the repository
// alone that ReadIssue read with the caller's access.
func (e *exec) repository(f *ast.Field, snap issuefields.Snapshot) bool {
	repo := snap.Repository
	return e.object("Repository", f.SelectionSet, func(g *ast.Field) bool {
		switch g.Name {
		case "id":
			return e.str(ids.Repository(repo.ID))
		case "databaseId":
			return e.integer(repo.ID)
		case "name":
			return e.str(repo.Name)
		case "nameWithOwner":
			return e.str(repo.Owner + "/" + repo.Name)
		case "owner":
			if repo.OwnedByOrganization {
				return e.object("Organization", g.SelectionSet, func(h *ast.Field) bool { return e.account(h, ids.KindOrganization, repo.Owner) })
			}
			return e.object("User", g.SelectionSet, func(h *ast.Field) bool { return e.account(h, ids.KindUser, repo.Owner) })
		case "isPrivate":
			return e.boolean(repo.Private)
		case "url":
			return e.str(e.s.objects.RepositoryHTMLURL(repo))
		case "issue":
			number, _ := e.intArg(g, "number")
			is, err := e.readIssue(repo.Owner, repo.Name, number)
			if err != nil {
				return e.refuse(g, err, "Could not resolve to an Issue with the number of "+strconv.FormatInt(number, 10)+".")
			}
			return e.issue(g, is)
		case "issues":
			if err := e.readable(snap); err != nil {
				return e.refuse(g, err, "")
			}
			return e.issues(g, snap)
		case "issueFields":
			if err := e.readable(snap); err != nil {
				return e.refuse(g, err, "")
			}
			return e.issueFields(g, repo.Owner, snap.Fields)
		}
		return e.null()
	})
}

// account writes a field of a RepositoryOwner, of kind.
func (e *exec) account(f *ast.Field, kind ids.Kind, login string) bool {
	switch f.Name {
	case "id":
		return e.str(ids.Account(kind, login))
	case "login":
		return e.str(login)
	case "url":
		return e.str(e.s.objects.AccountHTMLURL(login))
	}
	return e.null()
}

// issues writes the issues connection of the repository of snap: its live
// issues that the arguments select, in their order.
func (e *exec) issues(f *ast.Field, snap issuefields.Snapshot) bool {
	var found []issuefields.Issue
	if e.s.issues != nil {
		var err error
		found, err = e.s.issues.Issues(e.call.Request().Context(), issuefields.IssueQuery{Repositories: []int64{snap.Repository.ID}})
		if err != nil {
			e.fatal = err
			return false
		}
	}
	keep := e.issueFilter(f, snap.Fields)
	selected := make([]issuefields.Issue, 0, len(found))
	for _, is := range found {
		if keep(&is) {
			selected = append(selected, is)
		}
	}
	e.orderIssues(f, selected)
	return e.connection(f, "IssueConnection", e.page(f, len(selected)), func(i int, g *ast.Field) bool {
		is := snap
		is.Issue, is.IssueErr = selected[i], nil
		return e.issue(g, is)
	})
}

// issueFilter returns what decides whether an issue is one that f's states,
// labels and filterBy select.
func (e *exec) issueFilter(f *ast.Field, fields []issuefields.Field) func(*issuefields.Issue) bool {
	states := strings.ToLower(strings.Join(strs(e.arg(f, "states")), ","))
	labels := strs(e.arg(f, "labels"))
	filterBy, _ := e.arg(f, "filterBy").(map[string]any)
	var since time.Time
	if s, ok := filterBy["since"].(string); ok {
		since, _ = time.Parse(time.RFC3339, s)
	}
	if ls := strs(filterBy["labels"]); len(ls) > 0 {
		labels = append(labels, ls...)
	}
	if st := strs(filterBy["states"]); len(st) > 0 && states == "" {
		states = strings.ToLower(strings.Join(st, ","))
	}
	filters, _ := filterBy["issueFieldValues"].([]any)
	return func(is *issuefields.Issue) bool {
		if states != "" && !slices.Contains(strings.Split(states, ","), cmp.Or(is.State, "open")) {
			return false
		}
		if len(labels) > 0 && !slices.ContainsFunc(is.Labels, func(l string) bool {
			return slices.ContainsFunc(labels, func(want string) bool { return strings.EqualFold(l, want) })
		}) {
			return false
		}
		if !since.IsZero() && cmp.Or(is.UpdatedAt, is.CreatedAt).Before(since) {
			return false
		}
		for _, raw := range filters {
			filter, _ := raw.(map[string]any)
			if !matches(filter, fields, is.Values) {
				return false
			}
		}
		return true
	}
}

// matches reports whether values hold the value that filter, an
// IssueFieldValueFilter, asks for, by the search's rule of a value
// (issues.FieldValue.In): the field named as field names compare, and its
// value equal to the one given (an option by its name, compared as names
// are).
func matches(filter map[string]any, fields []issuefields.Field, values []issuefields.Value) bool {
	want := issues.FieldValue{}
	want.Name, _ = filter["fieldName"].(string)
	switch {
	case filter["textValue"] != nil:
		want.Value, _ = filter["textValue"].(string)
	case filter["dateValue"] != nil:
		want.Value, _ = filter["dateValue"].(string)
	case filter["singleSelectOptionValue"] != nil:
		want.Value, _ = filter["singleSelectOptionValue"].(string)
	case filter["numberValue"] != nil:
		n, ok := number(filter["numberValue"])
		if !ok {
			return false
		}
		want.Value = strconv.FormatFloat(n, 'g', -1, 64)
	default:
		return false
	}
	return want.In(fields, values)
}

// number returns v, a Float that a variable or a literal gave, as a
// float64.
func number(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case int64:
		return float64(v), true
	case int:
		return float64(v), true
	case string:
		f, err := strconv.ParseFloat(v, 64)
		return f, err == nil
	}
	return 0, false
}

// strs returns v, a list of strings, as a []string.
func strs(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, s := range list {
		if s, ok := s.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// orderIssues sorts issues as f's orderBy says: by creation (the default),
// update or comments (none), ascending unless DESC; ties by number.
func (e *exec) orderIssues(f *ast.Field, issues []issuefields.Issue) {
	order, _ := e.arg(f, "orderBy").(map[string]any)
	field, _ := order["field"].(string)
	desc := order["direction"] == "DESC"
	slices.SortStableFunc(issues, func(a, b issuefields.Issue) int {
		c := 0
		switch field {
		case "UPDATED_AT":
			c = cmp.Or(a.UpdatedAt, a.CreatedAt).Compare(cmp.Or(b.UpdatedAt, b.CreatedAt))
		case "COMMENTS":
		default:
			c = cmp.Or(a.CreatedAt, a.UpdatedAt).Compare(cmp.Or(b.CreatedAt, b.UpdatedAt))
		}
		c = cmp.Or(c, cmp.Compare(a.Number, b.Number))
		if desc {
			return -c
		}
		return c
	})
}
