package datafile

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/internal/lookup"
	"github.com/issuefields/issuefields/seed"
)

// Store is a store that a data file is loaded into.
type Store interface {
	issuefields.Store
	seed.Seeder
}

// Loaded is what a data file gives the server that serves a store: the
// file's tokens, whose permissions name the store's repositories, and the
// file's repositories as the store knows them.
type Loaded struct {
	// Tokens verify the tokens of the file.
	Tokens *Tokens
	// Repositories are the file's repositories, in its order, as the store
	// knows them. After Over, they are only those that the store has.
	Repositories []issuefields.Repository
}

// A loader loads one data file into one store.
type loader struct {
	file   *File
	store  Store
	tokens *Tokens
	repos  []issuefields.Repository
}

// Load loads f into s, an empty store, and returns f's tokens over s. It
// checks every rule of the format that Parse does not, and stops at the
// first that f breaks, with an error that names the place in the file and
// the rule; s may then hold part of f. Loading into a new memstore.Store
// fails only where f breaks a rule.
func Load(ctx context.Context, f *File, s Store) (*Loaded, error) {
	l := &loader{file: f, store: s, tokens: newTokens()}
	steps := []func(context.Context) error{l.addOrganizations, l.addRepositories, l.addIssues, l.addValues, l.moveIssues, l.addTokens}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return nil, err
		}
	}
	return &Loaded{Tokens: l.tokens, Repositories: l.repos}, nil
}

// maxFields is the most fields an organization of a data file may have:
// GitHub's limit, which the field management routes keep too.
const maxFields = 25

// addOrganizations adds the organizations and their fields to the store. The
// fields must pass issuefields.ValidateFields, one at a time, so that an
// error names the field at fault.
func (l *loader) addOrganizations(context.Context) error {
	for i, o := range l.file.Organizations {
		at := fmt.Sprintf("organizations[%d]", i)
		if err := l.store.AddOrganization(o.Login); err != nil {
			return fmt.Errorf("%s.login: %w", at, err)
		}
		var fields []issuefields.Field
		for j, fd := range o.Fields {
			at := fmt.Sprintf("%s.fields[%d]", at, j)
			if j == maxFields {
				return fmt.Errorf("%s: an organization has at most %d fields (GitHub's limit)", at, maxFields)
			}
			f := issuefields.Field{ID: fd.ID, Name: fd.Name, DataType: issuefields.DataType(fd.DataType)}
			for _, opt := range fd.Options {
				f.Options = append(f.Options, issuefields.FieldOption{ID: opt.ID, Name: opt.Name, Color: opt.Color})
			}
			fields = append(fields, f)
			if err := issuefields.ValidateFields(fields); err != nil {
				return fmt.Errorf("%s: %s", at, strings.ReplaceAll(err.Error(), "\n", "; "))
			}
			if err := l.store.AddField(o.Login, f); err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
		}
	}
	return nil
}

// addRepositories adds the repositories to the store under their first
// names and moves each through the names it had to its current one: a
// transfer where the owner changes, a rename where the name does.
func (l *loader) addRepositories(ctx context.Context) error {
	for i, rd := range l.file.Repositories {
		at := fmt.Sprintf("repositories[%d]", i)
		switch {
		case strings.Contains(rd.Owner, "/"):
			return fmt.Errorf("%s.owner: %q is not an owner; want a login without \"/\", such as octo-org", at, rd.Owner)
		case strings.Contains(rd.Name, "/"):
			return fmt.Errorf("%s.name: %q is not a repository name; want a name without \"/\", with the owner in owner", at, rd.Name)
		}
		for k, former := range rd.RenamedFrom {
			if owner, name, ok := strings.Cut(former, "/"); former == "" || ok && (owner == "" || name == "" || strings.Contains(name, "/")) {
				return fmt.Errorf("%s.renamed_from[%d]: %q is not a former name; want \"name\", or \"owner/name\" for a name under another owner", at, k, former)
			}
		}
		names := append(rd.FormerNames(), rd.Owner+"/"+rd.Name)
		owner, name, _ := strings.Cut(names[0], "/")
		if _, err := l.store.AddRepository(owner, name, rd.Private); err != nil {
			return fmt.Errorf("%s: %w", at, err)
		}
		for k := 1; k < len(names); k++ {
			where := at + ".name"
			if k < len(rd.RenamedFrom) {
				where = fmt.Sprintf("%s.renamed_from[%d]", at, k)
			}
			if err := l.move(names[k-1], names[k]); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
		}
	}
	// A later repository may have taken over a name, so the file's
	// repositories are looked up once all are added.
	for i, rd := range l.file.Repositories {
		repo, err := lookup.Repository(ctx, l.store, rd.Owner, rd.Name)
		if err != nil {
			return fmt.Errorf("repositories[%d]: %w", i, err)
		}
		l.repos = append(l.repos, repo)
	}
	return nil
}

// move gives the repository called from, "owner/name", the name to: it
// transfers the repository to the new owner, then renames it there.
func (l *loader) move(from, to string) error {
	fromOwner, fromName, _ := strings.Cut(from, "/")
	toOwner, toName, _ := strings.Cut(to, "/")
	if !strings.EqualFold(fromOwner, toOwner) {
		if err := l.store.TransferRepository(fromOwner, fromName, toOwner); err != nil {
			return fmt.Errorf("transfer of %s to %s: %w", from, toOwner, err)
		}
	}
	if fromName == toName {
		return nil
	}
	if err := l.store.RenameRepository(toOwner, fromName, toName); err != nil {
		return fmt.Errorf("rename of %s/%s to %s: %w", toOwner, fromName, toName, err)
	}
	return nil
}

// addIssues adds the issues of every repository to the store. Their values
// come next, in addValues, and deletions and transfers last, in moveIssues,
// so that a transfer may name any repository of the file and moves the
// issue's values with it.
func (l *loader) addIssues(context.Context) error {
	for i, rd := range l.file.Repositories {
		for j, is := range rd.Issues {
			at := fmt.Sprintf("repositories[%d].issues[%d]", i, j)
			switch {
			case is.Deleted && is.TransferredTo != nil:
				return fmt.Errorf("%s: an issue is deleted or transferred, not both", at)
			case is.Deleted && len(is.Values) > 0:
				return fmt.Errorf("%s: a deleted issue has no values", at)
			}
			content, err := l.content(l.repos[i], is, at)
			if err != nil {
				return err
			}
			if err := l.store.AddIssue(l.repos[i].Owner, l.repos[i].Name, is.Number); err != nil {
				return fmt.Errorf("%s.number: %w", at, err)
			}
			if err := l.store.SetIssue(l.repos[i].Owner, l.repos[i].Name, content); err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
		}
	}
	return nil
}

// moveIssues deletes and transfers the issues that the file says were
// deleted or transferred. A transfer creates the issue it moves to, with the
// values of the issue it moves.
func (l *loader) moveIssues(ctx context.Context) error {
	taken := make(map[issuefields.IssueKey]bool)
	for i, rd := range l.file.Repositories {
		for _, is := range rd.Issues {
			taken[issuefields.IssueKey{RepositoryID: l.repos[i].ID, Number: is.Number}] = true
		}
	}
	for i, rd := range l.file.Repositories {
		repo := l.repos[i]
		for j, is := range rd.Issues {
			at := fmt.Sprintf("repositories[%d].issues[%d]", i, j)
			if is.Deleted {
				if err := l.store.DeleteIssue(repo.Owner, repo.Name, is.Number); err != nil {
					return fmt.Errorf("%s: %w", at, err)
				}
			}
			to := is.TransferredTo
			if to == nil {
				continue
			}
			at += ".transferred_to"
			dst, err := lookup.Repository(ctx, l.store, to.Owner, to.Name)
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
			if err := l.store.TransferIssue(repo.Owner, repo.Name, is.Number, dst.Owner, dst.Name, to.Number); err != nil {
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

// scoped reports whether tokens of kind k have OAuth scopes: classic personal
// access tokens and OAuth app tokens, which see every organization unless
// they list some.
func scoped(k issuefields.TokenKind) bool {
	return k == issuefields.ClassicPersonalAccessToken || k == issuefields.OAuthAppToken
}

// addTokens fills the token table. A token's repositories are found by any
// name they have or had and kept by their stable IDs.
func (l *loader) addTokens(ctx context.Context) error {
	index := make(map[*tokenEntry]int)
	for i, td := range l.file.Tokens {
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
		e := newTokenEntry(issuefields.Principal{Kind: kind, Login: td.Login})
		if td.ExpiresAt != "" {
			t, err := time.Parse(time.RFC3339, td.ExpiresAt)
			if err != nil {
				return fmt.Errorf("%s.expires_at: %q is not an RFC 3339 time such as 2030-01-31T12:00:00Z", at, td.ExpiresAt)
			}
			e.expiresAt = t
		}
		if err := l.addPermissions(ctx, e, td.Repositories, at+".repositories"); err != nil {
			return err
		}
		if err := l.addOrganizationPermissions(e, td, at); err != nil {
			return err
		}
		if !l.tokens.add(td.Token, e) {
			return fmt.Errorf("%s.token: the same token as tokens[%d]; each token is listed once", at, index[l.tokens.entry(td.Token)])
		}
		index[e] = i
	}
	return nil
}

// addPermissions gives e the permissions of repos, whose keys are
// "owner/name", and the sight of their owners. at is the place of repos in
// the file.
func (l *loader) addPermissions(ctx context.Context, e *tokenEntry, repos map[string]RepositoryPermissions, at string) error {
	for _, name := range slices.Sorted(maps.Keys(repos)) {
		where := fmt.Sprintf("%s[%q]", at, name)
		owner, repoName, ok := strings.Cut(name, "/")
		if !ok || strings.Contains(repoName, "/") {
			return fmt.Errorf("%s: want a repository as \"owner/name\"", where)
		}
		repo, err := lookup.Repository(ctx, l.store, owner, repoName)
		if err != nil {
			return fmt.Errorf("%s: not a repository of the file", where)
		}
		if _, ok := e.repos[repo.ID]; ok {
			return fmt.Errorf("%s: the token already lists %s/%s under another name", where, repo.Owner, repo.Name)
		}
		p := repos[name]
		issues, err := permission(where, "issues", p.Issues)
		if err != nil {
			return err
		}
		pulls, err := permission(where, "pull_requests", p.PullRequests)
		if err != nil {
			return err
		}
		hooks, err := permission(where, "repository_hooks", p.RepositoryHooks)
		if err != nil {
			return err
		}
		e.repos[repo.ID] = issuefields.RepositoryPermissions{Visible: true, Issues: issues, PullRequests: pulls, Push: p.Push,
			RepositoryHooks: hooks}
		e.owners[strings.ToLower(repo.Owner)] = true
	}
	return nil
}

// addOrganizationPermissions gives e the organization permissions and
// scopes of td, the token at the place at of the file.
func (l *loader) addOrganizationPermissions(e *tokenEntry, td Token, at string) error {
	if len(td.Scopes) > 0 && !scoped(e.principal.Kind) {
		return fmt.Errorf("%s.scopes: only classic_pat and oauth_app tokens have scopes; give a %s token organizations instead", at, td.Kind)
	}
	e.principal.Scopes = slices.Clone(td.Scopes)
	e.allOrgs = len(td.Organizations) == 0 && scoped(e.principal.Kind)
	for _, login := range slices.Sorted(maps.Keys(td.Organizations)) {
		where := fmt.Sprintf("%s.organizations[%q]", at, login)
		if !slices.ContainsFunc(l.file.Organizations, func(o Organization) bool { return strings.EqualFold(o.Login, login) }) {
			return fmt.Errorf("%s: not an organization of the file", where)
		}
		if _, ok := e.orgs[strings.ToLower(login)]; ok {
			return fmt.Errorf("%s: the token already lists this organization in another case", where)
		}
		op := td.Organizations[login]
		fields, err := permission(where, "issue_fields", op.IssueFields)
		if err != nil {
			return err
		}
		hooks, err := permission(where, "organization_hooks", op.OrganizationHooks)
		if err != nil {
			return err
		}
		e.orgs[strings.ToLower(login)] = issuefields.OrganizationPermissions{Visible: true, IssueFields: fields, OrganizationHooks: hooks}
	}
	return nil
}

// permission returns the permission s that the member member of the place
// at of the file gives: none (also for ""), read or write; another word is an
// error naming the place.
func permission(at, member, s string) (issuefields.Permission, error) {
	switch p := issuefields.Permission(s); p {
	case "":
		return issuefields.PermissionNone, nil
	case issuefields.PermissionNone, issuefields.PermissionRead, issuefields.PermissionWrite:
		return p, nil
	}
	return "", fmt.Errorf("%s.%s: unknown permission %q; want none, read or write", at, member, s)
}
