package graphql

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/jsonappend"
	"github.com/vektah/gqlparser/v2/ast"
)

// exec is the execution of one operation: it appends the answer's data to
// buf, and collects errors.
type exec struct {
	s    *Server
	call *issuefields.Call
	doc  *ast.QueryDocument
	// kept is the document as kept, whose collected fields exec reuses.
	kept *document
	vars map[string]any
	buf  []byte
	errs []gqlError
	path []any
	// mutating is set for a mutation, whose reads readable checks.
	mutating bool
	// fatal is a failure that no part of the answer can show (the store
	// is down, say): the request is answered with it, as REST would.
	fatal error
}

// fail records an error of type typ at the field f, whose value becomes
// null.
func (e *exec) fail(f *ast.Field, typ, message string) bool {
	e.errs = append(e.errs, gqlError{message: message, typ: typ, path: append([]any(nil), e.path...),
		locations: locationOf(f.Position)})
	return false
}

// fields returns the fields of set that apply to an object of type typ, in
// order, with fragments spread, skipped and included ones decided, and the
// fields of one response name merged.
func (e *exec) fields(typ string, set ast.SelectionSet) []*ast.Field {
	if len(set) == 0 {
		return nil
	}
	cache := e.kept != nil && e.kept.cacheable
	if cache {
		if f, ok := e.kept.fields.Load(fieldsKey{typ, &set[0], len(set)}); ok {
			return f.([]*ast.Field)
		}
	}
	var out []*ast.Field
	e.collect(typ, set, &out)
	if cache {
		e.kept.fields.Store(fieldsKey{typ, &set[0], len(set)}, out)
	}
	return out
}

func (e *exec) collect(typ string, set ast.SelectionSet, out *[]*ast.Field) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if !e.included(s.Directives) {
				continue
			}
			merged := false
			for i, f := range *out {
				if f.Alias == s.Alias {
					if len(s.SelectionSet) > 0 {
						m := *f
						m.SelectionSet = append(append(ast.SelectionSet(nil), f.SelectionSet...), s.SelectionSet...)
						(*out)[i] = &m
					}
					merged = true
					break
				}
			}
			if !merged {
				*out = append(*out, s)
			}
		case *ast.InlineFragment:
			if e.included(s.Directives) && (s.TypeCondition == "" || possible(e.s.schema, s.TypeCondition, typ)) {
				e.collect(typ, s.SelectionSet, out)
			}
		case *ast.FragmentSpread:
			if f := e.doc.Fragments.ForName(s.Name); f != nil && e.included(s.Directives) && possible(e.s.schema, f.TypeCondition, typ) {
				e.collect(typ, f.SelectionSet, out)
			}
		}
	}
}

// included decides @skip and @include.
func (e *exec) included(ds ast.DirectiveList) bool {
	for _, d := range ds {
		if d.Name != "skip" && d.Name != "include" {
			continue
		}
		v, _ := valueOf(d.Arguments.ForName("if"), e.vars).(bool)
		if v == (d.Name == "skip") {
			return false
		}
	}
	return true
}

// valueOf returns the value of arg, nil when it is absent.
func valueOf(arg *ast.Argument, vars map[string]any) any {
	if arg == nil || arg.Value == nil {
		return nil
	}
	v, err := arg.Value.Value(vars)
	if err != nil {
		return nil
	}
	return v
}

// arg returns the value of f's argument name, or its default.
func (e *exec) arg(f *ast.Field, name string) any {
	if a := f.Arguments.ForName(name); a != nil {
		return valueOf(a, e.vars)
	}
	if f.Definition != nil {
		if d := f.Definition.Arguments.ForName(name); d != nil && d.DefaultValue != nil {
			v, _ := d.DefaultValue.Value(nil)
			return v
		}
	}
	return nil
}

// stringArg returns f's string (or ID) argument name, "" when absent.
func (e *exec) stringArg(f *ast.Field, name string) string {
	s, _ := e.arg(f, name).(string)
	return s
}

// intArg returns f's Int argument name, and whether it was given.
func (e *exec) intArg(f *ast.Field, name string) (int64, bool) {
	switch v := e.arg(f, name).(type) {
	case int64:
		return v, true
	case int:
		return int64(v), true
	case float64:
		return int64(v), true
	case string:
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// objectFunc writes the value of one field of an object into e.buf, and
// returns false when it is null for an error (recorded).
type objectFunc func(f *ast.Field) bool

// object writes an object of type typ: the fields of set, each through
// field, __typename by itself. A field whose value fails is null, or, when
// its type is non-null, makes the object fail.
func (e *exec) object(typ string, set ast.SelectionSet, field objectFunc) bool {
	e.buf = append(e.buf, '{')
	for i, f := range e.fields(typ, set) {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = jsonappend.String(e.buf, f.Alias)
		e.buf = append(e.buf, ':')
		mark := len(e.buf)
		e.path = append(e.path, f.Alias)
		var ok bool
		switch f.Name {
		case "__typename":
			e.buf, ok = jsonappend.String(e.buf, typ), true
		case "__schema":
			ok = e.introspectSchema(f)
		case "__type":
			ok = e.introspectType(f)
		default:
			ok = field(f)
		}
		e.path = e.path[:len(e.path)-1]
		if !ok {
			if e.fatal != nil || f.Definition == nil || f.Definition.Type.NonNull {
				return false
			}
			e.buf = append(e.buf[:mark], "null"...)
		}
	}
	e.buf = append(e.buf, '}')
	return true
}

// list writes a list of n items, each through item. A failed item is null,
// or, when the items are non-null, fails the list.
func (e *exec) list(f *ast.Field, n int, item func(i int) bool) bool {
	e.buf = append(e.buf, '[')
	nonNull := f.Definition != nil && f.Definition.Type.Elem != nil && f.Definition.Type.Elem.NonNull
	for i := range n {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		mark := len(e.buf)
		e.path = append(e.path, i)
		ok := item(i)
		e.path = e.path[:len(e.path)-1]
		if !ok {
			if nonNull || e.fatal != nil {
				return false
			}
			e.buf = append(e.buf[:mark], "null"...)
		}
	}
	e.buf = append(e.buf, ']')
	return true
}

// Leaf writers: each appends a value and reports success.

func (e *exec) str(s string) bool { e.buf = jsonappend.String(e.buf, s); return true }

func (e *exec) optStr(s string) bool {
	if s == "" {
		return e.null()
	}
	return e.str(s)
}

func (e *exec) null() bool { e.buf = append(e.buf, "null"...); return true }

func (e *exec) integer(n int64) bool { e.buf = strconv.AppendInt(e.buf, n, 10); return true }

func (e *exec) boolean(b bool) bool { e.buf = strconv.AppendBool(e.buf, b); return true }

func (e *exec) float(f float64) bool { e.buf = jsonappend.Float(e.buf, f); return true }

// window is the part of a connection's items that its arguments select:
// the items from start up to end.
type window struct{ start, end, total int }

// page returns the window of a connection of n items that f's first,
// after, last and before select. The bounds were checked before execution.
func (e *exec) page(f *ast.Field, n int) window {
	w := window{start: 0, end: n, total: n}
	if after, ok := cursorIndex(e.stringArg(f, "after")); ok {
		w.start = min(after+1, n)
	}
	if before, ok := cursorIndex(e.stringArg(f, "before")); ok {
		w.end = max(min(before, n), w.start)
	}
	if first, ok := e.intArg(f, "first"); ok && int(first) < w.end-w.start {
		w.end = w.start + int(first)
	}
	if last, ok := e.intArg(f, "last"); ok && int(last) < w.end-w.start {
		w.start = w.end - int(last)
	}
	return w
}

// cursorPrefix begins every cursor, before the item's position.
const cursorPrefix = "cursor:"

// appendCursor appends the cursor of the item at index i.
func appendCursor(buf []byte, i int) []byte {
	var raw [32]byte
	b := strconv.AppendInt(append(raw[:0], cursorPrefix...), int64(i), 10)
	buf = append(buf, '"')
	buf = base64.StdEncoding.AppendEncode(buf, b)
	return append(buf, '"')
}

// cursorIndex returns the index that cursor names.
func cursorIndex(cursor string) (int, bool) {
	if cursor == "" {
		return 0, false
	}
	b, err := base64.StdEncoding.DecodeString(cursor)
	if err != nil || !strings.HasPrefix(string(b), cursorPrefix) {
		return 0, false
	}
	n, err := strconv.Atoi(string(b[len(cursorPrefix):]))
	return n, err == nil && n >= 0
}

// connection writes a connection of typ (FooConnection, whose edges are
// FooEdge) over items of w, each node written by node with its index.
func (e *exec) connection(f *ast.Field, typ string, w window, node func(i int, f *ast.Field) bool) bool {
	edge := strings.TrimSuffix(typ, "Connection") + "Edge"
	return e.object(typ, f.SelectionSet, func(g *ast.Field) bool {
		switch g.Name {
		case "totalCount":
			return e.integer(int64(w.total))
		case "nodes":
			return e.list(g, w.end-w.start, func(i int) bool { return node(w.start+i, g) })
		case "edges":
			return e.list(g, w.end-w.start, func(i int) bool {
				return e.object(edge, g.SelectionSet, func(h *ast.Field) bool {
					switch h.Name {
					case "cursor":
						e.buf = appendCursor(e.buf, w.start+i)
						return true
					case "node":
						return node(w.start+i, h)
					}
					return e.null()
				})
			})
		case "pageInfo":
			return e.object("PageInfo", g.SelectionSet, func(h *ast.Field) bool {
				empty := w.end <= w.start
				switch h.Name {
				case "hasNextPage":
					return e.boolean(w.end < w.total)
				case "hasPreviousPage":
					return e.boolean(w.start > 0)
				case "startCursor":
					if empty {
						return e.null()
					}
					e.buf = appendCursor(e.buf, w.start)
					return true
				case "endCursor":
					if empty {
						return e.null()
					}
					e.buf = appendCursor(e.buf, w.end-1)
					return true
				}
				return e.null()
			})
		}
		return e.null()
	})
}
