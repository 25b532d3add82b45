package webhook

import (
	"encoding/base64"
	"encoding/binary"
	"hash/fnv"
	"time"

	"github.com/issuefields/issuefields"
)

// A Directory supplies what a delivery's body shows but an issuefields.Store
// does not hold: an issue's title, state, author and times, a repository's
// description, and the ID and kind of an account. The example server answers
// from its data file. A nil Directory, or a zero answer, means the defaults
// that each type documents. Its methods are called from several goroutines
// at once: by the Notifier's workers for the events of writes, off the
// request's path, and by Ping, on the path of the request that creates or
// pings a hook.
type Directory interface {
	Issue(repo issuefields.Repository, number int64) IssueDetails
	Repository(repo issuefields.Repository) RepositoryDetails
	Account(login string) AccountDetails
}

// IssueDetails is what a delivery shows of an issue besides its number and
// repository.
type IssueDetails struct {
	// Title defaults to "Issue #<number>".
	Title string
	// Body defaults to none (null).
	Body string
	// State is "open" (the default) or "closed".
	State string
	// Author is the login of the issue's author; it defaults to the
	// repository's owner.
	Author string
	// CreatedAt defaults to the time of the change; ClosedAt to none, or to
	// the time of the change for a closed issue.
	CreatedAt, ClosedAt time.Time
}

// RepositoryDetails is what a delivery shows of a repository besides its ID,
// owner, name and privacy.
type RepositoryDetails struct {
	// Description defaults to none (null).
	Description string
	// DefaultBranch defaults to "main".
	DefaultBranch string
	// CreatedAt defaults to none (null).
	CreatedAt time.Time
}

// AccountDetails is what a delivery shows of an account (a user, a bot or an
// organization) besides its login.
type AccountDetails struct {
	// ID defaults to a number derived from the login: the same on every
	// server and after every restart.
	ID int64
	// Type is "User", "Bot" or "Organization". It defaults to "Bot" for a
	// login that ends in "[bot]", "Organization" for the owner of a
	// repository owned by an organization, and "User" otherwise.
	Type string
	// Name defaults to none (null).
	Name string
	// InstallationID is, for the bot of an app installation, the
	// installation's ID; it defaults to one derived from the login.
	InstallationID int64
}

// noDirectory is the Directory of the defaults.
type noDirectory struct{}

func (noDirectory) Issue(issuefields.Repository, int64) IssueDetails    { return IssueDetails{} }
func (noDirectory) Repository(issuefields.Repository) RepositoryDetails { return RepositoryDetails{} }
func (noDirectory) Account(string) AccountDetails                       { return AccountDetails{} }

// stableID returns a positive number derived from the parts: the same for the
// same parts in every process, and within the integers that JavaScript holds
// exactly, as receivers written in it read ids.
func stableID(parts ...any) int64 {
	h := fnv.New64a()
	var b [8]byte
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			h.Write([]byte(p))
			h.Write([]byte{0})
		case int64:
			binary.LittleEndian.PutUint64(b[:], uint64(p))
			h.Write(b[:])
		}
	}
	return int64(h.Sum64()>>11) + 1
}

// nodeID returns a GraphQL-style node ID: prefix, "_" and the base64url
// encoding of id.
func nodeID(prefix string, id int64) string {
	var raw [binary.MaxVarintLen64]byte
	return prefix + "_" + base64.RawURLEncoding.EncodeToString(binary.AppendUvarint(raw[:0], uint64(id)))
}
