package graphql

import (
	_ "embed"
	"sync"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

//go:embed schema.graphql
var schemaText string

// schema returns the schema that every request is validated against and
// executed over, loaded once.
var schema = sync.OnceValue(func() *ast.Schema {
	return gqlparser.MustLoadSchema(&ast.Source{Name: "schema.graphql", Input: schemaText, BuiltIn: false})
})

// possible reports whether the object type object is typeName, or one of
// the types of the interface or union typeName, as a fragment's type
// condition asks.
func possible(s *ast.Schema, typeName, object string) bool {
	if typeName == object {
		return true
	}
	for _, d := range s.PossibleTypes[typeName] {
		if d.Name == object {
			return true
		}
	}
	return false
}
