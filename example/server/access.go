package server

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
)

// An access is what the handler decides for a token on one repository: the
// error that refuses a list and a write, nil where the token may. The
// start-up message uses it to say what each token may do. The decision is
// the root package's (issuefields.Authorize); the server supplies only the
// token's principal and its expiry.
type access struct {
	list, write error
}

// accessOf returns the access of the token of e to repo at now.
func accessOf(e *tokenEntry, repo issuefields.Repository, now time.Time) access {
	if e.expired(now) {
		return access{issuefields.ErrBadCredentials, issuefields.ErrBadCredentials}
	}
	ctx := context.Background()
	return access{
		list:  issuefields.Authorize(ctx, issuefields.ListValues, repo, &e.principal),
		write: issuefields.Authorize(ctx, issuefields.WriteValues, repo, &e.principal),
	}
}

// phrase says what a allows, in a few words.
func (a access) phrase() string {
	switch {
	case errors.Is(a.list, issuefields.ErrNotFound):
		return "cannot see (404)"
	case a.list == nil && a.write == nil:
		return "list and write"
	case a.list == nil && errors.Is(a.write, issuefields.ErrNoPushAccess):
		return "list; writes are 403 (no push access)"
	case a.list == nil:
		return "list only; writes are 403"
	case a.write == nil:
		return "write; lists are 403"
	}
	return "lists and writes are 403"
}

// fieldsPhrase says what the token of e may do with the issue fields of the
// organization org, or "" when it may not even list them.
func fieldsPhrase(e *tokenEntry, org string) string {
	ctx := context.Background()
	switch {
	case issuefields.AuthorizeOrganization(ctx, issuefields.ListFields, org, &e.principal) != nil:
		return ""
	case issuefields.AuthorizeOrganization(ctx, issuefields.ManageFields, org, &e.principal) == nil:
		return "manage the issue fields of " + org
	}
	return "list the issue fields of " + org
}

// abilities says what the token of e may do in each of repos, and with the
// fields of each of orgs, at now: one line per kind of access, each with the
// repositories it applies to.
func abilities(e *tokenEntry, repos []issuefields.Repository, orgs []string, now time.Time) []string {
	if e.expired(now) {
		return []string{"expired at " + e.expiresAt.Format(time.RFC3339) + ": every request is 401 Bad credentials"}
	}
	var phrases []string
	if errors.Is(accessOf(e, issuefields.Repository{}, now).list, issuefields.ErrTokenKindNotAccepted) {
		phrases = append(phrases, "a "+string(e.principal.Kind)+" token is not accepted by the values routes: they answer 403")
	} else {
		phrases = append(phrases, repositoryAbilities(e, repos, now)...)
	}
	for _, org := range orgs {
		if p := fieldsPhrase(e, org); p != "" {
			phrases = append(phrases, p)
		}
	}
	return phrases
}

// repositoryAbilities says what the token of e, of a kind that the values
// routes accept, may do in each of repos at now.
func repositoryAbilities(e *tokenEntry, repos []issuefields.Repository, now time.Time) []string {
	if len(repos) == 0 {
		return []string{"no repositories to use it on"}
	}
	var phrases []string
	byPhrase := make(map[string][]string)
	for _, repo := range repos {
		p := accessOf(e, repo, now).phrase()
		if _, ok := byPhrase[p]; !ok {
			phrases = append(phrases, p)
		}
		byPhrase[p] = append(byPhrase[p], repo.Owner+"/"+repo.Name)
	}
	lines := make([]string, len(phrases))
	for i, p := range phrases {
		lines[i] = p + ": " + strings.Join(byPhrase[p], ", ")
	}
	return lines
}
