package graphql

import (
	"errors"
	"fmt"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// The bounds of a document, as GitHub's.
const (
	maxDocumentBytes = 64 << 10
	maxDepth         = 25
)

// document is a query text as parsed and validated: the document, or the
// errors that refuse it (a parse or validation error, or a bound).
type document struct {
	doc  *ast.QueryDocument
	errs []gqlError
}

// documents keeps documents by their text, so that a query sent again is
// neither parsed nor validated again. It keeps at most max of them; when it
// is full it forgets one at random to make room, which keeps it simple and
// lock-cheap, and a client's few queries stay in it.
type documents struct {
	mu  sync.RWMutex
	max int
	m   map[string]*document
}

// maxDocuments bounds the documents kept: a few thousand queries of up to
// 64 KiB each at the very worst.
const maxDocuments = 1024

// get returns the document of query, parsed and validated once.
func (d *documents) get(query string) *document {
	d.mu.RLock()
	doc, ok := d.m[query]
	d.mu.RUnlock()
	if ok {
		return doc
	}
	doc = prepare(query)
	d.mu.Lock()
	if d.m == nil {
		d.m = make(map[string]*document)
	}
	if len(d.m) >= d.max {
		for k := range d.m {
			delete(d.m, k)
			break
		}
	}
	d.m[query] = doc
	d.mu.Unlock()
	return doc
}

// validationRules are gqlparser's rules, without the suggestions ("Did you
// mean …?") that GitHub's messages do not have.
var validationRules = sync.OnceValue(func() *rules.Rules {
	r := rules.NewDefaultRules()
	r.ReplaceRule(rules.FieldsOnCorrectTypeRule.Name, rules.FieldsOnCorrectTypeRuleWithoutSuggestions.RuleFunc)
	r.ReplaceRule(rules.KnownArgumentNamesRule.Name, rules.KnownArgumentNamesRuleWithoutSuggestions.RuleFunc)
	return r
})

// prepare parses and validates query, and checks its depth.
func prepare(query string) *document {
	if len(query) > maxDocumentBytes {
		return &document{errs: []gqlError{{
			message:    fmt.Sprintf("Query is too large: %d bytes exceeds the maximum of %d bytes.", len(query), maxDocumentBytes),
			locations:  []gqlerror.Location{},
			extensions: []string{"code", "queryTooLarge"}}}}
	}
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		var ge *gqlerror.Error
		if !errors.As(err, &ge) {
			ge = gqlerror.Wrap(err)
		}
		return &document{errs: []gqlError{validationError(ge)}}
	}
	if list := validator.ValidateWithRules(schema(), doc, validationRules()); len(list) > 0 {
		errs := make([]gqlError, len(list))
		for i, e := range list {
			errs[i] = validationError(e)
			errs[i].path = pathAt(doc, e.Locations)
		}
		return &document{errs: errs}
	}
	for _, op := range doc.Operations {
		if depth := depthOf(doc, op.SelectionSet, 0); depth > maxDepth {
			return &document{errs: []gqlError{{
				message:    fmt.Sprintf("Query has depth of %d, which exceeds max depth of %d", depth, maxDepth),
				locations:  locationOf(op.Position),
				extensions: []string{"code", "maxDepthExceeded"}}}}
		}
	}
	return &document{doc: doc}
}

// depthOf returns the depth of set, at depth: the most fields nested in one
// another, through fragments (which validation proved free of cycles).
func depthOf(doc *ast.QueryDocument, set ast.SelectionSet, depth int) int {
	deepest := depth
	for _, s := range set {
		var d int
		switch s := s.(type) {
		case *ast.Field:
			if len(s.SelectionSet) == 0 {
				d = depth + 1
			} else {
				d = depthOf(doc, s.SelectionSet, depth+1)
			}
		case *ast.InlineFragment:
			d = depthOf(doc, s.SelectionSet, depth)
		case *ast.FragmentSpread:
			if f := doc.Fragments.ForName(s.Name); f != nil {
				d = depthOf(doc, f.SelectionSet, depth)
			}
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// pathAt returns the path of the field at locs, an error's location, as
// GitHub gives a validation error's: the operation ("query", or "query
// Name") or the fragment ("fragment Name"), then the fields down to it; nil
// when no field is there.
func pathAt(doc *ast.QueryDocument, locs []gqlerror.Location) []any {
	if len(locs) != 1 {
		return nil
	}
	for _, op := range doc.Operations {
		root := string(op.Operation)
		if op.Name != "" {
			root += " " + op.Name
		}
		if p := fieldPath(op.SelectionSet, locs[0], []any{root}); p != nil {
			return p
		}
	}
	for _, f := range doc.Fragments {
		if p := fieldPath(f.SelectionSet, locs[0], []any{"fragment " + f.Name}); p != nil {
			return p
		}
	}
	return nil
}

// fieldPath returns path followed by the fields of set down to the one at
// loc, or nil.
func fieldPath(set ast.SelectionSet, loc gqlerror.Location, path []any) []any {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			here := append(path[:len(path):len(path)], s.Alias)
			if s.Position != nil && s.Position.Line == loc.Line && s.Position.Column == loc.Column {
				return here
			}
			if p := fieldPath(s.SelectionSet, loc, here); p != nil {
				return p
			}
		case *ast.InlineFragment:
			if p := fieldPath(s.SelectionSet, loc, path); p != nil {
				return p
			}
		}
	}
	return nil
}
