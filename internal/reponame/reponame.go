// Package reponame is the one definition of how owners and repositories are
// named, which the handler, memstore and pgstore share: names match
// case-insensitively, a name is non-empty without a slash, and the API does
// not accept a repository name with a ".git" suffix.
//
// What a rename or a transfer does to the names that find a repository is
// the Store contract's (a repository is found by every name it had, until a
// newer repository takes one over); each store keeps the names its own way,
// under the keys that Key gives.
package reponame

import (
	"fmt"
	"strings"
)

// Key returns the key under which an owner's login or a repository's name
// is looked up: the same for every spelling that matches. A store keeps it
// beside the name as spelt, so that matching does not depend on a database's
// collation.
func Key(name string) string {
	return strings.ToLower(name)
}

// Same reports whether a and b are spellings of one owner or one repository
// name.
func Same(a, b string) bool {
	return Key(a) == Key(b)
}

// HasGitSuffix reports whether name ends in ".git", in any case: a path of
// the API with such a repository name finds no repository, as the API it
// serves answers.
func HasGitSuffix(name string) bool {
	return len(name) >= 4 && Same(name[len(name)-4:], ".git")
}

// Check returns an error unless owner/name may name a repository: both must
// be non-empty and without a slash. The error names the repository and the
// part at fault; a store prefixes it with its own name.
func Check(owner, name string) error {
	full := owner + "/" + name
	switch {
	case owner == "" || strings.Contains(owner, "/"):
		return fmt.Errorf("repository %q: bad owner %q", full, owner)
	case name == "" || strings.Contains(name, "/"):
		return fmt.Errorf("repository %q: bad name %q", full, name)
	}
	return nil
}
