package webhook

import (
	"cmp"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/ids"
)

// Objects builds GitHub's objects, as the webhook payloads and a host's
// REST routes show them, from what a Store holds and what a Directory
// supplies: an issue (Issue) and, in payloads, its repository, its
// organization and the accounts. Its zero value builds them with relative
// URLs and the defaults that Directory documents.
type Objects struct {
	// BaseURL is the API's public address with its mount prefix
	// (https://api.example.com, or http://localhost:8080/api/v3), under
	// which every url and *_url is written.
	BaseURL string
	// WebURL is the address of the web pages, under which every html_url
	// is written.
	WebURL string
	// Directory supplies what the Store does not hold; nil for the
	// defaults.
	Directory Directory
}

// api returns BaseURL without a trailing slash.
func (o Objects) api() string { return strings.TrimSuffix(o.BaseURL, "/") }

// web returns WebURL without a trailing slash.
func (o Objects) web() string { return strings.TrimSuffix(o.WebURL, "/") }

// dir returns the Directory, or the one of the defaults.
func (o Objects) dir() Directory {
	if o.Directory == nil {
		return noDirectory{}
	}
	return o.Directory
}

// AccountID returns the ID of the account login (a user, a bot or an
// organization), as payloads and the stand-in's other answers show it: the
// Directory's, or else one derived from the login.
func (o Objects) AccountID(login string) int64 {
	return cmp.Or(o.dir().Account(login).ID, ids.AccountID(login))
}

// InstallationID returns the ID of the app installation whose bot is login,
// as payloads and the stand-in's other answers show it: the Directory's, or
// else one derived from the login.
func (o Objects) InstallationID(login string) int64 {
	return cmp.Or(o.dir().Account(login).InstallationID, ids.InstallationID(login))
}

// IssueObject is GitHub's issue object (the REST issue, whose properties
// are those of webhooks_issue): encoding/json renders it as GitHub does.
type IssueObject struct {
	URL               string          `json:"url"`
	RepositoryURL     string          `json:"repository_url"`
	LabelsURL         string          `json:"labels_url"`
	CommentsURL       string          `json:"comments_url"`
	EventsURL         string          `json:"events_url"`
	HTMLURL           string          `json:"html_url"`
	TimelineURL       string          `json:"timeline_url"`
	ID                int64           `json:"id"`
	NodeID            string          `json:"node_id"`
	Number            int64           `json:"number"`
	Title             string          `json:"title"`
	User              simpleUser      `json:"user"`
	Labels            []label         `json:"labels"`
	State             string          `json:"state"`
	StateReason       *string         `json:"state_reason"`
	Locked            bool            `json:"locked"`
	Assignee          *simpleUser     `json:"assignee"`
	Assignees         []simpleUser    `json:"assignees"`
	Milestone         *struct{}       `json:"milestone"`
	Comments          int             `json:"comments"`
	CreatedAt         time.Time       `json:"created_at"`
	UpdatedAt         time.Time       `json:"updated_at"`
	ClosedAt          *time.Time      `json:"closed_at"`
	AuthorAssociation string          `json:"author_association"`
	ActiveLockReason  *string         `json:"active_lock_reason"`
	Body              *string         `json:"body"`
	Reactions         reactions       `json:"reactions"`
	IssueFieldValues  json.RawMessage `json:"issue_field_values,omitempty"`
}

// label is a label of an issue: the store holds its name alone, so the rest
// is GitHub's default.
type label struct {
	ID          int64   `json:"id"`
	NodeID      string  `json:"node_id"`
	URL         string  `json:"url"`
	Name        string  `json:"name"`
	Color       string  `json:"color"`
	Default     bool    `json:"default"`
	Description *string `json:"description"`
}

// labelColor is the color of every label: GitHub's for a label created
// without one.
const labelColor = "ededed"

// Issue returns the issue of snap (snap.Issue, in the repository that holds
// it now) as GitHub's issue object, with values, the issue's field values as
// the values list gives them, as its issue_field_values (left out when
// values is nil). What the record leaves empty has GitHub's default, or
// this package's: the title "Issue #<number>", no body (null), the state
// open, the repository's owner as the author, the creation and update
// times each other's, and for a closed issue without a closing time its
// update time.
func (o Objects) Issue(snap issuefields.Snapshot, values json.RawMessage) IssueObject {
	is, repo := &snap.Issue, snap.Issue.Repository
	number := strconv.FormatInt(is.Number, 10)
	api := o.api() + repoPath(repo) + "/issues/" + number
	out := IssueObject{
		URL:               api,
		RepositoryURL:     o.api() + repoPath(repo),
		LabelsURL:         api + "/labels{/name}",
		CommentsURL:       api + "/comments",
		EventsURL:         api + "/events",
		HTMLURL:           o.IssueHTMLURL(repo, is.Number),
		TimelineURL:       api + "/timeline",
		ID:                is.ID,
		NodeID:            ids.Issue(is.ID),
		Number:            is.Number,
		Title:             cmp.Or(is.Title, "Issue #"+number),
		User:              o.user(cmp.Or(is.Author, repo.Owner), ownerType(repo, is.Author)),
		Labels:            make([]label, len(is.Labels)),
		State:             cmp.Or(is.State, "open"),
		StateReason:       optional(is.StateReason),
		Assignees:         make([]simpleUser, len(is.Assignees)),
		CreatedAt:         cmp.Or(is.CreatedAt, is.UpdatedAt).UTC().Truncate(time.Second),
		UpdatedAt:         cmp.Or(is.UpdatedAt, is.CreatedAt).UTC().Truncate(time.Second),
		AuthorAssociation: "NONE",
		Body:              optional(is.Body),
		Reactions:         reactions{URL: api + "/reactions"},
		IssueFieldValues:  values,
	}
	for i, name := range is.Labels {
		out.Labels[i] = label{ID: ids.LabelID(repo.ID, name), NodeID: ids.Label(repo.ID, name),
			URL: o.api() + repoPath(repo) + "/labels/" + url.PathEscape(name), Name: name, Color: labelColor}
	}
	for i, login := range is.Assignees {
		out.Assignees[i] = o.user(login, "")
	}
	if len(out.Assignees) > 0 {
		out.Assignee = &out.Assignees[0]
	}
	if out.State == "closed" {
		closed := cmp.Or(is.ClosedAt, out.UpdatedAt).UTC().Truncate(time.Second)
		out.ClosedAt = &closed
	}
	if strings.EqualFold(out.User.Login, repo.Owner) {
		out.AuthorAssociation = "OWNER"
	}
	return out
}

// RepositoryHTMLURL returns the address of the page of repo, under WebURL:
// the html_url of the repository of a payload.
func (o Objects) RepositoryHTMLURL(repo issuefields.Repository) string {
	return o.web() + webPath(repo)
}

// AccountHTMLURL returns the address of the page of the account login, the
// html_url of a user or an organization of a payload.
func (o Objects) AccountHTMLURL(login string) string { return o.web() + "/" + url.PathEscape(login) }

// IssueHTMLURL returns the address of the page of issue number of repo, the
// issue object's html_url, without building the object.
func (o Objects) IssueHTMLURL(repo issuefields.Repository, number int64) string {
	return o.RepositoryHTMLURL(repo) + "/issues/" + strconv.FormatInt(number, 10)
}

// ownerType returns the account type of author, an issue's author or "" for
// the default (the repository's owner).
func ownerType(repo issuefields.Repository, author string) string {
	if (author == "" || strings.EqualFold(author, repo.Owner)) && repo.OwnedByOrganization {
		return "Organization"
	}
	return ""
}
