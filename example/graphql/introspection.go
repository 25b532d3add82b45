package graphql

import (
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Introspection (__schema, __type) over the schema that gqlparser loaded:
// the types of the specification's introspection system, written as any
// other object.

// introspectSchema writes __schema.
func (e *exec) introspectSchema(f *ast.Field) bool {
	s := e.s.schema
	return e.object("__Schema", f.SelectionSet, func(g *ast.Field) bool {
		switch g.Name {
		case "description":
			return e.optStr(s.Description)
		case "queryType":
			return e.typeRef(g, &ast.Type{NamedType: s.Query.Name})
		case "mutationType":
			if s.Mutation == nil {
				return e.null()
			}
			return e.typeRef(g, &ast.Type{NamedType: s.Mutation.Name})
		case "subscriptionType":
			return e.null()
		case "types":
			defs := sortedTypes(s)
			return e.list(g, len(defs), func(i int) bool { return e.typeRef(g, &ast.Type{NamedType: defs[i].Name}) })
		case "directives":
			names := sortedKeys(s.Directives)
			return e.list(g, len(names), func(i int) bool { return e.directive(g, s.Directives[names[i]]) })
		}
		return e.null()
	})
}

// introspectType writes __type(name:).
func (e *exec) introspectType(f *ast.Field) bool {
	name := e.stringArg(f, "name")
	if e.s.schema.Types[name] == nil {
		return e.null()
	}
	return e.typeRef(f, &ast.Type{NamedType: name})
}

// typeRef writes t as a __Type: a wrapper (NON_NULL, LIST) or a named type.
func (e *exec) typeRef(f *ast.Field, t *ast.Type) bool {
	var def *ast.Definition
	if !t.NonNull && t.Elem == nil {
		def = e.s.schema.Types[t.NamedType]
	}
	return e.object("__Type", f.SelectionSet, func(g *ast.Field) bool {
		if def == nil {
			switch g.Name {
			case "kind":
				if t.NonNull {
					return e.str("NON_NULL")
				}
				return e.str("LIST")
			case "ofType":
				if t.NonNull {
					inner := *t
					inner.NonNull = false
					return e.typeRef(g, &inner)
				}
				return e.typeRef(g, t.Elem)
			case "fields", "interfaces", "possibleTypes", "enumValues", "inputFields", "name", "description", "specifiedByURL":
				return e.null()
			}
			return e.null()
		}
		return e.definition(g, def)
	})
}

// definition writes a field of the __Type of the named type def.
func (e *exec) definition(g *ast.Field, def *ast.Definition) bool {
	deprecated, _ := e.arg(g, "includeDeprecated").(bool)
	switch g.Name {
	case "kind":
		return e.str(string(def.Kind))
	case "name":
		return e.str(def.Name)
	case "description":
		return e.optStr(def.Description)
	case "specifiedByURL":
		return e.null()
	case "ofType":
		return e.null()
	case "fields":
		if def.Kind != ast.Object && def.Kind != ast.Interface {
			return e.null()
		}
		var fields ast.FieldList
		for _, fd := range def.Fields {
			if !strings.HasPrefix(fd.Name, "__") && (deprecated || fd.Directives.ForName("deprecated") == nil) {
				fields = append(fields, fd)
			}
		}
		return e.list(g, len(fields), func(i int) bool { return e.fieldDef(g, fields[i]) })
	case "interfaces":
		if def.Kind != ast.Object && def.Kind != ast.Interface {
			return e.null()
		}
		return e.list(g, len(def.Interfaces), func(i int) bool { return e.typeRef(g, &ast.Type{NamedType: def.Interfaces[i]}) })
	case "possibleTypes":
		if def.Kind != ast.Interface && def.Kind != ast.Union {
			return e.null()
		}
		types := e.s.schema.PossibleTypes[def.Name]
		return e.list(g, len(types), func(i int) bool { return e.typeRef(g, &ast.Type{NamedType: types[i].Name}) })
	case "enumValues":
		if def.Kind != ast.Enum {
			return e.null()
		}
		return e.list(g, len(def.EnumValues), func(i int) bool {
			v := def.EnumValues[i]
			return e.object("__EnumValue", g.SelectionSet, func(h *ast.Field) bool {
				switch h.Name {
				case "name":
					return e.str(v.Name)
				case "description":
					return e.optStr(v.Description)
				case "isDeprecated":
					return e.boolean(v.Directives.ForName("deprecated") != nil)
				}
				return e.null()
			})
		})
	case "inputFields":
		if def.Kind != ast.InputObject {
			return e.null()
		}
		return e.list(g, len(def.Fields), func(i int) bool {
			fd := def.Fields[i]
			return e.inputValue(g, fd.Name, fd.Description, fd.Type, fd.DefaultValue)
		})
	}
	return e.null()
}

// fieldDef writes fd as a __Field.
func (e *exec) fieldDef(g *ast.Field, fd *ast.FieldDefinition) bool {
	return e.object("__Field", g.SelectionSet, func(h *ast.Field) bool {
		switch h.Name {
		case "name":
			return e.str(fd.Name)
		case "description":
			return e.optStr(fd.Description)
		case "args":
			return e.list(h, len(fd.Arguments), func(i int) bool {
				a := fd.Arguments[i]
				return e.inputValue(h, a.Name, a.Description, a.Type, a.DefaultValue)
			})
		case "type":
			return e.typeRef(h, fd.Type)
		case "isDeprecated":
			return e.boolean(fd.Directives.ForName("deprecated") != nil)
		}
		return e.null()
	})
}

// inputValue writes an argument or an input field as an __InputValue.
func (e *exec) inputValue(g *ast.Field, name, description string, t *ast.Type, def *ast.Value) bool {
	return e.object("__InputValue", g.SelectionSet, func(h *ast.Field) bool {
		switch h.Name {
		case "name":
			return e.str(name)
		case "description":
			return e.optStr(description)
		case "type":
			return e.typeRef(h, t)
		case "defaultValue":
			if def == nil {
				return e.null()
			}
			return e.str(def.String())
		case "isDeprecated":
			return e.boolean(false)
		}
		return e.null()
	})
}

// directive writes d as a __Directive.
func (e *exec) directive(g *ast.Field, d *ast.DirectiveDefinition) bool {
	return e.object("__Directive", g.SelectionSet, func(h *ast.Field) bool {
		switch h.Name {
		case "name":
			return e.str(d.Name)
		case "description":
			return e.optStr(d.Description)
		case "isRepeatable":
			return e.boolean(d.IsRepeatable)
		case "locations":
			return e.list(h, len(d.Locations), func(i int) bool { return e.str(string(d.Locations[i])) })
		case "args":
			return e.list(h, len(d.Arguments), func(i int) bool {
				a := d.Arguments[i]
				return e.inputValue(h, a.Name, a.Description, a.Type, a.DefaultValue)
			})
		}
		return e.null()
	})
}

// sortedTypes returns the schema's named types by name.
func sortedTypes(s *ast.Schema) []*ast.Definition {
	names := sortedKeys(s.Types)
	out := make([]*ast.Definition, len(names))
	for i, n := range names {
		out[i] = s.Types[n]
	}
	return out
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
