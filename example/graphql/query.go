package graphql

import (
	"strconv"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/ids"
	"github.com/vektah/gqlparser/v2/ast"
)

// query writes a field of Query.
func (e *exec) query(f *ast.Field) bool {
	switch f.Name {
	case "repository":
		owner, name := e.stringArg(f, "owner"), e.stringArg(f, "name")
		notFound := "Could not resolve to a Repository with the name '" + owner + "/" + name + "'."
		if g := e.onlyIssue(f); g != nil {
			return e.repositoryOfIssue(f, g, owner, name, notFound)
		}
		snap, err := e.readIssue(owner, name, 0)
		if err != nil {
			return e.refuse(f, err, notFound)
		}
		return e.repository(f, snap)
	case "organization":
		return e.organization(f, e.stringArg(f, "login"))
	case "node":
		return e.node(f, e.stringArg(f, "id"))
	case "nodes":
		list, _ := e.arg(f, "ids").([]any)
		return e.list(f, len(list), func(i int) bool {
			id, _ := list[i].(string)
			return e.node(f, id)
		})
	case "viewer":
		return e.user(f, e.call.Principal().Login)
	case "rateLimit":
		return e.rateLimit(f)
	}
	return e.null()
}

// organization writes the organization login, whose fields the caller
// may list: one it may not see, or that is not an organization, is
// NOT_FOUND; one it sees without the permission to list fields is there,
// and its issueFields are FORBIDDEN.
func (e *exec) organization(f *ast.Field, login string) bool {
	fields, err := e.call.OrganizationFields(login)
	if err != nil {
		status, _ := e.call.Explain(err)
		if status != 403 {
			return e.refuse(f, err, "Could not resolve to an Organization with the login of '"+login+"'.")
		}
	}
	return e.object("Organization", f.SelectionSet, func(g *ast.Field) bool {
		switch g.Name {
		case "id":
			return e.str(ids.Account(ids.KindOrganization, login))
		case "login":
			return e.str(login)
		case "name":
			return e.null()
		case "url":
			return e.str(e.s.objects.AccountHTMLURL(login))
		case "issueFields":
			if err != nil {
				return e.refuse(g, err, "")
			}
			return e.issueFields(g, login, fields)
		}
		return e.null()
	})
}

// user writes the user login.
func (e *exec) user(f *ast.Field, login string) bool {
	return e.object("User", f.SelectionSet, func(g *ast.Field) bool {
		switch g.Name {
		case "id":
			return e.str(ids.Account(ids.KindUser, login))
		case "login":
			return e.str(login)
		case "url":
			return e.str(e.s.objects.AccountHTMLURL(login))
		}
		return e.null()
	})
}

// rateLimit writes the caller's graphql budget as the primary rate limit's
// headers on the answer tell it, or a full budget when none is kept.
func (e *exec) rateLimit(f *ast.Field) bool {
	h := e.call.Header()
	num := func(key string, def int64) int64 {
		if n, err := strconv.ParseInt(h.Get(key), 10, 64); err == nil {
			return n
		}
		return def
	}
	limit := num("X-Ratelimit-Limit", 5000)
	used := num("X-Ratelimit-Used", 0)
	reset := num("X-Ratelimit-Reset", time.Now().Add(time.Hour).Unix())
	return e.object("RateLimit", f.SelectionSet, func(g *ast.Field) bool {
		switch g.Name {
		case "limit":
			return e.integer(limit)
		case "cost", "nodeCount":
			return e.integer(1)
		case "remaining":
			return e.integer(num("X-Ratelimit-Remaining", limit-used))
		case "used":
			return e.integer(used)
		case "resetAt":
			return e.str(time.Unix(reset, 0).UTC().Format(time.RFC3339))
		}
		return e.null()
	})
}

// node writes the object that the node_id id names, as the caller may see
// it, or null with NOT_FOUND.
func (e *exec) node(f *ast.Field, id string) bool {
	notFound := "Could not resolve to a node with the global id of '" + id + "'"
	n, err := e.s.decode(id)
	if err != nil {
		return e.fail(f, typeNotFound, notFound)
	}
	switch n.Kind {
	case ids.KindIssue:
		snap, ok := e.issueByID(f, n.Issue, notFound)
		if !ok {
			return false
		}
		return e.issue(f, snap)
	case ids.KindRepository:
		repo, ok := e.repositoryByID(n.Repository)
		if !ok {
			return e.fail(f, typeNotFound, notFound)
		}
		snap, err := e.readIssue(repo.Owner, repo.Name, 0)
		if err != nil {
			return e.refuse(f, err, notFound)
		}
		return e.repository(f, snap)
	case ids.KindField, ids.KindOption:
		fields, err := e.call.OrganizationFields(n.Login)
		if err != nil {
			return e.refuse(f, err, notFound)
		}
		field := fieldByID(fields, n.Field)
		if field == nil {
			return e.fail(f, typeNotFound, notFound)
		}
		if n.Kind == ids.KindField {
			return e.field(f, n.Login, field)
		}
		for i := range field.Options {
			if field.Options[i].ID == n.Option {
				return e.option(f, n.Login, field, &field.Options[i])
			}
		}
		return e.fail(f, typeNotFound, notFound)
	case ids.KindValue:
		snap, ok := e.issueByID(f, n.Issue, notFound)
		if !ok {
			return false
		}
		for _, v := range shownValues(snap) {
			if v.field.ID == n.Field {
				return e.value(f, snap, v)
			}
		}
		return e.fail(f, typeNotFound, notFound)
	case ids.KindUser:
		return e.user(f, n.Login)
	}
	return e.fail(f, typeNotFound, notFound)
}

// issueByID reads the issue whose ID is id as ReadIssue does, with the
// caller's access to its repository; it records the error at f when there
// is none to show.
func (e *exec) issueByID(f *ast.Field, id int64, notFound string) (issuefields.Snapshot, bool) {
	if e.s.issues == nil {
		return issuefields.Snapshot{}, e.fail(f, typeNotFound, notFound)
	}
	found, err := e.s.issues.Issues(e.call.Request().Context(), issuefields.IssueQuery{IDs: []int64{id}})
	if err != nil {
		e.fatal = err
		return issuefields.Snapshot{}, false
	}
	if len(found) == 0 {
		return issuefields.Snapshot{}, e.fail(f, typeNotFound, notFound)
	}
	is := found[0]
	snap, err := e.readIssue(is.Repository.Owner, is.Repository.Name, is.Number)
	if err != nil {
		return issuefields.Snapshot{}, e.refuse(f, err, notFound)
	}
	return snap, true
}

// repositoryByID returns the repository whose ID is id.
func (e *exec) repositoryByID(id int64) (issuefields.Repository, bool) {
	if e.s.issues == nil {
		return issuefields.Repository{}, false
	}
	repos, err := e.s.issues.Repositories(e.call.Request().Context())
	if err != nil {
		e.fatal = err
		return issuefields.Repository{}, false
	}
	for _, r := range repos {
		if r.ID == id {
			return r, true
		}
	}
	return issuefields.Repository{}, false
}

// onlyIssue returns the issue field of f, a repository field, when it is
// all that f selects (but for __typename), or nil.
func (e *exec) onlyIssue(f *ast.Field) *ast.Field {
	var issue *ast.Field
	for _, g := range e.fields("Repository", f.SelectionSet) {
		switch {
		case g.Name == "__typename":
		case g.Name == "issue" && issue == nil:
			issue = g
		default:
			return nil
		}
	}
	return issue
}

// repositoryOfIssue writes f, a repository field that selects the issue
// field g alone, with one read: ReadIssue of the issue decides the caller's
// access to the repository as the read of the repository would. Only when
// it fails does a read of the repository alone tell whose error it is.
func (e *exec) repositoryOfIssue(f, g *ast.Field, owner, name, notFound string) bool {
	number, _ := e.intArg(g, "number")
	snap, err := e.readIssue(owner, name, number)
	if err != nil {
		if _, rerr := e.readIssue(owner, name, 0); rerr != nil {
			return e.refuse(f, rerr, notFound)
		}
	}
	return e.object("Repository", f.SelectionSet, func(h *ast.Field) bool {
		if err != nil {
			return e.refuse(h, err, "Could not resolve to an Issue with the number of "+strconv.FormatInt(number, 10)+".")
		}
		return e.issue(h, snap)
	})
}
