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
	// op is what the route does, as authorization sees it.
	op Operation
	// hasFieldID is true when path has an {issue_field_id}.
	hasFieldID bool
	// permissions is the X-Accepted-<Vendor>-Permissions value: "," joins
	// permissions needed together, "; " separates alternatives.
	permissions string
	// anchor is the operation's anchor in the documentation.
	anchor string
	// resolve authenticates and authorizes the caller and finds what the
	// path names; serve then answers.
	resolve func(*Handler, *call) error
	serve   func(*Handler, *call) error
}

// writes reports whether rt changes something: it counts toward the
// secondary rate limit, and some errors answer it otherwise than a list.
func (rt *route) writes() bool { return rt.op.writes() }

const (
	valuesPath = "/repos/{owner}/{repo}/issues/{issue_number}/issue-field-values"
	valuePath  = valuesPath + "/{issue_field_id}"

	readPermissions  = "issues=read"
	writePermissions = "issues=write; pull_requests=write"

	orgFieldsPath = "/orgs/{org}/issue-fields"
	orgFieldPath  = orgFieldsPath + "/{issue_field_id}"

	fieldsReadPermissions  = "issue_fields=read"
	fieldsWritePermissions = "issue_fields=write"
)

var routes = []*route{
	{method: http.MethodGet, path: valuesPath, op: ListValues, permissions: readPermissions,
		anchor: "list-issue-field-values-for-an-issue", resolve: (*Handler).resolve, serve: (*Handler).listValues},
	{method: http.MethodPost, path: valuesPath, op: WriteValues, permissions: writePermissions,
		anchor: "add-issue-field-values-to-an-issue", resolve: (*Handler).resolve, serve: (*Handler).addValues},
	{method: http.MethodPut, path: valuesPath, op: WriteValues, permissions: writePermissions,
		anchor: "set-issue-field-values-for-an-issue", resolve: (*Handler).resolve, serve: (*Handler).setValues},
	{method: http.MethodDelete, path: valuePath, op: WriteValues, hasFieldID: true, permissions: writePermissions,
		anchor: "delete-an-issue-field-value-from-an-issue", resolve: (*Handler).resolve, serve: (*Handler).deleteValue},
	{method: http.MethodGet, path: orgFieldsPath, op: ListFields, permissions: fieldsReadPermissions,
		anchor: "list-issue-fields-for-an-organization", resolve: (*Handler).resolveOrganization, serve: (*Handler).listFields},
	{method: http.MethodPost, path: orgFieldsPath, op: ManageFields, permissions: fieldsWritePermissions,
		anchor: "create-an-issue-field-for-an-organization", resolve: (*Handler).resolveOrganization, serve: (*Handler).createField},
	{method: http.MethodPatch, path: orgFieldPath, op: ManageFields, hasFieldID: true, permissions: fieldsWritePermissions,
		anchor: "update-an-issue-field-for-an-organization", resolve: (*Handler).resolveOrganization, serve: (*Handler).updateField},
	{method: http.MethodDelete, path: orgFieldPath, op: ManageFields, hasFieldID: true, permissions: fieldsWritePermissions,
		anchor: "delete-an-issue-field-for-an-organization", resolve: (*Handler).resolveOrganization, serve: (*Handler).deleteField},
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
