package standin

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// The bounds of one record, which newRequest applies.
const (
	// maxTarget is how many bytes of a request's path and query, together,
	// a record keeps: the path first, then the query.
	maxTarget = 2 << 10
	// maxMethod is how many bytes of a request's method a record keeps.
	maxMethod = 32
	// maxBody is how much of a write's body a record keeps; a longer body
	// is left out, and only its size recorded.
	maxBody = 64 << 10
)

// A Request is what a Journal recorded of one request to the API. It holds
// no token: the caller is named by login.
type Request struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// Query is the request's query string, without its "?", with the
	// values of the parameters that can carry a token or a secret masked.
	Query string `json:"query"`
	// Truncated says that the path and the query together, or the
	// method, were longer than the record keeps (2 KiB, and 32 bytes), and
	// were cut to it.
	Truncated bool `json:"truncated,omitempty"`
	Status    int  `json:"status"`
	// Login is the login of the token's user or app, or "" for a request
	// without a token the server knows.
	Login      string    `json:"login"`
	Time       time.Time `json:"time"`
	DurationMS float64   `json:"duration_ms"`
	// Body is a write's JSON body, with every "secret" member's value
	// masked and every "url" member shown as the page shows a hook's URL;
	// nil for a read, and for a body that is not JSON or is longer than 64
	// KiB, whose size BodySize still gives.
	Body     json.RawMessage `json:"body,omitempty"`
	BodySize int64           `json:"body_size,omitempty"`
	// GraphQL is what a request to the GraphQL API asked: its operation
	// name and query, taken from the first 64 KiB of its body, so that a
	// body too long for Body still shows them (the query then cut there).
	GraphQL *GraphQLRequest `json:"graphql,omitempty"`

	// read is the body as the handler read it, which masked masks into
	// Body: masking when the journal is read keeps the work off the
	// request's path.
	read []byte
	// graphql is the first maxBody bytes of a GraphQL request's body,
	// when read does not hold it whole.
	graphql []byte
}

// GraphQLRequest is what the journal shows of a request to the GraphQL API.
type GraphQLRequest struct {
	OperationName string `json:"operation_name,omitempty"`
	Query         string `json:"query"`
	// QueryTruncated says that the body was longer than the record keeps
	// (64 KiB), and the query was cut there.
	QueryTruncated bool `json:"query_truncated,omitempty"`
}

// newRequest returns the record of a request whose method, path and query
// are these, and of whose body, size bytes long, the first bytes are body;
// the rest of the record is its caller's to fill in. Every record is made
// here, so that each is within the same bounds whatever kind of request it
// records: the method within maxMethod bytes; the path and the query within
// maxTarget bytes together, the query masked by mask after it is cut, so
// that masking reads no more than the record keeps, and cut again if
// masking lengthened it; and the body only when it is not empty and within
// maxBody, in memory of about its size. The strings are copies, so that the
// record holds none of the request's memory: a parsed URL's path and query,
// and the method, share the whole request line.
func newRequest(method, path, query string, mask func(string) string, body []byte, size int64) Request {
	method, methodCut := ownMethod(method)
	path, query, targetCut := cutTarget(path, query)
	_, query, maskedCut := cutTarget(path, mask(query))
	var target strings.Builder // one copy of both
	target.Grow(len(path) + len(query))
	target.WriteString(path)
	target.WriteString(query)
	both := target.String()
	req := Request{Method: method, Path: both[:len(path)], Query: both[len(path):],
		Truncated: methodCut || targetCut || maskedCut, BodySize: size}
	if size > 0 && size <= maxBody && int64(len(body)) == size {
		if cap(body)-len(body) > slack {
			body = bytes.Clone(body) // a buffer that grew by doubling, for a body of unknown length
		}
		req.read = body
	}
	return req
}

// slack is how much room past its end the memory of a recorded body may
// have, as much as Go rounds a large allocation up by; a body with more is
// copied into memory of its size.
const slack = 8 << 10

// ownMethod returns method as a string that the record may keep, and
// whether it was cut: one of net/http's constants, or a copy of at most
// maxMethod bytes.
func ownMethod(method string) (string, bool) {
	for _, known := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodHead, http.MethodOptions} {
		if method == known {
			return known, false
		}
	}
	kept := prefix(method, maxMethod)
	return strings.Clone(kept), len(kept) < len(method)
}

// cutTarget returns path and query cut, together, to within maxTarget
// bytes, the path first, and whether it cut any.
func cutTarget(path, query string) (string, string, bool) {
	if len(path)+len(query) <= maxTarget {
		return path, query, false
	}
	path = prefix(path, maxTarget)
	return path, prefix(query, maxTarget-len(path)), true
}

// prefix returns the longest prefix of s of at most n bytes that ends
// neither within a UTF-8 sequence nor within a %-escape, so that what is
// kept of a name shows no broken character and a cut query still parses.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for i := len(s); i > 0 && i > len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i-1]) {
			if !utf8.FullRuneInString(s[i-1:]) {
				s = s[:i-1]
			}
			break
		}
	}
	if i := strings.LastIndexByte(s, '%'); i >= 0 && i >= len(s)-2 {
		s = s[:i]
	}
	return s
}

// masked returns req with its body masked into Body.
func (req Request) masked() Request {
	if isGraphQL(req.Path) && (req.read != nil || req.graphql != nil) {
		body := req.read
		if body == nil {
			body = req.graphql
		}
		req.GraphQL = graphqlOf(body, req.read == nil)
		req.graphql = nil
	}
	if req.read != nil {
		req.Body, req.read = maskSecrets(req.read), nil
	}
	return req
}

// size returns how many bytes req counts for in a Journal's budget: those it
// points to. A body counts its whole capacity, which the record holds.
func (req *Request) size() int {
	return len(req.Method) + len(req.Path) + len(req.Query) + len(req.Login) + cap(req.read) + cap(req.graphql)
}
