package memstore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Store { return memstore.New() })
}

// The tests below check what the package documentation promises beyond the
// contract that the conformance suite checks.

// TestSeedErrorsNameThePackage checks that the error of a refused seed call
// starts with the package's name.
func TestSeedErrorsNameThePackage(t *testing.T) {
	s := memstore.New()
	_, addErr := s.AddRepository("", "new", false)
	for _, err := range []error{
		s.AddOrganization(""),
		s.AddField("nobody", issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.Text}),
		addErr,
		s.RenameRepository("octocat", "nope", "new"),
		s.AddIssue("octocat", "nope", 1),
	} {
		if err == nil || !strings.HasPrefix(err.Error(), "memstore: ") {
			t.Errorf("error = %v, want one that starts with %q", err, "memstore: ")
		}
	}
}

// TestRepositoryIDsCountFromOne checks that repositories get the IDs 1, 2, 3
// and so on in the order they are added.
func TestRepositoryIDsCountFromOne(t *testing.T) {
	s := memstore.New()
	for i, name := range [][2]string{{"octocat", "a"}, {"hubot", "a"}, {"octocat", "b"}} {
		if r, err := s.AddRepository(name[0], name[1], false); err != nil || r.ID != int64(i+1) {
			t.Errorf("AddRepository(%q, %q, false) = %+v, %v; want ID %d", name[0], name[1], r, err, i+1)
		}
	}
}

// TestValuesOfIssueThatIsNotLive checks that Values and CompareAndSwap tell a
// deleted issue (ErrIssueDeleted) from one that was transferred away or never
// added (ErrNotFound), where the contract allows either.
func TestValuesOfIssueThatIsNotLive(t *testing.T) {
	ctx := context.Background()
	s := memstore.New()
	r, err := s.AddRepository("octocat", "hello", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		s.AddIssue("octocat", "hello", 1),
		s.AddIssue("octocat", "hello", 2),
		s.DeleteIssue("octocat", "hello", 1),
		s.TransferIssue("octocat", "hello", 2, "octocat", "hello", 3),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for n, want := range map[int64]error{1: issuefields.ErrIssueDeleted, 2: issuefields.ErrNotFound, 4: issuefields.ErrNotFound} {
		key := issuefields.IssueKey{RepositoryID: r.ID, Number: n}
		if _, _, err := s.Values(ctx, key); !errors.Is(err, want) {
			t.Errorf("Values(%+v) = %v, want %v", key, err, want)
		}
		if _, err := s.CompareAndSwap(ctx, key, "1", nil); !errors.Is(err, want) {
			t.Errorf("CompareAndSwap(%+v) = %v, want %v", key, err, want)
		}
	}
}
