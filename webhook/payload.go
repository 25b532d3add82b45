package webhook

import (
	"cmp"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/ids"
)

// EventName is the event of the deliveries of writes: GitHub's issues event,
// the value of their X-<Vendor>-Event header.
const EventName = "issues"

// eventPing is the event of a ping delivery.
const eventPing = "ping"

// The actions of the deliveries of writes, the body's "action".
const (
	// ActionFieldAdded says that a field got a value, new or changed.
	ActionFieldAdded = "field_added"
	// ActionFieldRemoved says that a field's value was removed.
	ActionFieldRemoved = "field_removed"
)

// The bodies of deliveries are GitHub's webhook payloads: the components
// webhook-issues-field-added, webhook-issues-field-removed and webhook-ping
// of GitHub's REST description, every required property of every nested
// object present (compat validates them against the schemas). What the store
// does not hold comes from the Directory, or is a documented default.

// issuesEvent is the body of the delivery of one field's change.
type issuesEvent struct {
	Action          string         `json:"action"`
	Changes         *changes       `json:"changes,omitempty"`
	Issue           IssueObject    `json:"issue"`
	IssueField      issueField     `json:"issue_field"`
	IssueFieldValue *fieldValue    `json:"issue_field_value,omitempty"`
	Repository      repository     `json:"repository"`
	Organization    *organization  `json:"organization,omitempty"`
	Sender          simpleUser     `json:"sender"`
	Installation    *simpleInstall `json:"installation,omitempty"`
}

// changes holds the value a field had before a field_added that changed it.
type changes struct {
	IssueFieldValue struct {
		From *fieldValue `json:"from"`
	} `json:"issue_field_value"`
}

// issueField is the field of a delivery.
type issueField struct {
	ID        int64                `json:"id"`
	Name      string               `json:"name"`
	FieldType issuefields.DataType `json:"field_type"`
}

// fieldValue is a value of a delivery: an id of the value itself and its
// node_id (that of the values list's item), then by data type value;
// value_id and option; or value_ids and options.
type fieldValue struct {
	ID       int64    `json:"id"`
	NodeID   string   `json:"node_id"`
	Value    any      `json:"value,omitempty"`
	ValueID  int64    `json:"value_id,omitempty"`
	Option   *option  `json:"option,omitempty"`
	ValueIDs []int64  `json:"value_ids,omitempty"`
	Options  []option `json:"options,omitempty"`
}

// option is a selected option of a value.
type option struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Color       string  `json:"color"`
	Description *string `json:"description"`
}

// reactions is an issue's reaction rollup; nobody reacts here.
type reactions struct {
	URL        string `json:"url"`
	TotalCount int    `json:"total_count"`
	PlusOne    int    `json:"+1"`
	MinusOne   int    `json:"-1"`
	Laugh      int    `json:"laugh"`
	Confused   int    `json:"confused"`
	Heart      int    `json:"heart"`
	Hooray     int    `json:"hooray"`
	Eyes       int    `json:"eyes"`
	Rocket     int    `json:"rocket"`
}

// simpleUser is GitHub's simple-user: the sender, an issue's author, a
// repository's owner.
type simpleUser struct {
	Login             string  `json:"login"`
	ID                int64   `json:"id"`
	NodeID            string  `json:"node_id"`
	Name              *string `json:"name,omitempty"`
	AvatarURL         string  `json:"avatar_url"`
	GravatarID        string  `json:"gravatar_id"`
	URL               string  `json:"url"`
	HTMLURL           string  `json:"html_url"`
	FollowersURL      string  `json:"followers_url"`
	FollowingURL      string  `json:"following_url"`
	GistsURL          string  `json:"gists_url"`
	StarredURL        string  `json:"starred_url"`
	SubscriptionsURL  string  `json:"subscriptions_url"`
	OrganizationsURL  string  `json:"organizations_url"`
	ReposURL          string  `json:"repos_url"`
	EventsURL         string  `json:"events_url"`
	ReceivedEventsURL string  `json:"received_events_url"`
	Type              string  `json:"type"`
	UserViewType      string  `json:"user_view_type"`
	SiteAdmin         bool    `json:"site_admin"`
}

// organization is GitHub's organization-simple-webhooks.
type organization struct {
	Login            string  `json:"login"`
	ID               int64   `json:"id"`
	NodeID           string  `json:"node_id"`
	URL              string  `json:"url"`
	ReposURL         string  `json:"repos_url"`
	EventsURL        string  `json:"events_url"`
	HooksURL         string  `json:"hooks_url"`
	IssuesURL        string  `json:"issues_url"`
	MembersURL       string  `json:"members_url"`
	PublicMembersURL string  `json:"public_members_url"`
	AvatarURL        string  `json:"avatar_url"`
	Description      *string `json:"description"`
}

// simpleInstall is GitHub's simple-installation.
type simpleInstall struct {
	ID     int64  `json:"id"`
	NodeID string `json:"node_id"`
}

// repository is GitHub's repository-webhooks.
type repository struct {
	ID               int64      `json:"id"`
	NodeID           string     `json:"node_id"`
	Name             string     `json:"name"`
	FullName         string     `json:"full_name"`
	Private          bool       `json:"private"`
	Visibility       string     `json:"visibility"`
	Owner            simpleUser `json:"owner"`
	HTMLURL          string     `json:"html_url"`
	Description      *string    `json:"description"`
	Fork             bool       `json:"fork"`
	URL              string     `json:"url"`
	ForksURL         string     `json:"forks_url"`
	KeysURL          string     `json:"keys_url"`
	CollaboratorsURL string     `json:"collaborators_url"`
	TeamsURL         string     `json:"teams_url"`
	HooksURL         string     `json:"hooks_url"`
	IssueEventsURL   string     `json:"issue_events_url"`
	EventsURL        string     `json:"events_url"`
	AssigneesURL     string     `json:"assignees_url"`
	BranchesURL      string     `json:"branches_url"`
	TagsURL          string     `json:"tags_url"`
	BlobsURL         string     `json:"blobs_url"`
	GitTagsURL       string     `json:"git_tags_url"`
	GitRefsURL       string     `json:"git_refs_url"`
	TreesURL         string     `json:"trees_url"`
	StatusesURL      string     `json:"statuses_url"`
	LanguagesURL     string     `json:"languages_url"`
	StargazersURL    string     `json:"stargazers_url"`
	ContributorsURL  string     `json:"contributors_url"`
	SubscribersURL   string     `json:"subscribers_url"`
	SubscriptionURL  string     `json:"subscription_url"`
	CommitsURL       string     `json:"commits_url"`
	GitCommitsURL    string     `json:"git_commits_url"`
	CommentsURL      string     `json:"comments_url"`
	IssueCommentURL  string     `json:"issue_comment_url"`
	ContentsURL      string     `json:"contents_url"`
	CompareURL       string     `json:"compare_url"`
	MergesURL        string     `json:"merges_url"`
	ArchiveURL       string     `json:"archive_url"`
	DownloadsURL     string     `json:"downloads_url"`
	IssuesURL        string     `json:"issues_url"`
	PullsURL         string     `json:"pulls_url"`
	MilestonesURL    string     `json:"milestones_url"`
	NotificationsURL string     `json:"notifications_url"`
	LabelsURL        string     `json:"labels_url"`
	ReleasesURL      string     `json:"releases_url"`
	DeploymentsURL   string     `json:"deployments_url"`
	CreatedAt        *time.Time `json:"created_at"`
	UpdatedAt        *time.Time `json:"updated_at"`
	PushedAt         *time.Time `json:"pushed_at"`
	GitURL           string     `json:"git_url"`
	SSHURL           string     `json:"ssh_url"`
	CloneURL         string     `json:"clone_url"`
	SvnURL           string     `json:"svn_url"`
	Homepage         *string    `json:"homepage"`
	Size             int        `json:"size"`
	StargazersCount  int        `json:"stargazers_count"`
	WatchersCount    int        `json:"watchers_count"`
	Language         *string    `json:"language"`
	HasIssues        bool       `json:"has_issues"`
	HasProjects      bool       `json:"has_projects"`
	HasDownloads     bool       `json:"has_downloads"`
	HasWiki          bool       `json:"has_wiki"`
	HasPages         bool       `json:"has_pages"`
	ForksCount       int        `json:"forks_count"`
	MirrorURL        *string    `json:"mirror_url"`
	Archived         bool       `json:"archived"`
	Disabled         bool       `json:"disabled"`
	OpenIssuesCount  int        `json:"open_issues_count"`
	License          *struct{}  `json:"license"`
	Forks            int        `json:"forks"`
	OpenIssues       int        `json:"open_issues"`
	Watchers         int        `json:"watchers"`
	DefaultBranch    string     `json:"default_branch"`
}

// fieldEvent returns the body of the delivery of change c of event e, at
// when: field_added with the value (and the value before, if any), or
// field_removed with the value removed.
func (o Objects) fieldEvent(e *issuefields.Event, c *issuefields.FieldChange) issuesEvent {
	repo := e.Issue.Repository
	body := issuesEvent{
		Issue:      o.Issue(eventSnapshot(e), nil),
		IssueField: issueField{ID: c.Field.ID, Name: c.Field.Name, FieldType: c.Field.DataType},
		Repository: o.repository(repo),
		Sender:     o.user(e.Actor.Login, ""),
	}
	if repo.OwnedByOrganization {
		org := o.organization(repo.Owner)
		body.Organization = &org
	}
	if e.Actor.Kind == issuefields.AppInstallationToken {
		body.Installation = &simpleInstall{ID: o.InstallationID(e.Actor.Login), NodeID: ids.Account(ids.KindInstallation, e.Actor.Login)}
	}
	switch {
	case c.After == nil:
		body.Action = ActionFieldRemoved
		body.IssueFieldValue = valueOf(e.Issue, &c.Field, c.Before)
	default:
		body.Action = ActionFieldAdded
		body.IssueFieldValue = valueOf(e.Issue, &c.Field, c.After)
		if c.Before != nil {
			body.Changes = new(changes)
			body.Changes.IssueFieldValue.From = valueOf(e.Issue, &c.Field, c.Before)
		}
	}
	return body
}

// eventSnapshot returns the issue of e as a Snapshot shows it, for
// Objects.Issue: as the write left it, last updated at the change when the
// record does not say.
func eventSnapshot(e *issuefields.Event) issuefields.Snapshot {
	snap := issuefields.Snapshot{Repository: e.Issue.Repository, Issue: e.Issue}
	if snap.Issue.UpdatedAt.IsZero() {
		snap.Issue.UpdatedAt = e.Time.UTC().Truncate(time.Second)
	}
	return snap
}

// valueOf returns v, a value of field f on issue, as a delivery shows it:
// its integer id and its node_id are those of package ids, the node_id the
// values list's.
func valueOf(issue issuefields.Issue, f *issuefields.Field, v *issuefields.Value) *fieldValue {
	out := &fieldValue{ID: ids.ValueID(issue.ID, f.ID), NodeID: ids.Value(string(f.DataType), issue.ID, f.ID)}
	value, options := f.Content(*v)
	out.Value = value
	for _, o := range options {
		out.Options = append(out.Options, option{ID: o.ID, Name: o.Name, Color: o.Color, Description: optional(o.Description)})
		out.ValueIDs = append(out.ValueIDs, o.ID)
	}
	if f.DataType == issuefields.DataTypeSingleSelect && len(out.Options) > 0 {
		out.ValueID, out.Option = out.ValueIDs[0], &out.Options[0]
		out.ValueIDs, out.Options = nil, nil
	}
	return out
}

// user returns the account login as a delivery shows it; kind is its type
// when the caller knows it, or "".
func (o Objects) user(login, kind string) simpleUser {
	d := o.dir().Account(login)
	id := o.AccountID(login)
	kind = cmp.Or(d.Type, kind)
	if kind == "" {
		kind = "User"
		if strings.HasSuffix(login, "[bot]") {
			kind = "Bot"
		}
	}
	api := o.api() + "/users/" + url.PathEscape(login)
	nodeKind := map[string]ids.Kind{"Organization": ids.KindOrganization, "Bot": ids.KindBot}[kind]
	return simpleUser{
		Login:             login,
		ID:                id,
		NodeID:            ids.Account(cmp.Or(nodeKind, ids.KindUser), login),
		Name:              optional(d.Name),
		AvatarURL:         o.web() + "/avatars/u/" + strconv.FormatInt(id, 10),
		URL:               api,
		HTMLURL:           o.AccountHTMLURL(login),
		FollowersURL:      api + "/followers",
		FollowingURL:      api + "/following{/other_user}",
		GistsURL:          api + "/gists{/gist_id}",
		StarredURL:        api + "/starred{/owner}{/repo}",
		SubscriptionsURL:  api + "/subscriptions",
		OrganizationsURL:  api + "/orgs",
		ReposURL:          api + "/repos",
		EventsURL:         api + "/events{/privacy}",
		ReceivedEventsURL: api + "/received_events",
		Type:              kind,
		UserViewType:      "public",
	}
}

// organization returns the organization login as a delivery shows it.
func (o Objects) organization(login string) organization {
	u := o.user(login, "Organization")
	api := o.api() + "/orgs/" + url.PathEscape(login)
	return organization{
		Login:            login,
		ID:               u.ID,
		NodeID:           u.NodeID,
		URL:              api,
		ReposURL:         api + "/repos",
		EventsURL:        api + "/events",
		HooksURL:         api + "/hooks",
		IssuesURL:        api + "/issues",
		MembersURL:       api + "/members{/member}",
		PublicMembersURL: api + "/public_members{/member}",
		AvatarURL:        u.AvatarURL,
	}
}

// repository returns repo as a delivery shows it.
func (o Objects) repository(repo issuefields.Repository) repository {
	d := o.dir().Repository(repo)
	api := o.api() + repoPath(repo)
	web := o.RepositoryHTMLURL(repo)
	host := hostOf(o.web())
	kind := ""
	if repo.OwnedByOrganization {
		kind = "Organization"
	}
	r := repository{
		ID:               repo.ID,
		NodeID:           ids.Repository(repo.ID),
		Name:             repo.Name,
		FullName:         repo.Owner + "/" + repo.Name,
		Private:          repo.Private,
		Visibility:       "public",
		Owner:            o.user(repo.Owner, kind),
		HTMLURL:          web,
		Description:      optional(d.Description),
		URL:              api,
		ForksURL:         api + "/forks",
		KeysURL:          api + "/keys{/key_id}",
		CollaboratorsURL: api + "/collaborators{/collaborator}",
		TeamsURL:         api + "/teams",
		HooksURL:         api + "/hooks",
		IssueEventsURL:   api + "/issues/events{/number}",
		EventsURL:        api + "/events",
		AssigneesURL:     api + "/assignees{/user}",
		BranchesURL:      api + "/branches{/branch}",
		TagsURL:          api + "/tags",
		BlobsURL:         api + "/git/blobs{/sha}",
		GitTagsURL:       api + "/git/tags{/sha}",
		GitRefsURL:       api + "/git/refs{/sha}",
		TreesURL:         api + "/git/trees{/sha}",
		StatusesURL:      api + "/statuses/{sha}",
		LanguagesURL:     api + "/languages",
		StargazersURL:    api + "/stargazers",
		ContributorsURL:  api + "/contributors",
		SubscribersURL:   api + "/subscribers",
		SubscriptionURL:  api + "/subscription",
		CommitsURL:       api + "/commits{/sha}",
		GitCommitsURL:    api + "/git/commits{/sha}",
		CommentsURL:      api + "/comments{/number}",
		IssueCommentURL:  api + "/issues/comments{/number}",
		ContentsURL:      api + "/contents/{+path}",
		CompareURL:       api + "/compare/{base}...{head}",
		MergesURL:        api + "/merges",
		ArchiveURL:       api + "/{archive_format}{/ref}",
		DownloadsURL:     api + "/downloads",
		IssuesURL:        api + "/issues{/number}",
		PullsURL:         api + "/pulls{/number}",
		MilestonesURL:    api + "/milestones{/number}",
		NotificationsURL: api + "/notifications{?since,all,participating}",
		LabelsURL:        api + "/labels{/name}",
		ReleasesURL:      api + "/releases{/id}",
		DeploymentsURL:   api + "/deployments",
		GitURL:           "git://" + host + webPath(repo) + ".git",
		SSHURL:           "git@" + host + ":" + repo.Owner + "/" + repo.Name + ".git",
		CloneURL:         web + ".git",
		SvnURL:           web,
		HasIssues:        true,
		HasProjects:      true,
		HasDownloads:     true,
		HasWiki:          true,
		DefaultBranch:    cmp.Or(d.DefaultBranch, "main"),
	}
	if repo.Private {
		r.Visibility = "private"
	}
	if !d.CreatedAt.IsZero() {
		created := d.CreatedAt.UTC().Truncate(time.Second)
		r.CreatedAt = &created
	}
	return r
}

// repoPath returns the API path of repo: /repos/<owner>/<name>, escaped.
func repoPath(repo issuefields.Repository) string {
	return "/repos" + webPath(repo)
}

// webPath returns /<owner>/<name>, escaped.
func webPath(repo issuefields.Repository) string {
	return "/" + url.PathEscape(repo.Owner) + "/" + url.PathEscape(repo.Name)
}

// hostOf returns the host of the URL base, or "localhost".
func hostOf(base string) string {
	if u, err := url.Parse(base); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return "localhost"
}

// optional returns nil for "", and a pointer to s otherwise.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// zen is the saying of a ping delivery.
const zen = "Keep it logically awesome."

// pingEvent is the body of a ping delivery, GitHub's webhook-ping.
type pingEvent struct {
	Zen          string        `json:"zen"`
	HookID       int64         `json:"hook_id"`
	Hook         pingHook      `json:"hook"`
	Repository   *repository   `json:"repository,omitempty"`
	Organization *organization `json:"organization,omitempty"`
	Sender       simpleUser    `json:"sender"`
}

// pingHook is the hook of a ping delivery.
type pingHook struct {
	Type          string     `json:"type"`
	ID            int64      `json:"id"`
	Name          string     `json:"name"`
	Active        bool       `json:"active"`
	Events        []string   `json:"events"`
	Config        pingConfig `json:"config"`
	CreatedAt     time.Time  `json:"created_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
	URL           string     `json:"url"`
	TestURL       string     `json:"test_url,omitempty"`
	PingURL       string     `json:"ping_url"`
	DeliveriesURL string     `json:"deliveries_url"`
}

// pingConfig is a hook's configuration as a ping shows it: no secret.
type pingConfig struct {
	ContentType string `json:"content_type"`
	InsecureSSL string `json:"insecure_ssl"`
	URL         string `json:"url"`
}

// ping returns the body of a ping delivery to h, whose repository is repo
// (nil for an organization's hook), sent on behalf of sender.
func (o Objects) ping(h *Hook, repo *issuefields.Repository, sender string) pingEvent {
	url := o.hookURL(h, repo)
	p := pingEvent{
		Zen:    zen,
		HookID: h.ID,
		Hook: pingHook{
			Type:          "Organization",
			ID:            h.ID,
			Name:          "web",
			Active:        h.Active,
			Events:        eventsOf(h),
			Config:        pingConfig{ContentType: h.Config.ContentType, InsecureSSL: h.Config.InsecureSSL, URL: h.Config.URL},
			CreatedAt:     h.CreatedAt,
			UpdatedAt:     h.UpdatedAt,
			URL:           url,
			PingURL:       url + "/pings",
			DeliveriesURL: url + "/deliveries",
		},
		Sender: o.user(sender, ""),
	}
	if repo != nil {
		r := o.repository(*repo)
		p.Repository, p.Hook.Type, p.Hook.TestURL = &r, "Repository", url+"/test"
		if repo.OwnedByOrganization {
			org := o.organization(repo.Owner)
			p.Organization = &org
		}
	} else {
		org := o.organization(h.Scope.Organization)
		p.Organization = &org
	}
	return p
}

// eventsOf returns the events of h as answers and pings show them: an
// array, empty rather than null for a hook kept without events.
func eventsOf(h *Hook) []string {
	if h.Events == nil {
		return []string{}
	}
	return h.Events
}

// hookURL returns the API URL of h, whose repository is repo (nil for an
// organization's hook).
func (o Objects) hookURL(h *Hook, repo *issuefields.Repository) string {
	if repo != nil {
		return o.api() + repoPath(*repo) + "/hooks/" + strconv.FormatInt(h.ID, 10)
	}
	return o.api() + "/orgs/" + url.PathEscape(h.Scope.Organization) + "/hooks/" + strconv.FormatInt(h.ID, 10)
}
