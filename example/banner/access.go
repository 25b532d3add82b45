package banner

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/datafile"
	"github.com/issuefields/issuefields/example/internal/inprocess"
)

// noPushMessage is the message of the handler's 403 to a write by a token
// whose permissions would allow it, but whose user has no push access.
const noPushMessage = "Must have push access to this repository"

// valuesAccept reports whether the values routes accept tokens of kind k:
// they answer 403 to classic personal access tokens and OAuth app tokens.
func valuesAccept(k issuefields.TokenKind) bool {
	return k != issuefields.ClassicPersonalAccessToken && k != issuefields.OAuthAppToken
}

// A prober tells what tokens may do by asking the handler itself, with
// requests that change nothing, so that the start-up message says what the
// handler does. It asks an inprocess.Handler of its own over the data's
// store and tokens.
type prober struct {
	ctx context.Context
	h   http.Handler
	// live holds a live issue of each repository of the data file that the
	// store has, by the repository's ID.
	live map[int64]int64
}

// newProber returns a prober for d.
func newProber(ctx context.Context, d *Data) (*prober, error) {
	h, err := inprocess.Handler(d.Store, d.Tokens)
	if err != nil {
		return nil, err
	}
	p := &prober{ctx: ctx, h: h, live: make(map[int64]int64)}
	for _, rd := range d.File.Repositories {
		for _, is := range liveIssues(rd) {
			snap, err := d.Store.Snapshot(ctx, rd.Owner, rd.Name, is.Number)
			if err != nil || snap.IssueErr != nil || snap.Issue.Repository.ID != snap.Repository.ID || snap.Issue.Number != is.Number {
				continue
			}
			if _, ok := p.live[snap.Repository.ID]; !ok {
				p.live[snap.Repository.ID] = is.Number
			}
		}
	}
	return p, nil
}

// An access is what the handler answers a token on a live issue of one
// repository: the status of a list, and of a write whose body is {}, which
// is 422 once authorization and the rate limit let it through. noPush tells
// a 403 of the write for want of push access. The zero access is that of a
// repository with no live issue to ask about.
type access struct {
	list, write int
	noPush      bool
}

// mayList reports whether a allows lists.
func (a access) mayList() bool { return a.list == http.StatusOK }

// mayWrite reports whether a allows writes.
func (a access) mayWrite() bool { return a.write == http.StatusUnprocessableEntity }

// access asks what token may do with the values of repo's issues.
func (p *prober) access(token string, repo issuefields.Repository) access {
	number, ok := p.live[repo.ID]
	if !ok {
		return access{}
	}
	path := inprocess.ValuesPath(repo.Owner, repo.Name, number)
	list := inprocess.Ask(p.ctx, p.h, http.MethodGet, path, token, "")
	write := inprocess.Ask(p.ctx, p.h, http.MethodPost, path, token, "{}")
	return access{list: list.Status, write: write.Status,
		noPush: write.Status == http.StatusForbidden && write.Message == noPushMessage}
}

// phrase says what a allows, in a few words.
func (a access) phrase() string {
	switch {
	case a.list == 0:
		return "not known: the repository has no live issue to ask about"
	case a.list == http.StatusNotFound:
		return "cannot see (404)"
	case a.mayList() && a.mayWrite():
		return "list and write"
	case a.mayList() && a.noPush:
		return "list; writes are 403 (no push access)"
	case a.mayList() && a.write == http.StatusForbidden:
		return "list only; writes are 403"
	case a.mayWrite() && a.list == http.StatusForbidden:
		return "write; lists are 403"
	case a.list == http.StatusForbidden && a.write == http.StatusForbidden:
		return "lists and writes are 403"
	}
	return fmt.Sprintf("lists are %d, writes %d", a.list, a.write)
}

// fieldsPhrase says what token may do with the issue fields of the
// organization org, or "" when it may not even list them.
func (p *prober) fieldsPhrase(token, org string) string {
	path := "/orgs/" + org + "/issue-fields"
	switch {
	case inprocess.Ask(p.ctx, p.h, http.MethodGet, path, token, "").Status != http.StatusOK:
		return ""
	case inprocess.Ask(p.ctx, p.h, http.MethodPost, path, token, "{}").Status == http.StatusUnprocessableEntity:
		return "manage the issue fields of " + org
	}
	return "list the issue fields of " + org
}

// abilities says what token, one of tokens, may do in each of repos, and
// with the fields of each of orgs, at now: one line per kind of access, each
// with the repositories it applies to.
func (p *prober) abilities(token string, tokens *datafile.Tokens, repos []issuefields.Repository, orgs []datafile.Organization, now time.Time) []string {
	if expired, at := tokens.Expired(token, now); expired {
		return []string{"expired at " + at.Format(time.RFC3339) + ": every request is 401 Bad credentials"}
	}
	var lines []string
	switch kind := tokens.Principal(token).Kind; {
	case !valuesAccept(kind):
		lines = append(lines, "a "+string(kind)+" token is not accepted by the values routes: they answer 403")
	case len(repos) == 0:
		lines = append(lines, "no repositories to use it on")
	default:
		var phrases []string
		byPhrase := make(map[string][]string)
		for _, repo := range repos {
			phrase := p.access(token, repo).phrase()
			if _, ok := byPhrase[phrase]; !ok {
				phrases = append(phrases, phrase)
			}
			byPhrase[phrase] = append(byPhrase[phrase], repo.Owner+"/"+repo.Name)
		}
		for _, phrase := range phrases {
			lines = append(lines, phrase+": "+strings.Join(byPhrase[phrase], ", "))
		}
	}
	for _, org := range orgs {
		if phrase := p.fieldsPhrase(token, org.Login); phrase != "" {
			lines = append(lines, phrase)
		}
	}
	return lines
}
