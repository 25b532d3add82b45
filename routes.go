package issuefields

import (
	"net/http"
	"strings"
)

// route is one operation of the API. The route table is the single source
// for registration, the permissions header and authorization.
type route struct {
	method string
	// path is the ServeMux pattern of the route's path.
	path string
	// write is true for add, set and delete, which need write permission
	// and push access.
	write bool
	// hasFieldID is true when path has an {issue_field_id}.
	hasFieldID bool
	// permissions is the X-Accepted-<Vendor>-Permissions value: "," joins
	// permissions needed together, "; " separates alternatives.
	permissions string
	// anchor is the operation's anchor in the documentation.
	anchor string
	serve  func(*Handler, *call) error
}

const (
	valuesPath = "/repos/{owner}/{repo}/issues/{issue_number}/issue-field-values"
	valuePath  = valuesPath + "/{issue_field_id}"

	readPermissions  = "issues=read"
	writePermissions = "issues=write; pull_requests=write"
)

var routes = []*route{
	{method: http.MethodGet, path: valuesPath, permissions: readPermissions,
		anchor: "list-issue-field-values-for-an-issue", serve: (*Handler).listValues},
	{method: http.MethodPost, path: valuesPath, write: true, permissions: writePermissions,
		anchor: "add-issue-field-values-to-an-issue", serve: (*Handler).addValues},
	{method: http.MethodPut, path: valuesPath, write: true, permissions: writePermissions,
		anchor: "set-issue-field-values-for-an-issue", serve: (*Handler).setValues},
	{method: http.MethodDelete, path: valuePath, write: true, hasFieldID: true, permissions: writePermissions,
		anchor: "delete-an-issue-field-value-from-an-issue", serve: (*Handler).deleteValue},
}

// registerRoutes registers every route on h.mux, a 405 answer for the other
// methods of each route's path, and a 404 answer for every other path.
func (h *Handler) registerRoutes() {
	allowed := map[string][]string{}
	for _, rt := range routes {
		h.mux.HandleFunc(rt.method+" "+rt.path, func(w http.ResponseWriter, r *http.Request) {
			h.serveRoute(rt, w, r)
		})
		allowed[rt.path] = append(allowed[rt.path], rt.method)
		if rt.method == http.MethodGet {
			allowed[rt.path] = append(allowed[rt.path], http.MethodHead)
		}
	}
	for path, methods := range allowed {
		allow := strings.Join(methods, ", ")
		h.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			if !h.selectVersion(w, r, nil) {
				return
			}
			setHeader(w, "Allow", allow)
			h.writeError(w, r, nil, methodNotAllowed(allow))
		})
	}
	h.mux.HandleFunc("/", h.serveNotFound)
}

// serveNotFound answers a path that is not one of the API's.
func (h *Handler) serveNotFound(w http.ResponseWriter, r *http.Request) {
	if h.selectVersion(w, r, nil) {
		h.writeError(w, r, nil, ErrNotFound)
	}
}
