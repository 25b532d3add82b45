package memstore

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/issuefields/issuefields"
)

// An issueState says whether an issue is live, deleted or transferred.
type issueState int

const (
	live issueState = iota
	deleted
	transferred
)

// An issue is the store's record of one issue number in one repository.
// Records are never removed, so a number is never reused.
type issue struct {
	// state and movedTo change only while both s.mu and mu are held, so
	// either lock is enough to read them.
	state   issueState
	movedTo issuefields.IssueKey // where a transferred issue went

	// mu guards the fields below, and serializes the writes to the issue.
	// content holds the issue's ID and content (see [issuefields.Issue]),
	// without its Repository, Number and Version; its slices are shared
	// with callers: a write replaces them and never writes into them.
	mu      sync.Mutex
	version issuefields.Version
	content issuefields.Issue
}

// newIssue returns a live issue with ID id and no content.
func newIssue(id int64) *issue {
	return &issue{version: newVersion(), content: issuefields.Issue{ID: id}}
}

// commit replaces the issue's content with content, which the issue then
// owns, under the issue's ID, and gives it a new version. The caller holds
// is.mu, or is the only one that can reach is.
func (is *issue) commit(content issuefields.Issue) {
	content.Repository, content.Number, content.Version, content.ID = issuefields.Repository{}, 0, "", is.content.ID
	is.version = newVersion()
	is.content = content
}

// record returns the issue as Snapshot shows it, in repo under number. The
// caller holds is.mu.
func (is *issue) record(repo issuefields.Repository, number int64) issuefields.Issue {
	r := is.content
	r.Repository, r.Number, r.Version = repo, number, is.version
	return r
}

// Versions are never given twice: not by one store, not by two stores of one
// process (a store that is made again from the same data, say), and not by
// two processes (a server that restarted), so that an ETag taken from one
// state of an issue never matches another. Each is versionPrefix, random for
// each process, followed by a count of the commits of every store of the
// process.
var (
	versionPrefix  = randomPrefix()
	versionCounter atomic.Uint64
)

// newVersion returns a version that no store has given before.
func newVersion() issuefields.Version {
	return issuefields.Version(versionPrefix + strconv.FormatUint(versionCounter.Add(1), 36))
}

// randomPrefix returns 64 random bits, written in base 36 and followed by a
// dot.
func randomPrefix() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return strconv.FormatUint(binary.LittleEndian.Uint64(b[:]), 36) + "."
}

// check returns nil if the issue is live, and otherwise an error that names
// the issue as what and wraps [issuefields.ErrIssueDeleted] for a deleted
// issue or [issuefields.ErrNotFound] for a transferred one. The caller holds
// s.mu or is.mu.
func (is *issue) check(what string) error {
	switch is.state {
	case deleted:
		return fmt.Errorf("memstore: %s: %w", what, issuefields.ErrIssueDeleted)
	case transferred:
		return fmt.Errorf("memstore: %s was transferred to %s: %w", what, describe(is.movedTo), issuefields.ErrNotFound)
	}
	return nil
}

// describe names the issue that key identifies, for an error message.
func describe(key issuefields.IssueKey) string {
	return fmt.Sprintf("issue %d of repository %d", key.Number, key.RepositoryID)
}

// noIssue returns the error for a key that never was an issue.
func noIssue(key issuefields.IssueKey) error {
	return fmt.Errorf("memstore: %s: %w", describe(key), issuefields.ErrNotFound)
}
