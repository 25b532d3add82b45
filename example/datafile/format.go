package datafile

import (
	"encoding/json"
	"strings"
)

// File is a data file, as docs/data-file.md describes it: organizations
// with their issue fields, repositories with their issues and the issues'
// values, and the access tokens that the server accepts. Parse and Read
// decode one, and Load checks the rules that decoding does not.
type File struct {
	Organizations []Organization `json:"organizations"`
	Repositories  []Repository   `json:"repositories"`
	Tokens        []Token        `json:"tokens"`
}

// Organization is an organization and its issue fields, in the order of
// the API's responses.
type Organization struct {
	Login  string  `json:"login"`
	Fields []Field `json:"fields"`
}

// Field is the definition of one issue field.
type Field struct {
	ID       int64    `json:"id"`
	Name     string   `json:"name"`
	DataType string   `json:"data_type"`
	Options  []Option `json:"options"`
}

// Option is one option of a single_select or multi_select field.
type Option struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

// Repository is a repository and its issues. A repository whose owner is
// not one of the file's organizations belongs to a user and has no fields.
type Repository struct {
	Owner   string `json:"owner"`
	Name    string `json:"name"`
	Private bool   `json:"private"`
	// Description is what webhook deliveries show of the repository's
	// description.
	Description string `json:"description"`
	// RenamedFrom lists the names the repository had before, oldest first:
	// "name" for a name under Owner, "owner/name" for a name under another
	// owner, the repository's before a transfer. Requests that use one of
	// them are redirected.
	RenamedFrom []string `json:"renamed_from"`
	Issues      []Issue  `json:"issues"`
}

// FormerNames returns the names rd had before, oldest first, each as
// "owner/name".
func (rd Repository) FormerNames() []string {
	names := make([]string, len(rd.RenamedFrom))
	for i, name := range rd.RenamedFrom {
		if !strings.Contains(name, "/") {
			name = rd.Owner + "/" + name
		}
		names[i] = name
	}
	return names
}

// Issue is one issue: live with values, deleted, or transferred to
// another place, which the transfer creates. Its title, body, state,
// state_reason, labels, assignees, author and created_at are the issue's
// record in the store; Load fills in what the file leaves out.
type Issue struct {
	Number        int64     `json:"number"`
	Title         string    `json:"title"`
	State         string    `json:"state"`
	StateReason   string    `json:"state_reason"`
	Labels        []string  `json:"labels"`
	Assignees     []string  `json:"assignees"`
	Author        string    `json:"author"`
	Body          string    `json:"body"`
	CreatedAt     string    `json:"created_at"`
	Values        []Value   `json:"values"`
	Deleted       bool      `json:"deleted"`
	TransferredTo *IssueRef `json:"transferred_to"`
}

// IssueRef names an issue of a repository.
type IssueRef struct {
	Owner  string `json:"owner"`
	Name   string `json:"name"`
	Number int64  `json:"number"`
}

// Value is the value of one field on an issue, in the format of the
// API's add request: an option name for single_select, an array of option
// names for multi_select, a number, a "YYYY-MM-DD" string or a string.
type Value struct {
	FieldID int64           `json:"field_id"`
	Value   json.RawMessage `json:"value"`
}

// Token is one access token that the server accepts.
type Token struct {
	Token string `json:"token"`
	// Kind is one of the issuefields.TokenKind values.
	Kind  string `json:"kind"`
	Login string `json:"login"`
	// ExpiresAt, if set, is an RFC 3339 time from which the token is
	// refused as bad credentials.
	ExpiresAt string `json:"expires_at"`
	// Repositories are the token's permissions by "owner/name". The token
	// sees these repositories and no other private one.
	Repositories map[string]RepositoryPermissions `json:"repositories"`
	// Organizations are the token's organization permissions by login, for
	// the field management routes. The token sees these organizations; a
	// classic or OAuth app token that lists none sees every organization.
	Organizations map[string]OrganizationPermissions `json:"organizations"`
	// Scopes are the OAuth scopes of a classic or OAuth app token, such as
	// "read:org", "admin:org", "admin:org_hook" and "admin:repo_hook".
	Scopes []string `json:"scopes"`
}

// OrganizationPermissions is what a token may do in one organization. An
// empty permission means none.
type OrganizationPermissions struct {
	IssueFields       string `json:"issue_fields"`
	OrganizationHooks string `json:"organization_hooks"`
}

// RepositoryPermissions is what a token may do in one repository. An empty
// permission means none.
type RepositoryPermissions struct {
	Issues          string `json:"issues"`
	PullRequests    string `json:"pull_requests"`
	Push            bool   `json:"push"`
	RepositoryHooks string `json:"repository_hooks"`
}
