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
	// fields keeps the fields that exec.fields collects for an object
	// type from a selection set, when the document has no @skip or
	// @include (whose variables could change them), by fieldsKey.
	fields    sync.Map
	cacheable bool
	// contained keeps selfContained's decision for each issue field.
	contained sync.Map
	// bounds keeps the answer of the bounds for each operation, when
	// constantBounds says it is the same for every request.
	bounds         sync.Map
	constantBounds bool
}

// fieldsKey names a selection set, by the address of its first item and its
// length (a set that merging made has an array of its own), and the type of
// the object it is collected for.
type fieldsKey struct {
	typ   string
	first *ast.Selection
	n     int
}

// documents keeps documents by their text (the JSON string of the body),
// so that a query sent again is neither parsed nor validated again.
type documents struct{ bounded[string, *document] }

// maxDocuments bounds the documents kept: a few thousand queries of up to
// 64 KiB each at the very worst.
const maxDocuments = 1024

// get returns the document of query, a JSON string as the body has it,
// parsed and validated once.
func (d *documents) get(query []byte) *document {
	d.mu.RLock()
	doc, ok := d.m[string(query)] // a lookup by the body's bytes copies nothing
	d.mu.RUnlock()
	if ok {
		return doc
	}
	doc = prepare(text(query))
	d.put(string(query), doc)
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
	return &document{doc: doc, cacheable: !hasDirectives(doc), constantBounds: !hasDirectives(doc) && !boundVariables(doc)}
}

// hasDirectives reports whether a selection of doc has a directive.
func hasDirectives(doc *ast.QueryDocument) bool {
	return anySelection(doc, func(sel ast.Selection) bool {
		switch s := sel.(type) {
		case *ast.Field:
			return len(s.Directives) > 0
		case *ast.InlineFragment:
			return len(s.Directives) > 0
		case *ast.FragmentSpread:
			return len(s.Directives) > 0
		}
		return false
	})
}

// anySelection reports whether is holds for a selection of doc, in its
// operations or its fragments, at any depth (a fragment spread's fragment is
// among the fragments).
func anySelection(doc *ast.QueryDocument, is func(ast.Selection) bool) bool {
	var in func(set ast.SelectionSet) bool
	in = func(set ast.SelectionSet) bool {
		for _, sel := range set {
			if is(sel) {
				return true
			}
			switch s := sel.(type) {
			case *ast.Field:
				if in(s.SelectionSet) {
					return true
				}
			case *ast.InlineFragment:
				if in(s.SelectionSet) {
					return true
				}
			}
		}
		return false
	}
	for _, op := range doc.Operations {
		if in(op.SelectionSet) {
			return true
		}
	}
	for _, f := range doc.Fragments {
		if in(f.SelectionSet) {
			return true
		}
	}
	return false
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
