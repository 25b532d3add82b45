package graphql

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// coerceVariables returns the variables of op, from vars as the body's JSON
// decodes them, coerced to their declared types as the specification says
// (an integral number for an Int, a string for an ID, one item for a list,
// defaults filled in), or the error of the first that does not fit, in
// GitHub's words. It walks the declared types directly, where gqlparser's
// VariableValues goes through reflection, so that a request pays little
// for its variables.
func coerceVariables(s *ast.Schema, op *ast.OperationDefinition, vars map[string]any) (map[string]any, *gqlError) {
	out := make(map[string]any, len(op.VariableDefinitions))
	for _, d := range op.VariableDefinitions {
		v, ok := vars[d.Variable]
		if !ok {
			if d.DefaultValue != nil {
				dv, err := d.DefaultValue.Value(nil)
				if err != nil {
					return nil, variableError(d, " ("+err.Error()+")")
				}
				out[d.Variable] = dv
				continue
			}
			if d.Type.NonNull {
				return nil, variableError(d, " (Expected value to not be null)")
			}
			continue
		}
		c, problem := coerce(s, d.Type, v, "")
		if problem != "" {
			return nil, variableError(d, problem)
		}
		out[d.Variable] = c
	}
	return out, nil
}

// variableError is the error of the variable d, given a value that does not
// fit, for problem.
func variableError(d *ast.VariableDefinition, problem string) *gqlError {
	return &gqlError{message: "Variable $" + d.Variable + " of type " + d.Type.String() + " was provided invalid value" + problem,
		locations: locationOf(d.Position), extensions: []string{"code", "variableMismatch"}}
}

// coerce returns v coerced to t, or what is wrong with it, at path (a
// dotted path of input fields and list indexes, "" at the top).
func coerce(s *ast.Schema, t *ast.Type, v any, path string) (any, string) {
	at := func(problem string) string {
		if path == "" {
			return " (" + problem + ")"
		}
		return " for " + path + " (" + problem + ")"
	}
	if v == nil {
		if t.NonNull {
			return nil, at("Expected value to not be null")
		}
		return nil, ""
	}
	if t.Elem != nil {
		list, ok := v.([]any)
		if !ok {
			list = []any{v}
		}
		out := make([]any, len(list))
		for i, item := range list {
			c, problem := coerce(s, t.Elem, item, join(path, strconv.Itoa(i)))
			if problem != "" {
				return nil, problem
			}
			out[i] = c
		}
		return out, ""
	}
	def := s.Types[t.NamedType]
	if def == nil {
		return nil, at("Unknown type " + t.NamedType)
	}
	switch def.Kind {
	case ast.InputObject:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, at("Expected value to be an object")
		}
		out := make(map[string]any, len(obj))
		for key := range obj {
			if def.Fields.ForName(key) == nil {
				return nil, at("Field is not defined on " + def.Name + ": " + key)
			}
		}
		for _, f := range def.Fields {
			fv, ok := obj[f.Name]
			if !ok {
				if f.DefaultValue != nil {
					out[f.Name], _ = f.DefaultValue.Value(nil)
				} else if f.Type.NonNull {
					return nil, " for " + join(path, f.Name) + " (Expected value to not be null)"
				}
				continue
			}
			c, problem := coerce(s, f.Type, fv, join(path, f.Name))
			if problem != "" {
				return nil, problem
			}
			out[f.Name] = c
		}
		return out, ""
	case ast.Enum:
		name, ok := v.(string)
		if !ok || def.EnumValues.ForName(name) == nil {
			return nil, at(fmt.Sprintf("Expected %s to be one of: %s", jsonish(v), enumNames(def)))
		}
		return name, ""
	}
	return scalar(def.Name, v, at)
}

// scalar returns v coerced to the scalar type name, or what is wrong with
// it, through at.
func scalar(name string, v any, at func(string) string) (any, string) {
	switch name {
	case "Int":
		if f, ok := v.(float64); ok && f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32 {
			return int64(f), ""
		}
		return nil, at("Could not coerce value " + jsonish(v) + " to Int")
	case "Float":
		if f, ok := v.(float64); ok {
			return f, ""
		}
		return nil, at("Could not coerce value " + jsonish(v) + " to Float")
	case "Boolean":
		if b, ok := v.(bool); ok {
			return b, ""
		}
		return nil, at("Could not coerce value " + jsonish(v) + " to Boolean")
	case "ID":
		switch x := v.(type) {
		case string:
			return x, ""
		case float64:
			if x == math.Trunc(x) {
				return strconv.FormatInt(int64(x), 10), ""
			}
		}
		return nil, at("Could not coerce value " + jsonish(v) + " to ID")
	}
	// String and the custom scalars (DateTime, URI, BigInt, Date) are
	// strings.
	if str, ok := v.(string); ok {
		return str, ""
	}
	return nil, at("Could not coerce value " + jsonish(v) + " to " + name)
}

// join returns path.name, or name at the top.
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// jsonish returns v as a message shows it.
func jsonish(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}

// enumNames returns the values of the enum def, joined.
func enumNames(def *ast.Definition) string {
	names := make([]string, len(def.EnumValues))
	for i, v := range def.EnumValues {
		names[i] = v.Name
	}
	return strings.Join(names, ", ")
}
