package webhook

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/issuefields/issuefields"
)

// NewRoutes returns GitHub's webhook routes for organizations and
// repositories, so that a tool subscribes to the issue field events as it
// would on GitHub (go-github's CreateHook, ListHookDeliveries,
// RedeliverHookDelivery and PingHook, and their twins, unchanged):
//
//	GET, POST            /orgs/{org}/hooks
//	GET, PATCH, DELETE   /orgs/{org}/hooks/{hook_id}
//	GET, PATCH           /orgs/{org}/hooks/{hook_id}/config
//	GET                  /orgs/{org}/hooks/{hook_id}/deliveries
//	GET                  /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}
//	POST                 /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}/attempts
//	POST                 /orgs/{org}/hooks/{hook_id}/pings
//
// and the same under /repos/{owner}/{repo}. A host gives them to the
// issuefields.Handler's Config.Routes, which serves them beside the API,
// under the same prefix and through the same pipeline: the version header,
// authentication, the error answers, panic recovery and the log are the
// API's. The routes decide who may use them, and what they do with the
// hooks. NewRoutes returns an error that names what is missing in cfg.
func NewRoutes(cfg RoutesConfig) ([]issuefields.Route, error) {
	var errs []error
	if cfg.Store == nil {
		errs = append(errs, errors.New("RoutesConfig.Store is nil"))
	}
	if cfg.Notifier == nil {
		errs = append(errs, errors.New("RoutesConfig.Notifier is nil"))
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("webhook.NewRoutes: %w", errors.Join(errs...))
	}
	rt := &routes{store: cfg.Store, hooks: cfg.Notifier.store, notifier: cfg.Notifier}
	rt.fields, _ = cfg.Store.(issuefields.FieldManager)
	var out []issuefields.Route
	for _, org := range []bool{true, false} {
		for _, route := range hookRoutes {
			path, doc := repoHooksPath+route.suffix, repoHooksDoc+"#"+route.repoAnchor
			if org {
				path, doc = orgHooksPath+route.suffix, orgHooksDoc+"#"+route.orgAnchor
			}
			out = append(out, issuefields.Route{Method: route.method, Path: path,
				Permissions: permission(org, route.write), DocumentationURL: doc,
				Serve: func(call *issuefields.Call) error {
					return rt.serve(&hookCall{Call: call, route: route, org: org})
				}})
		}
	}
	return out, nil
}

// RoutesConfig configures the routes of NewRoutes. Store and Notifier are
// required.
type RoutesConfig struct {
	// Store finds the repositories of the repository routes; when it is an
	// issuefields.FieldManager, it finds the organizations of the
	// organization routes too, which otherwise answer 404.
	Store issuefields.Store

	// Notifier keeps the hooks (its Options.Store), and sends pings and
	// redeliveries; its BaseURL is that of the hooks' URLs in answers.
	Notifier *Notifier
}

// routes are what the routes of NewRoutes serve requests with.
type routes struct {
	store    issuefields.Store
	fields   issuefields.FieldManager // store's, or nil: no organization is known
	hooks    Store
	notifier *Notifier
}

// A hookRoute is one route of the table: its method and its pattern's suffix
// below the scope's /hooks, whether it writes, its operation, and its anchors
// in GitHub's documentation of organizations' and of repositories' webhooks.
type hookRoute struct {
	method, suffix string
	write          bool
	serve          func(*routes, *hookCall) error
	orgAnchor      string
	repoAnchor     string
}

var hookRoutes = []hookRoute{
	{"GET", "", false, (*routes).listHooks, "list-organization-webhooks", "list-repository-webhooks"},
	{"POST", "", true, (*routes).createHook, "create-an-organization-webhook", "create-a-repository-webhook"},
	{"GET", "/{hook_id}", false, (*routes).getHook, "get-an-organization-webhook", "get-a-repository-webhook"},
	{"PATCH", "/{hook_id}", true, (*routes).updateHook, "update-an-organization-webhook", "update-a-repository-webhook"},
	{"DELETE", "/{hook_id}", true, (*routes).deleteHook, "delete-an-organization-webhook", "delete-a-repository-webhook"},
	{"GET", "/{hook_id}/config", false, (*routes).getConfig,
		"get-a-webhook-configuration-for-an-organization", "get-a-webhook-configuration-for-a-repository"},
	{"PATCH", "/{hook_id}/config", true, (*routes).updateConfig,
		"update-a-webhook-configuration-for-an-organization", "update-a-webhook-configuration-for-a-repository"},
	{"GET", "/{hook_id}/deliveries", false, (*routes).listDeliveries,
		"list-deliveries-for-an-organization-webhook", "list-deliveries-for-a-repository-webhook"},
	{"GET", "/{hook_id}/deliveries/{delivery_id}", false, (*routes).getDelivery,
		"get-a-webhook-delivery-for-an-organization-webhook", "get-a-delivery-for-a-repository-webhook"},
	{"POST", "/{hook_id}/deliveries/{delivery_id}/attempts", true, (*routes).redeliver,
		"redeliver-a-delivery-for-an-organization-webhook", "redeliver-a-delivery-for-a-repository-webhook"},
	{"POST", "/{hook_id}/pings", true, (*routes).ping, "ping-an-organization-webhook", "ping-a-repository-webhook"},
}

// The prefixes of the routes of organizations' and repositories' hooks,
// and their documentation pages.
const (
	orgHooksPath  = "/orgs/{org}/hooks"
	repoHooksPath = "/repos/{owner}/{repo}/hooks"
	orgHooksDoc   = "https://docs.github.com/rest/orgs/webhooks"
	repoHooksDoc  = "https://docs.github.com/rest/repos/webhooks"
)

// hookCall is one request to one route, as it is being served.
type hookCall struct {
	*issuefields.Call
	route hookRoute
	org   bool // an organization's route

	scope Scope
	repo  *issuefields.Repository // for a repository's route
	owner string                  // the organization's login, or the repository's full name, for messages
}

// serve finds the scope of c's path and authorizes the caller on it, then
// runs the route's operation.
func (rt *routes) serve(c *hookCall) error {
	if err := rt.findScope(c); err != nil {
		return err
	}
	return c.route.serve(rt, c)
}

// permission returns the X-Accepted-<Vendor>-Permissions of a route of an
// organization's hooks (org is set) or a repository's, that writes or not.
func permission(org, write bool) string {
	name, level := "repository_hooks", "read"
	if org {
		name = "organization_hooks"
	}
	if write {
		level = "write"
	}
	return name + "=" + level
}

// findScope finds the organization or the repository of c's path, and the
// scope of its hooks, and authorizes c's caller on it: an organization's
// before the store is asked about it, so that a caller refused learns
// nothing of which organizations exist; a repository's once it is found,
// since who may see it depends on whether it is private. One that does not
// exist is 404.
func (rt *routes) findScope(c *hookCall) error {
	r := c.Request()
	if c.org {
		org := r.PathValue("org")
		c.scope, c.owner = Scope{Organization: org}, org
		if err := rt.authorize(c); err != nil {
			return err
		}
		if rt.fields == nil {
			return issuefields.ErrNotFound
		}
		_, err := rt.fields.OrganizationFields(c.ctx(), org)
		return err
	}
	snap, err := rt.store.Snapshot(c.ctx(), r.PathValue("owner"), r.PathValue("repo"), 1)
	if err != nil {
		return err
	}
	c.repo = &snap.Repository
	c.scope, c.owner = Scope{RepositoryID: snap.Repository.ID}, snap.Repository.Owner+"/"+snap.Repository.Name
	return rt.authorize(c)
}

// hookID returns the hook_id of c's path, or 404.
func (c *hookCall) hookID() (int64, error) { return pathID(c.Request(), "hook_id") }

// pathID returns the positive integer path value name of r, or 404.
func pathID(r *http.Request, name string) (int64, error) {
	s := r.PathValue(name)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || s[0] == '0' || s[0] == '+' {
		return 0, issuefields.ErrNotFound
	}
	return n, nil
}

// validationItem is one item of the errors of a 422: GitHub's
// validation-error.
type validationItem struct {
	Resource string `json:"resource"`
	Field    string `json:"field,omitempty"`
	Code     string `json:"code"`
	Message  string `json:"message,omitempty"`
}

// invalid returns the 422 of problems, the problems of a body.
func (c *hookCall) invalid(problems ...validationItem) error {
	items := make([]any, len(problems))
	for i := range problems {
		items[i] = problems[i]
	}
	return c.Invalid(items...)
}

// ctx returns the context of the store calls of c.
func (c *hookCall) ctx() context.Context { return c.Request().Context() }
