package issuefields

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/issuefields/issuefields/internal/reponame"
)

// The issue methods of a Call: what a host's issue routes (and GraphQL)
// need to read and write issues exactly as the values routes do, through the
// same functions: the Snapshot and its checks (readLocated, locate), the
// write sequence (write.go), the validation of value items (parseItems), the
// ETag (etagSumOf) and the rendered list (listcache.go).
//
// A Route with method GET reads issues as the values list does; a Route with
// another method writes them: its caller needs a token and the sight of the
// repository, and the Route decides what else it needs from the Principal
// (its permissions in the repository), before it reads the body. A write
// counts toward the secondary rate limit once the repository is found.

// ReadIssue reads the issue number of the repository owner/name as the
// values list reads it: one Store.Snapshot, the caller's access to the
// repository, and a renamed or transferred repository or a transferred
// issue answered with a redirect (301, or 307 on a Route that writes) to the
// same place below the new path, a deleted issue with 410 (404 on a Route
// that writes), a missing one with 404. Number 0 reads the repository alone,
// for a create: the Snapshot's IssueErr then wraps ErrNotFound, and is not
// returned.
//
// A Route that writes calls it first, decides what the caller may do, and
// reads the body; its CreateIssue or UpdateIssue of the same place then
// starts from the Snapshot that ReadIssue read.
func (c *Call) ReadIssue(owner, name string, number int64) (Snapshot, error) {
	var snap Snapshot
	if err := c.checkIssue(name, number); err != nil {
		return snap, err
	}
	if err := c.h.readLocated(c.c, &snap, owner, name, number); err != nil {
		return Snapshot{}, err
	}
	c.read, c.readAt, c.hasRead = snap, placeOf(owner, name, number), true
	return snap, nil
}

// checkIssue refuses what no issue is: a repository name with the .git
// suffix and a negative number (404), and a caller whose token is of a kind
// that the values routes do not accept (403), whatever the path names.
func (c *Call) checkIssue(name string, number int64) error {
	if number < 0 || reponame.HasGitSuffix(name) {
		return ErrNotFound
	}
	if p := c.c.principal; p != nil && !p.Kind.accepted() {
		return errTokenKindNotAccepted
	}
	return nil
}

// UpdateIssue changes the issue number of owner/name with change, by the
// values routes' write sequence, and returns the Snapshot that the write
// made: the issue as stored, with its new version. It locates the issue as
// ReadIssue does on a Route that writes (in the Snapshot that ReadIssue read
// for this request, one that the handler kept, or a new one), waits for the
// issue's turn, and calls change with the Snapshot, whose Issue holds the
// values that its fields show. change returns the issue as it should be
// (its content: Repository, Number, ID and Version are ignored), or an
// error, which UpdateIssue returns; then the request's If-Match is checked
// against the Snapshot's ETag (412). The issue is stored with
// Store.UpdateIssue, with UpdatedAt now, unless its content stays as it
// was; when the store has changed meanwhile, UpdateIssue reads a new
// Snapshot, locates the issue again and calls change again, so change must
// decide on what it is given alone, and must not read the body. When the
// values changed, the Notifier gets one Event of action with their changes.
func (c *Call) UpdateIssue(owner, name string, number int64, action Action, change func(Snapshot) (Issue, error)) (Snapshot, error) {
	if number == 0 {
		return Snapshot{}, ErrNotFound
	}
	if err := c.checkIssue(name, number); err != nil {
		return Snapshot{}, err
	}
	w := &write{action: action, owner: owner, name: name, number: number, at: placeOf(owner, name, number), change: change}
	if c.hasRead && c.readAt == w.at {
		w.snap, w.fresh = c.read, 1
	} else if err := c.h.start(c.c, w); err != nil {
		return Snapshot{}, err
	}
	if err := c.h.settleAndNotify(c.c, w); err != nil {
		return Snapshot{}, err
	}
	made := w.snap
	made.Issue = w.stored
	return made, nil
}

// CreateIssue creates an issue in the repository owner/name with
// IssueStore.CreateIssue, and returns it as stored and the Snapshot it was
// created on, whose Issue it is. It locates the repository as ReadIssue does
// for number 0 (in the Snapshot that ReadIssue read for this request, or a
// new one), and calls build with the Snapshot, which returns the issue's
// content (see Issue) or an error, which CreateIssue returns. The issue gets
// CreatedAt and UpdatedAt now. When the store has changed meanwhile,
// CreateIssue reads a new Snapshot and calls build again, so build must
// decide on what it is given alone. It sends no Event. Over a Store that is
// not an IssueStore it returns an error that wraps ErrNotFound.
func (c *Call) CreateIssue(owner, name string, build func(Snapshot) (Issue, error)) (Issue, Snapshot, error) {
	issues, ok := c.h.store.(IssueStore)
	if !ok {
		return Issue{}, Snapshot{}, fmt.Errorf("%w: the store does not create issues", ErrNotFound)
	}
	w := &write{owner: owner, name: name, at: placeOf(owner, name, 0)}
	if c.hasRead && c.readAt == w.at {
		w.snap, w.fresh = c.read, 1
	} else if err := c.checkIssue(name, 0); err != nil {
		return Issue{}, Snapshot{}, err
	} else if err := c.h.readFresh(c.c, w); err != nil {
		return Issue{}, Snapshot{}, err
	}
	for {
		next, err := build(w.snap)
		if err != nil {
			return Issue{}, Snapshot{}, err
		}
		next.CreatedAt = now()
		next.UpdatedAt = next.CreatedAt
		created, err := issues.CreateIssue(c.c.ctx(), w.snap, next)
		switch {
		case err == nil:
			made := w.snap
			made.Issue, made.IssueErr = created, nil
			c.h.kept.put(placeOf(owner, name, created.Number), made)
			return created, made, nil
		case !errors.Is(err, ErrChanged):
			return Issue{}, Snapshot{}, err
		}
		if err := c.h.readFresh(c.c, w); err != nil {
			return Issue{}, Snapshot{}, err
		}
	}
}

// ParseValues validates items, the items of an issue_field_values array of
// the request's body (as json.Unmarshal gives them from what ReadObject
// returned), against fields, and returns their values, as the values routes
// validate their items: the same refusal, a 422 whose errors name each
// invalid item by its index, and at most 25 items. arrays allows
// multi_select values, arrays of option names, as the add route does.
func (c *Call) ParseValues(items []json.RawMessage, fields []Field, arrays bool) ([]Value, error) {
	if len(items) > maxItems {
		return nil, valuesBody.tooMany
	}
	raw := make([][]byte, len(items))
	for i, item := range items {
		raw[i] = item
	}
	return parseItems(raw, fields, arrays)
}

// ETag returns the entity tag of the issue of snap, as the values routes
// answer it: it names the issue, its version (and so its whole content) and
// the definitions of snap.Fields, so that the values list and the issue
// itself share it, and any change of the issue changes it.
func (c *Call) ETag(snap Snapshot) string {
	return formatETag(etagSumOf(snap.Issue.Key(), snap.Issue.Version, c.h.fieldSums.of(snap.Fields)))
}

// RenderValues returns the values of the issue of snap as the values list
// gives them: the JSON array of its items, every one, rendered from
// snap.Fields. It is the handler's own rendering, which other requests
// share: never modify it. For the issues of a search page, pass the
// Snapshot of each issue's repository (number 0) with Issue set to the
// issue.
func (c *Call) RenderValues(snap Snapshot) json.RawMessage {
	key := snap.Issue.Key()
	sum := etagSumOf(key, snap.Issue.Version, c.h.fieldSums.of(snap.Fields))
	body := c.h.lists.list(&snap.Issue, sum, snap.Fields, snap.Issue.Values).body
	return body[:len(body)-1] // without the newline that ends a body
}
