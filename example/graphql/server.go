package graphql

import (
	"context"
	"net/http"
	"sync"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// buffers hold the buffers that answers are appended to: an answer is
// written out before its buffer goes back. A buffer larger than
// maxPooledBuffer, of a large answer, is left to the collector.
var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

const maxPooledBuffer = 64 << 10

// Path is the path of the GraphQL route below the API's prefix.
const Path = "/graphql"

// Config configures a Server.
type Config struct {
	// Store is the store of the issuefields handler the route is mounted
	// on. Lists of issues and node(id:) for issues and repositories need
	// it to be an issuefields.IssueStore; over another store they find
	// none.
	Store issuefields.Store
	// Objects builds the issue objects whose page is an issue's url, as the
	// issue routes' objects are built: its WebURL is where the pages are.
	Objects webhook.Objects
	// RateLimited, when set, tells whether the caller's graphql budget of
	// the primary rate limit is spent, and the message to answer with:
	// then the request is answered 200 with one error of type
	// RATE_LIMITED, and nothing runs.
	RateLimited func(context.Context) (message string, refused bool)
}

// Server serves GraphQL requests.
type Server struct {
	cfg     Config
	schema  *ast.Schema
	objects webhook.Objects
	issues  issuefields.IssueStore
	docs    documents
	decoded bounded[string, decodedID]
	// rendered keeps the answers of issue fields (renderedIssue).
	rendered bounded[renderKey, []byte]
}

// New returns the Server of cfg.
func New(cfg Config) *Server {
	s := &Server{cfg: cfg, schema: schema(), objects: cfg.Objects,
		docs: documents{bounded[string, *document]{max: maxDocuments}}, decoded: bounded[string, decodedID]{max: maxDecoded},
		rendered: bounded[renderKey, []byte]{max: maxRendered}}
	s.issues, _ = cfg.Store.(issuefields.IssueStore)
	return s
}

// Route returns the route that serves POST /graphql, to be mounted on the
// issuefields handler (issuefields.Config.Routes).
func (s *Server) Route() issuefields.Route {
	return issuefields.Route{Method: http.MethodPost, Path: Path, Permissions: "issues=read", Serve: s.serve,
		DocumentationURL: "https://docs.github.com/graphql"}
}

// serve answers one GraphQL request.
func (s *Server) serve(c *issuefields.Call) error {
	if err := c.RequireToken(); err != nil {
		return err
	}
	if s.cfg.RateLimited != nil {
		if msg, refused := s.cfg.RateLimited(c.Request().Context()); refused {
			return answer(c, []gqlError{{message: msg, typ: typeRateLimited}}, false)
		}
	}
	req, err := readRequest(c)
	if err != nil {
		return err
	}
	doc := s.docs.get(req.query)
	if doc.errs != nil {
		return answer(c, doc.errs, false)
	}
	op, msg := operation(doc.doc, text(req.operationName))
	if op == nil {
		return answer(c, []gqlError{{message: msg, locations: []gqlerror.Location{}}}, false)
	}
	vars, verr := coerceVariables(s.schema, op, variablesOf(req.variables))
	if verr != nil {
		return answer(c, []gqlError{*verr}, false)
	}
	e := &exec{s: s, call: c, doc: doc.doc, kept: doc, vars: vars}
	if berr := e.operationBounds(op); berr != nil {
		return answer(c, []gqlError{*berr}, false)
	}
	root := "Query"
	if op.Operation == ast.Mutation {
		root, e.mutating = "Mutation", true
		if err := c.LimitWrites(mutations(e.fields(root, op.SelectionSet))); err != nil {
			_, message := c.Explain(err)
			return answer(c, []gqlError{{message: message, typ: typeRateLimited, locations: locationOf(op.Position)}}, true)
		}
	} else {
		c.ReadOnly()
	}
	buf := buffers.Get().(*[]byte)
	defer func() {
		if cap(e.buf) <= maxPooledBuffer {
			*buf = e.buf[:0]
			buffers.Put(buf)
		}
	}()
	e.buf = append((*buf)[:0], `{"data":`...)
	mark := len(e.buf)
	var ok bool
	if root == "Query" {
		ok = e.object(root, op.SelectionSet, e.query)
	} else {
		ok = e.object(root, op.SelectionSet, e.mutation)
	}
	if e.fatal != nil {
		return e.fatal
	}
	if !ok {
		e.buf = append(e.buf[:mark], "null"...)
	}
	if len(e.errs) > 0 {
		e.buf = append(e.buf, `,"errors":`...)
		e.buf = appendErrors(e.buf, e.errs)
	}
	e.buf = append(e.buf, "}\n"...)
	c.WriteBody(http.StatusOK, e.buf)
	return nil
}

// operation returns the operation of doc that name selects, or nil and why
// none is.
func operation(doc *ast.QueryDocument, name string) (*ast.OperationDefinition, string) {
	if name == "" {
		if len(doc.Operations) != 1 {
			return nil, "An operation name is required"
		}
		op := doc.Operations[0]
		if op.Operation == ast.Subscription {
			return nil, "Subscriptions are not supported"
		}
		return op, ""
	}
	op := doc.Operations.ForName(name)
	if op == nil {
		return nil, "No operation named \"" + name + "\""
	}
	if op.Operation == ast.Subscription {
		return nil, "Subscriptions are not supported"
	}
	return op, ""
}

// answer writes an answer decided before execution: errors alone or, with
// withData, after "data": null, as GitHub answers a document that was
// refused once it was valid (the secondary rate limit).
func answer(c *issuefields.Call, errs []gqlError, withData bool) error {
	buf := make([]byte, 0, 256)
	buf = append(buf, '{')
	if withData {
		buf = append(buf, `"data":null,`...)
	}
	buf = append(buf, `"errors":`...)
	buf = appendErrors(buf, errs)
	buf = append(buf, "}\n"...)
	c.WriteBody(http.StatusOK, buf)
	return nil
}

// mutations returns how many of fields, those of a mutation, are mutations:
// each is one write; __typename is none.
func mutations(fields []*ast.Field) int {
	n := 0
	for _, f := range fields {
		if f.Name != "__typename" {
			n++
		}
	}
	return n
}
