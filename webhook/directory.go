package webhook

import (
	"time"

	"github.com/issuefields/issuefields"
)

// A Directory supplies what a delivery's body (and Objects) shows but an
// issuefields.Store does not hold: a repository's description, and the ID
// and kind of an account. (An issue's title, state, author and times are in
// its record.) The example server answers
// from its data file. A nil Directory, or a zero answer, means the defaults
// that each type documents. Its methods are called from several goroutines
// at once: by the Notifier's workers for the events of writes, off the
// request's path, and by Ping, on the path of the request that creates or
// pings a hook.
type Directory interface {
	Repository(repo issuefields.Repository) RepositoryDetails
	Account(login string) AccountDetails
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

func (noDirectory) Repository(issuefields.Repository) RepositoryDetails { return RepositoryDetails{} }
func (noDirectory) Account(string) AccountDetails                       { return AccountDetails{} }
