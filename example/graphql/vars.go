package graphql

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
)

// coerceVariables returns the variables of op, from vars as the body's JSON
// decodes them, coerced to their declared types as the specification says
// (an integral number for an Int, a string for an ID, one item for a list,
// defaults filled in), or the error of the first that does not fit, in
// GitHub's words. It walks the declared types directly, where gqlparser's
// VariableValues goes through reflection, and coerces the decoded values in
// place (they are the request's own), so that a request pays little for its
// variables.
func coerceVariables(s *ast.Schema, op *ast.OperationDefinition, vars map[string]any) (map[string]any, *gqlError) {
	out := make(map[string]any, len(op.VariableDefinitions))
	for _, d := range op.VariableDefinitions {
		v, ok := vars[d.Variable]
		if !ok {
			if d.DefaultValue != nil {
				dv, err := d.DefaultValue.Value(nil)
				if err != nil {
					return nil, variableError(d, &problem{message: err.Error()})
				}
				out[d.Variable] = dv
				continue
			}
			if d.Type.NonNull {
				return nil, variableError(d, &problem{message: "Expected value to not be null"})
			}
			continue
		}
		c, p := coerce(s, d.Type, v)
		if p != nil {
			return nil, variableError(d, p)
		}
		out[d.Variable] = c
	}
	return out, nil
}

// problem is what is wrong with a variable's value, and where: the input
// fields and list indexes down to it, the innermost first, added as the
// error goes back up (so that a value that fits builds no path).
type problem struct {
	message string
	at      []string
}

// in returns p with segment before its path.
func (p *problem) in(segment string) *problem {
	p.at = append(p.at, segment)
	return p
}

// variableError is the error of the variable d, given a value that does not
// fit, for p.
func variableError(d *ast.VariableDefinition, p *problem) *gqlError {
	where := ""
	if len(p.at) > 0 {
		path := make([]string, len(p.at))
		for i, seg := range p.at {
			path[len(p.at)-1-i] = seg
		}
		where = " for " + strings.Join(path, ".")
	}
	return &gqlError{message: "Variable $" + d.Variable + " of type " + d.Type.String() + " was provided invalid value" + where + " (" + p.message + ")",
		locations: locationOf(d.Position), extensions: []string{"code", "variableMismatch"}}
}

// coerce returns v coerced to t, or what is wrong with it.
func coerce(s *ast.Schema, t *ast.Type, v any) (any, *problem) {
	if v == nil {
		if t.NonNull {
			return nil, &problem{message: "Expected value to not be null"}
		}
		return nil, nil
	}
	if t.Elem != nil {
		list, ok := v.([]any)
		if !ok {
			list = []any{v}
		}
		// The decoder made list for this request alone: it is coerced in
		// place.
		for i, item := range list {
			c, p := coerce(s, t.Elem, item)
			if p != nil {
				return nil, p.in(strconv.Itoa(i))
			}
			list[i] = c
		}
		return list, nil
	}
	def := s.Types[t.NamedType]
	if def == nil {
		return nil, &problem{message: "Unknown type " + t.NamedType}
	}
	switch def.Kind {
	case ast.InputObject:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, &problem{message: "Expected value to be an object"}
		}
		// As the list, obj is the request's own, coerced in place.
		for key, fv := range obj {
			f := def.Fields.ForName(key)
			if f == nil {
				return nil, &problem{message: "Field is not defined on " + def.Name + ": " + key}
			}
			c, p := coerce(s, f.Type, fv)
			if p != nil {
				return nil, p.in(f.Name)
			}
			if !same(c, fv) {
				obj[key] = c
			}
		}
		for _, f := range filledFields()[def] {
			if _, ok := obj[f.Name]; ok {
				continue
			}
			if f.DefaultValue == nil {
				return nil, (&problem{message: "Expected value to not be null"}).in(f.Name)
			}
			obj[f.Name], _ = f.DefaultValue.Value(nil)
		}
		return obj, nil
	case ast.Enum:
		name, ok := v.(string)
		if !ok || def.EnumValues.ForName(name) == nil {
			return nil, &problem{message: fmt.Sprintf("Expected %s to be one of: %s", jsonish(v), enumNames(def))}
		}
		return v, nil
	}
	return scalar(def.Name, v)
}

// scalar returns v coerced to the scalar type name, or what is wrong with
// it.
func scalar(name string, v any) (any, *problem) {
	switch name {
	case "Int":
		if f, ok := v.(float64); ok && f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32 {
			return int64(f), nil
		}
	case "Float":
		if _, ok := v.(float64); ok {
			return v, nil
		}
	case "Boolean":
		if _, ok := v.(bool); ok {
			return v, nil
		}
	case "ID":
		switch x := v.(type) {
		case string:
			return v, nil
		case float64:
			if x == math.Trunc(x) {
				return strconv.FormatInt(int64(x), 10), nil
			}
		}
	default:
		// String and the custom scalars (DateTime, URI, BigInt) are
		// strings.
		if _, ok := v.(string); ok {
			return v, nil
		}
	}
	return nil, &problem{message: "Could not coerce value " + jsonish(v) + " to " + name}
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

// same reports whether a coerced value is the value it was coerced from,
// which then needs no storing back: a scalar, an enum, an object or a list
// coerced in place come back as they went in.
func same(c, v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false // a list made of one item, or an object, is stored back
	}
	return c == v
}

// filledFields returns, for each input object type of the schema, the
// fields that a value must have or that a default fills in: the others may
// be left out, and need no look at a value that leaves them out.
var filledFields = sync.OnceValue(func() map[*ast.Definition][]*ast.FieldDefinition {
	out := map[*ast.Definition][]*ast.FieldDefinition{}
	for _, def := range schema().Types {
		if def.Kind != ast.InputObject {
			continue
		}
		for _, f := range def.Fields {
			if f.DefaultValue != nil || f.Type.NonNull {
				out[def] = append(out[def], f)
			}
		}
	}
	return out
})
