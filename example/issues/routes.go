package issues

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// Config configures the routes of Routes. Store is required.
type Config struct {
	// Store is the store the handler serves. Over a Store that is not an
	// issuefields.IssueStore, the list, the create and the search answer
	// 404, as they cannot list or create issues.
	Store issuefields.Store

	// Objects builds the issue objects of the answers, with the API's and
	// the web pages' addresses.
	Objects webhook.Objects
}

// The paths of the routes, below the handler's prefix.
const (
	issuePath  = "/repos/{owner}/{repo}/issues/{issue_number}"
	issuesPath = "/repos/{owner}/{repo}/issues"
	searchPath = "/search/issues"
)

// The permissions headers of the routes.
const (
	readPermission  = "issues=read"
	writePermission = "issues=write"
)

// docURL is GitHub's page of the issue routes, whose anchors the error
// bodies point to.
const docURL = "https://docs.github.com/rest/issues/issues"

// Routes returns the issue routes, for a Handler's Config.Routes:
//
//	GET    /repos/{owner}/{repo}/issues/{issue_number}
//	PATCH  /repos/{owner}/{repo}/issues/{issue_number}
//	GET    /repos/{owner}/{repo}/issues
//	POST   /repos/{owner}/{repo}/issues
//	GET    /search/issues
//
// It returns an error that names what is missing in cfg.
func Routes(cfg Config) ([]issuefields.Route, error) {
	if cfg.Store == nil {
		return nil, errors.New("issues.Routes: Config.Store is nil")
	}
	s := &server{objects: cfg.Objects}
	s.store, _ = cfg.Store.(Store)
	return []issuefields.Route{
		{Method: http.MethodGet, Path: issuePath, Permissions: readPermission,
			DocumentationURL: docURL + "#get-an-issue", Serve: s.get},
		{Method: http.MethodPatch, Path: issuePath, Permissions: writePermission,
			DocumentationURL: docURL + "#update-an-issue", Serve: s.update},
		{Method: http.MethodGet, Path: issuesPath, Permissions: readPermission,
			DocumentationURL: docURL + "#list-repository-issues", Serve: s.list},
		{Method: http.MethodPost, Path: issuesPath, Permissions: writePermission,
			DocumentationURL: docURL + "#create-an-issue", Serve: s.create},
		{Method: http.MethodGet, Path: searchPath, Permissions: readPermission,
			DocumentationURL: "https://docs.github.com/rest/search/search#search-issues-and-pull-requests", Serve: s.search},
	}, nil
}

// server is what the routes serve requests with.
type server struct {
	// store is the store the handler serves, or nil when it is not an
	// IssueStore.
	store   Store
	objects webhook.Objects
}

// errNoIssueStore answers the list, the create and the search over a
// Store that is not an IssueStore.
var errNoIssueStore = fmt.Errorf("%w: the store does not list issues", issuefields.ErrNotFound)

// object returns the issue of snap as GitHub's issue object, with the
// values that the values list gives.
func (s *server) object(c *issuefields.Call, snap issuefields.Snapshot) webhook.IssueObject {
	return s.objects.Issue(snap, c.RenderValues(snap))
}

// answer answers with status and the issue of snap, with its ETag.
func (s *server) answer(c *issuefields.Call, status int, snap issuefields.Snapshot) error {
	c.Header().Set("Etag", c.ETag(snap))
	return c.WriteJSON(status, s.object(c, snap))
}

// path returns the owner and the repository name that c's path names.
func path(c *issuefields.Call) (owner, name string) {
	return c.Request().PathValue("owner"), c.Request().PathValue("repo")
}
