package standin

import (
	"encoding/json"
	"strings"
)

// isGraphQL reports whether path is the GraphQL API's: /graphql below the
// prefix, or GitHub Enterprise Server's /api/graphql.
func isGraphQL(path string) bool { return strings.HasSuffix(path, "/graphql") }

// graphqlOf returns the operation name and the query of body, a GraphQL
// request's body or, when cut is set, the first bytes of one: a query that
// the cut ends is shown up to it, marked truncated.
func graphqlOf(body []byte, cut bool) *GraphQLRequest {
	var whole struct {
		Query         string `json:"query"`
		OperationName string `json:"operationName"`
	}
	if !cut && json.Unmarshal(body, &whole) == nil {
		return &GraphQLRequest{OperationName: whole.OperationName, Query: whole.Query}
	}
	out := &GraphQLRequest{QueryTruncated: cut}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return out
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			break
		}
		start := dec.InputOffset()
		var value any
		if err := dec.Decode(&value); err != nil {
			if key == "query" {
				out.Query = partialString(body[start:])
			}
			break
		}
		switch s, _ := value.(string); key {
		case "query":
			out.Query = s
		case "operationName":
			out.OperationName = s
		}
	}
	return out
}

// partialString returns what a JSON string that begins in raw, after white
// space and a colon, and that raw cuts, holds up to the cut.
func partialString(raw []byte) string {
	s := strings.TrimLeft(string(raw), " \t\r\n:")
	s = strings.TrimPrefix(s, `"`)
	var out string
	for len(s) > 0 {
		if json.Unmarshal([]byte(`"`+s+`"`), &out) == nil {
			return out
		}
		s = s[:len(s)-1]
	}
	return ""
}
