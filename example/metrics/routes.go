package metrics

import (
	"net/http"
	"slices"

	"github.com/issuefields/issuefields/example/internal/toolpath"
)

// routeTemplates are the values of the route label of the metrics: the
// paths of the API's routes, of the issue routes, of the hooks' routes, of
// the health checks and of the tools, below the mount prefix for all but the
// health checks and the tools. Every other path is "other", so that the
// label has a few values whatever clients ask for.
var routeTemplates = []string{
	"/repos/{owner}/{repo}/issues/{issue_number}/issue-field-values",
	"/repos/{owner}/{repo}/issues/{issue_number}/issue-field-values/{issue_field_id}",
	"/orgs/{org}/issue-fields",
	"/orgs/{org}/issue-fields/{issue_field_id}",
	"/repos/{owner}/{repo}/issues",
	"/repos/{owner}/{repo}/issues/{issue_number}",
	"/search/issues",
	"/graphql",
}

// hookTemplates are the paths of the hooks' routes below an organization's
// or a repository's /hooks.
var hookTemplates = []string{
	"",
	"/{hook_id}",
	"/{hook_id}/config",
	"/{hook_id}/deliveries",
	"/{hook_id}/deliveries/{delivery_id}",
	"/{hook_id}/deliveries/{delivery_id}/attempts",
	"/{hook_id}/pings",
}

// otherRoute is the route label of a path that is none of the routes.
const otherRoute = "other"

// routeNames tells the route of a request, whatever its method.
type routeNames struct {
	mux *http.ServeMux
}

// routeName is the handler that routeNames registers for a route: its name.
type routeName string

// ServeHTTP does nothing: routeNames only looks a routeName up.
func (routeName) ServeHTTP(http.ResponseWriter, *http.Request) {}

// newRouteNames returns the route names of a server whose API is mounted at
// prefix ("" for the root).
func newRouteNames(prefix string) *routeNames {
	mux := http.NewServeMux()
	templates := slices.Clone(routeTemplates)
	for _, hooks := range []string{"/orgs/{org}/hooks", "/repos/{owner}/{repo}/hooks"} {
		for _, t := range hookTemplates {
			templates = append(templates, hooks+t)
		}
	}
	for _, t := range templates {
		mux.Handle(prefix+t, routeName(t))
	}
	if prefix == "/api/v3" {
		// GitHub Enterprise Server's GraphQL path, beside its REST API.
		mux.Handle("/api/graphql", routeName("/graphql"))
	}
	for _, t := range []string{"/healthz", "/readyz", toolpath.Root} {
		mux.Handle(t, routeName(t))
	}
	return &routeNames{mux: mux}
}

// name returns the route of r: the template of its path, or "other".
func (n *routeNames) name(r *http.Request) string {
	if h, _ := n.mux.Handler(r); h != nil {
		if name, ok := h.(routeName); ok {
			return string(name)
		}
	}
	return otherRoute
}
