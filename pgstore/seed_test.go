package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/storetest"
)

// TestSameAsMemstore checks the promise of the package documentation that
// the seed methods have the rules and the error messages of memstore's: the
// same calls on a Store and on a memstore.Store return the same repositories,
// and the same errors but for the package's name. The conformance suite
// checks the rules themselves.
func TestSameAsMemstore(t *testing.T) {
	s, _ := newStore(t)
	want := strings.ReplaceAll(script(memstore.New()), "memstore: ", "pgstore: ")
	if got := script(s); got != want {
		t.Errorf("the seed calls returned\n%s\nwant, as memstore's do,\n%s", got, want)
	}
}

// sentinel names the sentinel error that err wraps, if any.
func sentinel(err error) string {
	switch {
	case err == nil:
		return "no error"
	case errors.Is(err, issuefields.ErrNotFound):
		return "ErrNotFound"
	case errors.Is(err, issuefields.ErrIssueDeleted):
		return "ErrIssueDeleted"
	}
	return "another error"
}

// script makes the same calls on s each time, refused seed calls of every
// kind among them, and returns what each call returned, one line each.
func script(s storetest.Store) string {
	ctx := context.Background()
	var b strings.Builder
	say := func(results ...any) { fmt.Fprintln(&b, results...) }
	text := issuefields.Field{ID: 2, Name: "Notes", DataType: issuefields.DataTypeText}
	say(s.AddOrganization("Octo-Org"))
	say(s.AddField("octo-org", issuefields.Field{ID: 1, Name: "Priority", DataType: issuefields.DataTypeSingleSelect,
		Options: []issuefields.FieldOption{{ID: 1, Name: "High", Color: "red"}, {ID: 2, Name: "High", Color: "red"}}}))
	say(s.AddField("octo-org", text))
	say(s.AddField("octo-org", text))
	say(s.AddField("nobody", text))
	say(s.AddRepository("octo-org", "hello-world", false))
	say(s.AddRepository("OctoCat", "spoon-knife", true))
	say(s.AddRepository("", "new", false))
	say(s.AddRepository("octo-org", "a/b", false))
	say(s.AddRepository("Octo-Org", "Hello-World", false))
	say(s.AddOrganization(""))
	say(s.AddOrganization("octocat"))
	say(s.AddField("octocat", text))
	say(s.RenameRepository("octo-org", "nope", "new"))
	say(s.RenameRepository("octocat", "spoon-knife", ""))
	say(s.TransferRepository("octocat", "spoon-knife", "a/b"))
	for n := int64(0); n <= 3; n++ {
		say(s.AddIssue("octo-org", "hello-world", n))
	}
	say(s.AddIssue("octo-org", "hello-world", 1))
	say(s.DeleteIssue("octo-org", "hello-world", 2))
	say(s.TransferIssue("octo-org", "hello-world", 3, "octocat", "spoon-knife", 1))
	say(s.TransferIssue("octo-org", "hello-world", 1, "Octo-Org", "Hello-World", 1))
	say(s.TransferIssue("octo-org", "hello-world", 1, "octocat", "spoon-knife", 0))
	say(s.TransferIssue("octo-org", "hello-world", 1, "octo-org", "hello-world", 3))
	for n := int64(1); n <= 4; n++ {
		say(s.DeleteIssue("octo-org", "hello-world", n+1))
		say(s.SetValues("octo-org", "hello-world", n, nil))
		snap, err := s.Snapshot(ctx, "octo-org", "hello-world", n)
		say(err, snap.Issue.Repository, snap.Issue.Number, snap.Issue.Values, sentinel(snap.IssueErr))
	}
	return b.String()
}
