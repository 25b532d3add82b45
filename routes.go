package issuefields

import (
	"cmp"
	"net/http"
	"slices"
	"strings"
)

// route is one operation of the API. The route table is the single source
// for registration, the permissions header, authorization, the rate limit
// and the documentation anchors.
type route struct {
	method string
	// path is the ServeMux pattern of the route's path.
	path string
	// op is what the route does, as authorization sees it.
	op operation
	// permissions is the X-Accepted-<Vendor>-Permissions value: "," joins
	// permissions needed together, "; " separates alternatives.
	permissions string
	// doc is the address of the documentation page of the route's errors,
	// or "" for the handler's documentation URL, and anchor the route's
	// anchor on that page.
	doc, anchor string
	// serve answers a request that matched the route.
	serve func(*Handler, *call) error
}

const (
	valuesPath = "/repos/{owner}/{repo}/issues/{issue_number}/issue-field-values"
	valuePath  = valuesPath + "/{issue_field_id}"

	orgFieldsPath = "/orgs/{org}/issue-fields"
	orgFieldPath  = orgFieldsPath + "/{issue_field_id}"

	// fieldsDocumentationURL is GitHub's page of the field management
	// routes.
	fieldsDocumentationURL = "https://docs.github.com/rest/orgs/issue-fields"
)

var routes = []*route{
	{method: http.MethodGet, path: valuesPath, op: listValues, permissions: "issues=read",
		anchor: "list-issue-field-values-for-an-issue", serve: (*Handler).listValues},
	{method: http.MethodPost, path: valuesPath, op: writeValues, permissions: "issues=write; pull_requests=write",
		anchor: "add-issue-field-values-to-an-issue", serve: (*Handler).addValues},
	{method: http.MethodPut, path: valuesPath, op: writeValues, permissions: "issues=write; pull_requests=write",
		anchor: "set-issue-field-values-for-an-issue", serve: (*Handler).setValues},
	{method: http.MethodDelete, path: valuePath, op: writeValues, permissions: "issues=write; pull_requests=write",
		anchor: "delete-an-issue-field-value-from-an-issue", serve: (*Handler).deleteValue},
	{method: http.MethodGet, path: orgFieldsPath, op: listFields, permissions: "issue_fields=read",
		doc: fieldsDocumentationURL, anchor: "list-issue-fields-for-an-organization", serve: (*Handler).listFields},
	{method: http.MethodPost, path: orgFieldsPath, op: manageFields, permissions: "issue_fields=write",
		doc: fieldsDocumentationURL, anchor: "create-an-issue-field-for-an-organization", serve: (*Handler).createField},
	{method: http.MethodPatch, path: orgFieldPath, op: manageFields, permissions: "issue_fields=write",
		doc: fieldsDocumentationURL, anchor: "update-an-issue-field-for-an-organization", serve: (*Handler).updateField},
	{method: http.MethodDelete, path: orgFieldPath, op: manageFields, permissions: "issue_fields=write",
		doc: fieldsDocumentationURL, anchor: "delete-an-issue-field-for-an-organization", serve: (*Handler).deleteField},
}

// registerRoutes registers every route of the API and mounted, the routes
// of Config.Routes, on h.mux, a 405 answer for the other methods of each
// route's path, and a 404 answer for every other path.
func (h *Handler) registerRoutes(mounted []Route) {
	all := slices.Clone(routes)
	for _, mr := range mounted {
		all = append(all, mountedRoute(mr))
	}
	allowed := map[string][]string{}
	for _, rt := range all {
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

// documentationURL returns the documentation address of rt's errors, or the
// handler's for a request that matched no route.
func (h *Handler) documentationURL(rt *route) string {
	switch {
	case rt == nil:
		return h.docURL
	case rt.anchor == "": // a Route's
		return cmp.Or(rt.doc, h.docURL)
	case rt.doc != "":
		return rt.doc + "#" + rt.anchor
	}
	return h.docURL + "#" + rt.anchor
}
