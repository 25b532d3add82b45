package graphql

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// The bounds of execution, as GitHub's.
const (
	maxPage  = 100     // first or last of a connection
	maxIDs   = 100     // ids of nodes(ids:)
	maxNodes = 500_000 // the nodes a query may touch
)

// numbers writes numbers as GitHub's messages do, with thousands separated.
var numbers = message.NewPrinter(language.English)

// operationBounds returns bounds' answer for op, kept with the document when no
// variable gives a first, a last or the ids of nodes (the answer is then the
// same for every request).
func (e *exec) operationBounds(op *ast.OperationDefinition) *gqlError {
	if !e.kept.constantBounds {
		return e.bounds(op.SelectionSet)
	}
	if v, ok := e.kept.bounds.Load(op); ok {
		return v.(*gqlError)
	}
	berr := e.bounds(op.SelectionSet)
	e.kept.bounds.Store(op, berr)
	return berr
}

// bounds checks the bounds of the selection set of an operation with the
// request's variables: a connection whose nodes or edges are selected needs
// first or last, from 1 to 100; nodes(ids:) takes at most 100 ids; and the
// query may touch at most 500,000 nodes, each connection's first (or last)
// times those of the connections around it, added up. It returns the error
// of the first bound broken, or nil.
func (e *exec) bounds(set ast.SelectionSet) *gqlError {
	total := 0
	return e.boundsOf(set, 1, &total)
}

func (e *exec) boundsOf(set ast.SelectionSet, times int, total *int) *gqlError {
	for _, sel := range set {
		var err *gqlError
		switch s := sel.(type) {
		case *ast.Field:
			err = e.fieldBounds(s, times, total)
		case *ast.InlineFragment:
			err = e.boundsOf(s.SelectionSet, times, total)
		case *ast.FragmentSpread:
			if f := e.doc.Fragments.ForName(s.Name); f != nil {
				err = e.boundsOf(f.SelectionSet, times, total)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (e *exec) fieldBounds(f *ast.Field, times int, total *int) *gqlError {
	if f.Definition == nil || len(f.SelectionSet) == 0 {
		return nil
	}
	bad := func(msg string, args ...any) *gqlError {
		return &gqlError{message: numbers.Sprintf(msg, args...), path: nil, locations: locationOf(f.Position),
			extensions: []string{"code", "boundExceeded"}}
	}
	if f.Name == "nodes" && f.ObjectDefinition != nil && f.ObjectDefinition.Name == "Query" {
		ids, _ := e.arg(f, "ids").([]any)
		if len(ids) > maxIDs {
			return bad("You may not request more than %d node IDs; you requested %d.", maxIDs, len(ids))
		}
		return e.boundsOf(f.SelectionSet, times*max(len(ids), 1), total)
	}
	if !strings.HasSuffix(f.Definition.Type.Name(), "Connection") || !e.selectsNodes(f.SelectionSet) {
		return e.boundsOf(f.SelectionSet, times, total)
	}
	first, hasFirst := e.intArg(f, "first")
	last, hasLast := e.intArg(f, "last")
	if !hasFirst && !hasLast {
		return bad("You must provide a `first` or `last` value to properly paginate the `%s` connection.", f.Name)
	}
	n := first
	for _, b := range []struct {
		name  string
		value int64
		given bool
	}{{"first", first, hasFirst}, {"last", last, hasLast}} {
		switch {
		case !b.given:
		case b.value > maxPage:
			return bad("Requesting %d records on the `%s` connection exceeds the `%s` limit of %d records.", b.value, f.Name, b.name, maxPage)
		case b.value < 1:
			return bad("Requesting %d records on the `%s` connection is below the `%s` minimum of 1 record.", b.value, f.Name, b.name)
		}
	}
	if !hasFirst || hasLast && last > first {
		n = last
	}
	times *= int(n)
	*total += times
	if *total > maxNodes {
		return bad("By the time this query traverses to the %s connection, it is requesting up to %d possible nodes which exceeds the maximum limit of %d.", f.Name, *total, maxNodes)
	}
	return e.boundsOf(f.SelectionSet, times, total)
}

// selectsNodes reports whether set, a connection's selection, selects its
// nodes or its edges.
func (e *exec) selectsNodes(set ast.SelectionSet) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "nodes" || s.Name == "edges" {
				return true
			}
		case *ast.InlineFragment:
			if e.selectsNodes(s.SelectionSet) {
				return true
			}
		case *ast.FragmentSpread:
			if f := e.doc.Fragments.ForName(s.Name); f != nil && e.selectsNodes(f.SelectionSet) {
				return true
			}
		}
	}
	return false
}

// boundVariables reports whether a first, a last or the ids of nodes in doc
// is given by a variable.
func boundVariables(doc *ast.QueryDocument) bool {
	return anySelection(doc, func(sel ast.Selection) bool {
		f, ok := sel.(*ast.Field)
		if !ok {
			return false
		}
		for _, a := range f.Arguments {
			if (a.Name == "first" || a.Name == "last" || a.Name == "ids") && !constant(a.Value) {
				return true
			}
		}
		return false
	})
}
