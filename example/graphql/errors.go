package graphql

import (
	"regexp"
	"strconv"

	"github.com/issuefields/issuefields/internal/jsonappend"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// The types of execution errors, as GitHub names them.
const (
	typeNotFound      = "NOT_FOUND"
	typeForbidden     = "FORBIDDEN"
	typeUnprocessable = "UNPROCESSABLE"
	typeRateLimited   = "RATE_LIMITED"
)

// gqlError is one error of an answer: an execution error has a type and a
// path; a validation error has extensions instead, code first.
type gqlError struct {
	message   string
	typ       string
	path      []any // string or int members
	locations []gqlerror.Location
	// extensions are the keys and values of extensions, in order, "code"
	// first.
	extensions []string
}

// appendErrors appends errs as the "errors" member's array.
func appendErrors(buf []byte, errs []gqlError) []byte {
	buf = append(buf, '[')
	for i := range errs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = errs[i].appendJSON(buf)
	}
	return append(buf, ']')
}

// appendJSON appends e as GitHub writes an error.
func (e *gqlError) appendJSON(buf []byte) []byte {
	buf = append(buf, '{')
	if e.typ != "" {
		buf = append(buf, `"type":`...)
		buf = jsonappend.String(buf, e.typ)
		buf = append(buf, ',')
	}
	if e.path != nil {
		buf = append(buf, `"path":`...)
		buf = appendPath(buf, e.path)
		buf = append(buf, ',')
	}
	if len(e.extensions) > 0 {
		buf = append(buf, `"extensions":{`...)
		for i := 0; i+1 < len(e.extensions); i += 2 {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = jsonappend.String(buf, e.extensions[i])
			buf = append(buf, ':')
			buf = jsonappend.String(buf, e.extensions[i+1])
		}
		buf = append(buf, "},"...)
	}
	buf = append(buf, `"locations":[`...)
	for i, l := range e.locations {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"line":`...)
		buf = strconv.AppendInt(buf, int64(l.Line), 10)
		buf = append(buf, `,"column":`...)
		buf = strconv.AppendInt(buf, int64(l.Column), 10)
		buf = append(buf, '}')
	}
	buf = append(buf, `],"message":`...)
	buf = jsonappend.String(buf, e.message)
	return append(buf, '}')
}

// appendPath appends path as a JSON array.
func appendPath(buf []byte, path []any) []byte {
	buf = append(buf, '[')
	for i, p := range path {
		if i > 0 {
			buf = append(buf, ',')
		}
		switch p := p.(type) {
		case int:
			buf = strconv.AppendInt(buf, int64(p), 10)
		case string:
			buf = jsonappend.String(buf, p)
		}
	}
	return append(buf, ']')
}

// locationOf returns the location of pos, for an error.
func locationOf(pos *ast.Position) []gqlerror.Location {
	if pos == nil {
		return []gqlerror.Location{}
	}
	return []gqlerror.Location{{Line: pos.Line, Column: pos.Column}}
}

// A validation error of gqlparser is reworded as GitHub words it, where
// clients read the words: github-mcp-server reads "doesn't exist on type"
// and "doesn't accept argument" to decide to fall back to a query without
// issue fields. Each pattern matches the library's message; the others keep
// the library's words, with the rule's name as their code.
var rewordings = []struct {
	rule    string
	pattern *regexp.Regexp
	reword  func(m []string) (message string, extensions []string)
}{
	{"FieldsOnCorrectType", regexp.MustCompile(`^Cannot query field "([^"]*)" on type "([^"]*)"`),
		func(m []string) (string, []string) {
			return "Field '" + m[1] + "' doesn't exist on type '" + m[2] + "'",
				[]string{"code", "undefinedField", "typeName", m[2], "fieldName", m[1]}
		}},
	{"KnownArgumentNames", regexp.MustCompile(`^Unknown argument "([^"]*)" on field "([^".]*)\.([^"]*)"`),
		func(m []string) (string, []string) {
			return "Field '" + m[3] + "' doesn't accept argument '" + m[1] + "'",
				[]string{"code", "argumentNotAccepted", "name", m[3], "typeName", "Field", "argumentName", m[1]}
		}},
	{"ProvidedRequiredArguments", regexp.MustCompile(`^Field "([^"]*)" argument "([^"]*)" of type "[^"]*" is required`),
		func(m []string) (string, []string) {
			return "Field '" + m[1] + "' is missing required arguments: " + m[2],
				[]string{"code", "missingRequiredArguments", "className", "Field", "name", m[1], "arguments", m[2]}
		}},
	{"KnownTypeNames", regexp.MustCompile(`^Unknown type "([^"]*)"`),
		func(m []string) (string, []string) {
			return m[1] + " isn't a defined input type", []string{"code", "undefinedType", "typeName", m[1]}
		}},
	{"FragmentsOnCompositeTypes", regexp.MustCompile(`^Fragment cannot condition on non composite type "([^"]*)"`),
		func(m []string) (string, []string) {
			return "Invalid fragment on type " + m[1], []string{"code", "fragmentOnNonCompositeType", "typeName", m[1]}
		}},
	{"PossibleFragmentSpreads", regexp.MustCompile(`^Fragment cannot be spread here as objects of type "([^"]*)" can never be of type "([^"]*)"`),
		func(m []string) (string, []string) {
			return "Fragment on " + m[2] + " can't be spread inside " + m[1],
				[]string{"code", "cannotSpreadFragment", "typeName", m[2], "fragmentName", "unknown", "parentName", m[1]}
		}},
}

// validationError returns e, an error of gqlparser's parser or validator,
// as an error of the answer.
func validationError(e *gqlerror.Error) gqlError {
	out := gqlError{message: e.Message, locations: e.Locations}
	if out.locations == nil {
		out.locations = []gqlerror.Location{}
	}
	for _, r := range rewordings {
		if r.rule != e.Rule {
			continue
		}
		if m := r.pattern.FindStringSubmatch(e.Message); m != nil {
			out.message, out.extensions = r.reword(m)
			return out
		}
	}
	code := e.Rule
	if code == "" {
		code = "parseError"
	}
	out.extensions = []string{"code", code}
	return out
}
