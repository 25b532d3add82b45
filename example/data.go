package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// dataFile is the format of the server's data: organizations with their
// issue fields, repositories with their issues and the issues' values, and
// the access tokens the server accepts.
type dataFile struct {
	Organizations []organizationData `json:"organizations"`
	Repositories  []repositoryData   `json:"repositories"`
	Tokens        []tokenData        `json:"tokens"`
}

// organizationData is an organization and its issue fields, in the order of
// the API's responses.
type organizationData struct {
	Login  string      `json:"login"`
	Fields []fieldData `json:"fields"`
}

// fieldData is the definition of one issue field.
type fieldData struct {
	ID       int64        `json:"id"`
	Name     string       `json:"name"`
	DataType string       `json:"data_type"`
	Options  []optionData `json:"options"`
}

// optionData is one option of a single_select or multi_select field.
type optionData struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

// repositoryData is a repository and its issues. A repository whose owner is
// not one of the file's organizations belongs to a user and has no fields.
type repositoryData struct {
	Owner   string `json:"owner"`
	Name    string `json:"name"`
	Private bool   `json:"private"`
	// RenamedFrom lists the names the repository had before, oldest first.
	// Requests that use one of them are redirected.
	RenamedFrom []string    `json:"renamed_from"`
	Issues      []issueData `json:"issues"`
}

// issueData is one issue: live with values, deleted, or transferred to
// another place, which the transfer creates.
type issueData struct {
	Number        int64       `json:"number"`
	Values        []valueData `json:"values"`
	Deleted       bool        `json:"deleted"`
	TransferredTo *issueRef   `json:"transferred_to"`
}

// issueRef names an issue of a repository.
type issueRef struct {
	Owner  string `json:"owner"`
	Name   string `json:"name"`
	Number int64  `json:"number"`
}

// valueData is the value of one field on an issue, in the format of the
// API's add request: an option name for single_select, an array of option
// names for multi_select, a number, a "YYYY-MM-DD" string or a string.
type valueData struct {
	FieldID int64           `json:"field_id"`
	Value   json.RawMessage `json:"value"`
}

// tokenData is one access token the server accepts.
type tokenData struct {
	Token string `json:"token"`
	// Kind is one of the issuefields.TokenKind values.
	Kind  string `json:"kind"`
	Login string `json:"login"`
	// ExpiresAt, if set, is an RFC 3339 time from which the token is
	// refused as bad credentials.
	ExpiresAt string `json:"expires_at"`
	// Repositories are the token's permissions by "owner/name". The token
	// sees these repositories and no other private one.
	Repositories map[string]permissionsData `json:"repositories"`
}

// permissionsData is what a token may do in one repository. An empty
// permission means none.
type permissionsData struct {
	Issues       string `json:"issues"`
	PullRequests string `json:"pull_requests"`
	Push         bool   `json:"push"`
}

// A dataset is a loaded data file: the store and the token table that serve
// it, and what the start-up message shows of it.
type dataset struct {
	file   *dataFile
	store  *memstore.Store
	tokens *tokenTable
	// repos are the file's repositories, in its order, as the store knows
	// them.
	repos []issuefields.Repository
}

// load reads a data file and builds the store and token table it describes.
// It refuses a file that breaks a rule of the format with an error that
// names the place in the file and the rule.
func load(r io.Reader) (*dataset, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var f dataFile
	if err := decodeStrict(data, &f); err != nil {
		return nil, err
	}
	d := &dataset{file: &f, store: memstore.New(), tokens: newTokenTable()}
	for _, step := range []func() error{d.addOrganizations, d.addRepositories, d.addIssues, d.moveIssues, d.addTokens} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// decodeStrict decodes data, one JSON object, into f. Keys that the format
// does not have are refused. A syntax or type error gives its line and
// column.
func decodeStrict(data []byte, f *dataFile) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(f)
	if err == io.EOF {
		return errors.New("the file holds no JSON object")
	}
	if err != nil {
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syntax):
			return fmt.Errorf("%s: %w", position(data, syntax.Offset), err)
		case errors.As(err, &typ):
			where := typ.Field
			if where == "" {
				where = "the file"
			}
			return fmt.Errorf("%s: %s: want a JSON %s, got %s", position(data, typ.Offset), where, jsonType(typ.Type), typ.Value)
		}
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%s: data after the end of the top-level object", position(data, dec.InputOffset()))
	}
	return nil
}

// jsonType names the JSON type that values of Go type t are decoded from.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice:
		return "array"
	case reflect.Struct, reflect.Map:
		return "object"
	}
	return "number"
}

// position returns the line and column of the last byte of data[:end]: the
// encoding/json package reports the place of an error as the offset just
// after the byte that shows it.
func position(data []byte, end int64) string {
	before := data[:max(0, min(int(end)-1, len(data)))]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

// addOrganizations adds the organizations and their fields to the store.
func (d *dataset) addOrganizations() error {
	for i, o := range d.file.Organizations {
		at := fmt.Sprintf("organizations[%d]", i)
		if err := d.store.AddOrganization(o.Login); err != nil {
			return fmt.Errorf("%s.login: %w", at, err)
		}
		for j, fd := range o.Fields {
			at := fmt.Sprintf("%s.fields[%d]", at, j)
			t := issuefields.DataType(fd.DataType)
			if !t.Valid() {
				return fmt.Errorf("%s.data_type: unknown data type %q; want text, single_select, number, date or multi_select", at, fd.DataType)
			}
			f := issuefields.Field{ID: fd.ID, Name: fd.Name, DataType: t}
			for _, opt := range fd.Options {
				f.Options = append(f.Options, issuefields.Option{ID: opt.ID, Name: opt.Name, Color: opt.Color})
			}
			if err := d.store.AddField(o.Login, f); err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
		}
	}
	return nil
}

// addRepositories adds the repositories to the store under their first
// names and renames each through the names it had to its current one.
func (d *dataset) addRepositories() error {
	for i, rd := range d.file.Repositories {
		at := fmt.Sprintf("repositories[%d]", i)
		names := append(append([]string(nil), rd.RenamedFrom...), rd.Name)
		if _, err := d.store.AddRepository(rd.Owner, names[0], rd.Private); err != nil {
			return fmt.Errorf("%s: %w", at, err)
		}
		for k := 1; k < len(names); k++ {
			where := at + ".name"
			if k < len(rd.RenamedFrom) {
				where = fmt.Sprintf("%s.renamed_from[%d]", at, k)
			}
			if err := d.store.RenameRepository(rd.Owner, names[k-1], names[k]); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
		}
	}
	// A later repository may have taken over a name, so the file's
	// repositories are looked up once all are added.
	for i, rd := range d.file.Repositories {
		repo, err := d.store.Repository(context.Background(), rd.Owner, rd.Name)
		if err != nil {
			return fmt.Errorf("repositories[%d]: %w", i, err)
		}
		d.repos = append(d.repos, repo)
	}
	return nil
}

// addIssues adds the issues of every repository to the store, with their
// values. Deletions and transfers come later, in moveIssues, so that a
// transfer may name any repository of the file.
func (d *dataset) addIssues() error {
	for i, rd := range d.file.Repositories {
		repo := d.repos[i]
		fields, err := d.store.Fields(context.Background(), repo)
		if err != nil {
			return fmt.Errorf("repositories[%d]: %w", i, err)
		}
		for j, is := range rd.Issues {
			at := fmt.Sprintf("repositories[%d].issues[%d]", i, j)
			switch {
			case is.Deleted && is.TransferredTo != nil:
				return fmt.Errorf("%s: an issue is deleted or transferred, not both", at)
			case is.Deleted && len(is.Values) > 0:
				return fmt.Errorf("%s: a deleted issue has no values", at)
			}
			if err := d.store.AddIssue(repo.Owner, repo.Name, is.Number); err != nil {
				return fmt.Errorf("%s.number: %w", at, err)
			}
			values, err := issueValues(repo, fields, is.Values, at)
			if err != nil {
				return err
			}
			if err := d.store.SetValues(repo.Owner, repo.Name, is.Number, values); err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
		}
	}
	return nil
}

// moveIssues deletes and transfers the issues that the file says were
// deleted or transferred. A transfer creates the issue it moves to, with the
// values of the issue it moves.
func (d *dataset) moveIssues() error {
	ctx := context.Background()
	taken := make(map[issuefields.IssueKey]bool)
	for i, rd := range d.file.Repositories {
		for _, is := range rd.Issues {
			taken[issuefields.IssueKey{RepositoryID: d.repos[i].ID, Number: is.Number}] = true
		}
	}
	for i, rd := range d.file.Repositories {
		repo := d.repos[i]
		for j, is := range rd.Issues {
			at := fmt.Sprintf("repositories[%d].issues[%d]", i, j)
			if is.Deleted {
				if err := d.store.DeleteIssue(repo.Owner, repo.Name, is.Number); err != nil {
					return fmt.Errorf("%s: %w", at, err)
				}
			}
			to := is.TransferredTo
			if to == nil {
				continue
			}
			at += ".transferred_to"
			dst, err := d.store.Repository(ctx, to.Owner, to.Name)
			if err != nil {
				return fmt.Errorf("%s: %q is not a repository of the file", at, to.Owner+"/"+to.Name)
			}
			key := issuefields.IssueKey{RepositoryID: dst.ID, Number: to.Number}
			switch {
			case taken[key]:
				return fmt.Errorf("%s: %s/%s#%d is already an issue; a transfer creates the issue it moves to, so name a number that the repository does not use",
					at, dst.Owner, dst.Name, to.Number)
			case len(is.Values) > 0 && !strings.EqualFold(dst.Owner, repo.Owner):
				return fmt.Errorf("%s: values move with a transferred issue, so an issue with values moves only within its organization %q", at, repo.Owner)
			}
			if err := d.store.TransferIssue(repo.Owner, repo.Name, is.Number, dst.Owner, dst.Name, to.Number); err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			taken[key] = true
		}
	}
	return nil
}

// tokenKinds are the kinds a token of the file may have.
var tokenKinds = []issuefields.TokenKind{
	issuefields.AppUserToken,
	issuefields.AppInstallationToken,
	issuefields.FineGrainedPersonalAccessToken,
	issuefields.ClassicPersonalAccessToken,
	issuefields.OAuthAppToken,
}

// addTokens fills the token table. A token's repositories are found by any
// name they have or had and kept by their stable IDs.
func (d *dataset) addTokens() error {
	index := make(map[*tokenEntry]int)
	for i, td := range d.file.Tokens {
		at := fmt.Sprintf("tokens[%d]", i)
		kind := issuefields.TokenKind(td.Kind)
		switch {
		case td.Token == "":
			return fmt.Errorf("%s.token: a token needs a value", at)
		case strings.ContainsFunc(td.Token, unicode.IsSpace):
			return fmt.Errorf("%s.token: a token has no white space, which an Authorization header could not carry", at)
		case !slices.Contains(tokenKinds, kind):
			return fmt.Errorf("%s.kind: unknown token kind %q; want app_user, app_installation, fine_grained_pat, classic_pat or oauth_app", at, td.Kind)
		case td.Login == "":
			return fmt.Errorf("%s.login: a token needs the login of its user or app", at)
		}
		e := &tokenEntry{
			principal: issuefields.Principal{Kind: kind, Login: td.Login},
			repos:     make(map[int64]issuefields.RepositoryPermissions),
		}
		if td.ExpiresAt != "" {
			t, err := time.Parse(time.RFC3339, td.ExpiresAt)
			if err != nil {
				return fmt.Errorf("%s.expires_at: %q is not an RFC 3339 time such as 2030-01-31T12:00:00Z", at, td.ExpiresAt)
			}
			e.expiresAt = t
		}
		if err := d.addPermissions(e, td.Repositories, at+".repositories"); err != nil {
			return err
		}
		if !d.tokens.add(td.Token, e) {
			return fmt.Errorf("%s.token: the same token as tokens[%d]; each token is listed once", at, index[d.tokens.entry(td.Token)])
		}
		index[e] = i
	}
	return nil
}

// addPermissions gives e the permissions of repos, whose keys are
// "owner/name". at is the place of repos in the file.
func (d *dataset) addPermissions(e *tokenEntry, repos map[string]permissionsData, at string) error {
	for _, name := range slices.Sorted(maps.Keys(repos)) {
		where := fmt.Sprintf("%s[%q]", at, name)
		owner, repoName, ok := strings.Cut(name, "/")
		if !ok || strings.Contains(repoName, "/") {
			return fmt.Errorf("%s: want a repository as \"owner/name\"", where)
		}
		repo, err := d.store.Repository(context.Background(), owner, repoName)
		if err != nil {
			return fmt.Errorf("%s: not a repository of the file", where)
		}
		if _, ok := e.repos[repo.ID]; ok {
			return fmt.Errorf("%s: the token already lists %s/%s under another name", where, repo.Owner, repo.Name)
		}
		p := repos[name]
		issues, ok := permission(p.Issues)
		if !ok {
			return fmt.Errorf("%s.issues: unknown permission %q; want none, read or write", where, p.Issues)
		}
		pulls, ok := permission(p.PullRequests)
		if !ok {
			return fmt.Errorf("%s.pull_requests: unknown permission %q; want none, read or write", where, p.PullRequests)
		}
		e.repos[repo.ID] = issuefields.RepositoryPermissions{Visible: true, Issues: issues, PullRequests: pulls, Push: p.Push}
	}
	return nil
}

// permission returns the permission that s names; the empty string names
// none. It reports false for anything else.
func permission(s string) (issuefields.Permission, bool) {
	switch p := issuefields.Permission(s); p {
	case "":
		return issuefields.PermissionNone, true
	case issuefields.PermissionNone, issuefields.PermissionRead, issuefields.PermissionWrite:
		return p, true
	}
	return "", false
}
