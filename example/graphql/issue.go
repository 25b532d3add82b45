package graphql

import (
	"cmp"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/ids"
	"github.com/issuefields/issuefields/webhook"
	"github.com/vektah/gqlparser/v2/ast"
)

// issue writes the issue of snap (snap.Issue, in snap.Repository, whose
// fields are snap.Fields), which the caller may read.
func (e *exec) issue(f *ast.Field, snap issuefields.Snapshot) bool { return e.renderedIssue(f, snap) }

// issueObject writes the issue of snap, as issue does, without the kept
// answers.
func (e *exec) issueObject(f *ast.Field, snap issuefields.Snapshot) bool {
	is := &snap.Issue
	// object is the issue as REST shows it, made once, for what the
	// record leaves to defaults (title, author, times, the page's URL).
	var object *webhook.IssueObject
	obj := func() *webhook.IssueObject {
		if object == nil {
			o := e.s.objects.Issue(snap, nil)
			object = &o
		}
		return object
	}
	return e.object("Issue", f.SelectionSet, func(g *ast.Field) bool {
		switch g.Name {
		case "id":
			return e.str(ids.Issue(is.ID))
		case "databaseId":
			return e.integer(is.ID)
		case "fullDatabaseId":
			return e.integerString(is.ID)
		case "number":
			return e.integer(is.Number)
		case "title":
			return e.str(obj().Title)
		case "body":
			return e.str(is.Body)
		case "state":
			return e.str(strings.ToUpper(cmp.Or(is.State, "open")))
		case "stateReason":
			return e.optStr(strings.ToUpper(is.StateReason))
		case "closed":
			return e.boolean(is.State == "closed")
		case "url":
			return e.str(e.s.objects.IssueHTMLURL(is.Repository, is.Number))
		case "createdAt":
			return e.time(obj().CreatedAt)
		case "updatedAt":
			return e.time(obj().UpdatedAt)
		case "closedAt":
			if c := obj().ClosedAt; c != nil {
				return e.time(*c)
			}
			return e.null()
		case "author":
			return e.user(g, obj().User.Login)
		case "labels":
			w := e.page(g, len(is.Labels))
			return e.connection(g, "LabelConnection", w, func(i int, h *ast.Field) bool {
				name := is.Labels[i]
				return e.object("Label", h.SelectionSet, func(k *ast.Field) bool {
					switch k.Name {
					case "id":
						return e.str(ids.Label(snap.Repository.ID, name))
					case "name":
						return e.str(name)
					case "color":
						return e.str("ededed")
					}
					return e.null()
				})
			})
		case "assignees":
			return e.connection(g, "UserConnection", e.page(g, len(is.Assignees)), func(i int, h *ast.Field) bool {
				return e.user(h, is.Assignees[i])
			})
		case "comments":
			return e.connection(g, "IssueCommentConnection", window{}, nil)
		case "closedByPullRequestsReferences":
			return e.connection(g, "PullRequestConnection", window{}, nil)
		case "repository":
			repo := snap
			repo.Issue, repo.IssueErr = issuefields.Issue{}, nil
			return e.repository(g, repo)
		case "parent":
			return e.null()
		case "subIssuesSummary":
			return e.object("SubIssuesSummary", g.SelectionSet, func(*ast.Field) bool { return e.integer(0) })
		case "issueFieldValues":
			values := shownValues(snap)
			return e.connection(g, "IssueFieldValueConnection", e.page(g, len(values)), func(i int, h *ast.Field) bool {
				return e.value(h, snap, values[i])
			})
		}
		return e.null()
	})
}

// time writes t as a DateTime.
func (e *exec) time(t time.Time) bool {
	e.buf = append(e.buf, '"')
	e.buf = t.UTC().AppendFormat(e.buf, time.RFC3339)
	e.buf = append(e.buf, '"')
	return true
}

// integerString writes n as a BigInt: a string of its digits.
func (e *exec) integerString(n int64) bool {
	e.buf = append(e.buf, '"')
	e.integer(n)
	e.buf = append(e.buf, '"')
	return true
}
