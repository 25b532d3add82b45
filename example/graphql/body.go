package graphql

import (
	"encoding/json"
	"strconv"
	"sync"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/jsonskip"
)

// request is the body of a GraphQL request, as its members' JSON: query is
// the query's JSON string, still quoted and escaped, so that a document
// already kept is found by it without decoding it; variables is null or an
// object; operationName null or a string.
type request struct {
	query, variables, operationName []byte
}

// readRequest reads the body, a JSON object (Call.ReadJSON refuses anything
// else with 400, as it refuses a key repeated), and takes its members apart.
// A body without query, or whose members have the wrong types, is 400.
// Other members (extensions, say) are ignored.
func readRequest(c *issuefields.Call) (request, error) {
	body, err := c.ReadJSON()
	if err != nil {
		return request{}, err
	}
	var req request
	members(body, func(key string, value []byte) {
		switch key {
		case "query":
			req.query = value
		case "variables":
			req.variables = value
		case "operationName":
			req.operationName = value
		}
	})
	switch {
	case len(req.query) < 2 || req.query[0] != '"':
		return req, c.BadRequest(`The body needs "query", a GraphQL document as a string.`)
	case req.variables != nil && req.variables[0] != '{' && string(req.variables) != "null":
		return req, c.BadRequest(`"variables" must be an object (or null).`)
	case req.operationName != nil && req.operationName[0] != '"' && string(req.operationName) != "null":
		return req, c.BadRequest(`"operationName" must be a string (or null).`)
	}
	return req, nil
}

// text returns the JSON string s (or null, as "") decoded.
func text(s []byte) string {
	if len(s) == 0 || s[0] != '"' {
		return ""
	}
	if unescaped(s) {
		return string(s[1 : len(s)-1])
	}
	var out string
	_ = json.Unmarshal(s, &out) // s is a valid JSON string
	return out
}

// unescaped reports whether the JSON string s has no escapes.
func unescaped(s []byte) bool {
	for _, c := range s[1 : len(s)-1] {
		if c == '\\' {
			return false
		}
	}
	return true
}

// variablesOf returns the variables of the JSON object (or null) v, valid
// JSON, as encoding/json would decode them into a map[string]any (numbers
// as float64), by a decoder of its own, which costs a fraction of
// json.Unmarshal's reflection for the few small values a request has.
func variablesOf(v []byte) map[string]any {
	if i := jsonskip.Space(v, 0); i == len(v) || v[i] != '{' {
		return nil
	}
	vars, _ := decodeValue(v, 0)
	m, _ := vars.(map[string]any)
	return m
}

// decodeValue decodes the valid JSON value at i of body, and returns it and
// the index past it.
func decodeValue(body []byte, i int) (any, int) {
	i = jsonskip.Space(body, i)
	switch body[i] {
	case '{':
		m := map[string]any{}
		i = jsonskip.Space(body, i+1)
		for body[i] != '}' {
			end := jsonskip.Value(body, i)
			key := keyOf(body[i:end])
			i = jsonskip.Space(body, end) + 1 // the colon
			var v any
			v, i = decodeValue(body, i)
			m[key] = v
			i = jsonskip.Space(body, i)
			if body[i] == ',' {
				i = jsonskip.Space(body, i+1)
			}
		}
		return m, i + 1
	case '[':
		list := []any{}
		i = jsonskip.Space(body, i+1)
		for body[i] != ']' {
			var v any
			v, i = decodeValue(body, i)
			list = append(list, v)
			i = jsonskip.Space(body, i)
			if body[i] == ',' {
				i = jsonskip.Space(body, i+1)
			}
		}
		return list, i + 1
	case '"':
		end := jsonskip.Value(body, i)
		return text(body[i:end]), end
	case 't':
		return true, i + 4
	case 'f':
		return false, i + 5
	case 'n':
		return nil, i + 4
	}
	end := jsonskip.Value(body, i)
	return jsonNumber(body[i:end]), end
}

// jsonNumber returns the valid JSON number n: a small integer without
// converting it to a string first, any other by strconv.
func jsonNumber(n []byte) float64 {
	if len(n) <= 15 {
		var v float64
		digits := true
		for j, c := range n {
			if c < '0' || c > '9' {
				digits = j == 0 && c == '-' && len(n) > 1
				if !digits {
					break
				}
				continue
			}
			v = v*10 + float64(c-'0')
		}
		if digits {
			if n[0] == '-' {
				return -v
			}
			return v
		}
	}
	f, _ := strconv.ParseFloat(string(n), 64)
	return f
}

// keyOf returns the JSON string s, an object's key, decoded: a name of the
// schema (an argument's, an input field's) is the schema's own string, so
// that the keys of the variables a client sends cost no allocation.
func keyOf(s []byte) string {
	if unescaped(s) {
		if name, ok := names()[string(s[1:len(s)-1])]; ok {
			return name
		}
	}
	return text(s)
}

// names are the names of the schema's fields, arguments and input fields.
var names = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	for _, def := range schema().Types {
		for _, f := range def.Fields {
			out[f.Name] = f.Name
			for _, a := range f.Arguments {
				out[a.Name] = a.Name
			}
		}
	}
	return out
})

// members calls member with each key and value of the top-level object of
// body, valid JSON; keys with escapes are passed as they are, unescaped
// (none of the members read has one).
func members(body []byte, member func(key string, value []byte)) {
	i := jsonskip.Space(body, 0)
	if i >= len(body) || body[i] != '{' {
		return
	}
	i++
	for {
		i = jsonskip.Space(body, i)
		if i >= len(body) || body[i] != '"' {
			return
		}
		end := jsonskip.Value(body, i)
		key := body[i+1 : end-1]
		i = jsonskip.Space(body, end)
		i = jsonskip.Space(body, i+1) // the colon
		end = jsonskip.Value(body, i)
		member(string(key), body[i:end])
		i = jsonskip.Space(body, end)
		if i >= len(body) || body[i] != ',' {
			return
		}
		i++
	}
}
