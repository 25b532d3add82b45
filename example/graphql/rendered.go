package graphql

import (
	"github.com/issuefields/issuefields"
	"github.com/vektah/gqlparser/v2/ast"
)

// An issue field's answer depends on the issue's record alone, when what it
// selects reads nothing else: its version, its repository as the Snapshot
// shows it and its organization's fields. Then the answer is kept, as the
// handler keeps a rendered values list under its ETag, and a query sent
// again for an issue that has not changed appends the kept bytes. Every
// input is in the key: a new version, a renamed repository or a change of
// the fields (a store hands out a new slice of fields when they change, and
// never changes one it handed out; the key holds the slice, so its memory is
// not reused while the entry lives) is a new key.

// renderKey names an issue field's answer.
type renderKey struct {
	field   *ast.Field
	repo    issuefields.Repository
	issue   issuefields.IssueKey
	version issuefields.Version
	fields  *issuefields.Field
	nfields int
}

// The bounds of the kept answers: how many, and the largest kept.
const (
	maxRendered      = 4096
	maxRenderedBytes = 16 << 10
)

// renderedIssue writes the issue field f of snap, from the kept answer when
// there is one, and keeps the answer it writes when f may be kept. A
// mutation's answer is never kept nor taken: what it reads beyond the issue
// depends on the caller's read access (readable), which the key lacks.
func (e *exec) renderedIssue(f *ast.Field, snap issuefields.Snapshot) bool {
	if e.mutating || !e.kept.selfContained(f) {
		return e.issueObject(f, snap)
	}
	key := renderKey{field: f, repo: snap.Repository, issue: snap.Issue.Key(), version: snap.Issue.Version, nfields: len(snap.Fields)}
	if len(snap.Fields) > 0 {
		key.fields = &snap.Fields[0]
	}
	if b, ok := e.s.rendered.get(key); ok {
		e.buf = append(e.buf, b...)
		return true
	}
	mark, errs := len(e.buf), len(e.errs)
	if !e.issueObject(f, snap) {
		return false
	}
	if n := len(e.buf) - mark; len(e.errs) == errs && e.fatal == nil && n <= maxRenderedBytes {
		e.s.rendered.put(key, append([]byte(nil), e.buf[mark:]...))
	}
	return true
}

// reads reports whether the answer of f depends on more than the issue's
// record: a field of Query (a read of the store, the caller, the budget), a
// repository's issue or issues (reads of the store), introspection.
func reads(f *ast.Field) bool {
	parent := ""
	if f.ObjectDefinition != nil {
		parent = f.ObjectDefinition.Name
	}
	switch {
	case parent == "" || parent == "Query" || parent == "Mutation", f.Name == "__schema", f.Name == "__type":
		return true
	case parent == "Repository":
		return f.Name == "issue" || f.Name == "issues"
	}
	return false
}

// selfContained reports whether the answer of f, an issue field, depends on
// the issue's record alone: what it selects has no variable, no directive
// and nothing that reads (its own arguments only chose the issue). It decides once for each field of the document.
func (d *document) selfContained(f *ast.Field) bool {
	if v, ok := d.contained.Load(f); ok {
		return v.(bool)
	}
	// f's own arguments chose the issue, which is in the key.
	contained := d.cacheable && d.containedIn(f.SelectionSet)
	d.contained.Store(f, contained)
	return contained
}

func (d *document) containedIn(set ast.SelectionSet) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if reads(s) || !d.containedIn(s.SelectionSet) {
				return false
			}
			for _, a := range s.Arguments {
				if !constant(a.Value) {
					return false
				}
			}
		case *ast.InlineFragment:
			if !d.containedIn(s.SelectionSet) {
				return false
			}
		case *ast.FragmentSpread:
			if fr := d.doc.Fragments.ForName(s.Name); fr == nil || !d.containedIn(fr.SelectionSet) {
				return false
			}
		}
	}
	return true
}

// constant reports whether v names no variable.
func constant(v *ast.Value) bool {
	if v == nil {
		return true
	}
	if v.Kind == ast.Variable {
		return false
	}
	for _, c := range v.Children {
		if !constant(c.Value) {
			return false
		}
	}
	return true
}
