package server

import (
	"net/http"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
)

// An outcome is how the API answers a token for one repository: the status
// of a list and of a write, http.StatusOK when the request is allowed. The
// start-up message uses it to say what each token may do.
type outcome struct {
	list, write int
	// noPush reports that a write is refused for want of push access alone.
	noPush bool
}

// outcomeOf returns the outcome for the token of e in repo at now, by the
// access rules of the API.
func outcomeOf(e *tokenEntry, repo issuefields.Repository, now time.Time) outcome {
	switch {
	case e.expired(now):
		return outcome{list: http.StatusUnauthorized, write: http.StatusUnauthorized}
	case !e.principal.Kind.Accepted():
		return outcome{list: http.StatusForbidden, write: http.StatusForbidden}
	}
	p := e.repos[repo.ID]
	if repo.Private && !p.Visible {
		return outcome{list: http.StatusNotFound, write: http.StatusNotFound}
	}
	o := outcome{list: http.StatusOK, write: http.StatusOK}
	if repo.Private && p.Issues != issuefields.PermissionRead && p.Issues != issuefields.PermissionWrite {
		o.list = http.StatusForbidden
	}
	switch {
	case p.Issues != issuefields.PermissionWrite && p.PullRequests != issuefields.PermissionWrite:
		o.write = http.StatusForbidden
	case !p.Push:
		o.write, o.noPush = http.StatusForbidden, true
	}
	return o
}

// phrase says what o allows, in a few words.
func (o outcome) phrase() string {
	switch {
	case o.list == http.StatusNotFound:
		return "cannot see (404)"
	case o.list == http.StatusOK && o.write == http.StatusOK:
		return "list and write"
	case o.list == http.StatusOK && o.noPush:
		return "list; writes are 403 (no push access)"
	case o.list == http.StatusOK:
		return "list only; writes are 403"
	case o.write == http.StatusOK:
		return "write; lists are 403"
	}
	return "lists and writes are 403"
}

// abilities says what the token of e may do in each of repos at now, one
// line per kind of access, each with the repositories it applies to.
func abilities(e *tokenEntry, repos []issuefields.Repository, now time.Time) []string {
	switch {
	case e.expired(now):
		return []string{"expired at " + e.expiresAt.Format(time.RFC3339) + ": every request is 401 Bad credentials"}
	case !e.principal.Kind.Accepted():
		return []string{"a " + string(e.principal.Kind) + " token is not accepted: every request is 403"}
	}
	if len(repos) == 0 {
		return []string{"no repositories to use it on"}
	}
	var phrases []string
	byPhrase := make(map[string][]string)
	for _, repo := range repos {
		p := outcomeOf(e, repo, now).phrase()
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
