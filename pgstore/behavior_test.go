package pgstore_test

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
)

func TestNewRepositoryTakesOverFormerName(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	old := addRepo(t, s, "octocat", "hello")
	if err := s.RenameRepository("octocat", "hello", "renamed"); err != nil {
		t.Fatal(err)
	}
	added := addRepo(t, s, "octocat", "Hello")
	if got, err := s.Repository(ctx, "octocat", "hello"); err != nil || got != added {
		t.Errorf("Repository(octocat, hello) = %+v, %v; want the new repository %+v", got, err, added)
	}
	if got, err := s.Repository(ctx, "octocat", "renamed"); err != nil || got.ID != old.ID {
		t.Errorf("Repository(octocat, renamed) = %+v, %v; want the old repository, ID %d", got, err, old.ID)
	}
}

func TestRenameTakesOverFormerName(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	a := addRepo(t, s, "octocat", "a")
	b := addRepo(t, s, "octocat", "b")
	for _, step := range [][2]string{{"a", "c"}, {"b", "a"}, {"a", "b"}} {
		if err := s.RenameRepository("octocat", step[0], step[1]); err != nil {
			t.Fatal(err)
		}
	}
	// a is now c; b is now b again, having been a in between.
	for name, want := range map[string]int64{"a": b.ID, "b": b.ID, "c": a.ID} {
		if got, err := s.Repository(ctx, "octocat", name); err != nil || got.ID != want {
			t.Errorf("Repository(octocat, %s) = %+v, %v; want ID %d", name, got, err, want)
		}
	}
}

func TestRepositoryKeepsSpelling(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	if err := s.AddOrganization("Octo-Org"); err != nil {
		t.Fatal(err)
	}
	for i, name := range [][2]string{{"octo-org", "Hello-World"}, {"OctoCat", "a"}, {"OCTOCAT", "b"}} {
		if r := addRepo(t, s, name[0], name[1]); r.ID != int64(i+1) {
			t.Errorf("repository %d got ID %d", i+1, r.ID)
		}
	}
	for _, want := range [][2]string{{"Octo-Org", "Hello-World"}, {"OctoCat", "a"}, {"OctoCat", "b"}} {
		if r, err := s.Repository(ctx, want[0], want[1]); err != nil || r.Owner != want[0] || r.Name != want[1] {
			t.Errorf("Repository(%q, %q) = %+v, %v; want that spelling", want[0], want[1], r, err)
		}
	}
}

func TestValuesOfIssueThatIsNotLive(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	r := addRepo(t, s, "octocat", "hello")
	for _, n := range []int64{1, 2} {
		if err := s.AddIssue("octocat", "hello", n); err != nil {
			t.Fatal(err)
		}
	}
	_, v, _ := s.Values(ctx, issuefields.IssueKey{RepositoryID: r.ID, Number: 1})
	if err := s.DeleteIssue("octocat", "hello", 1); err != nil {
		t.Fatal(err)
	}
	if err := s.TransferIssue("octocat", "hello", 2, "octocat", "hello", 3); err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int64]error{1: issuefields.ErrIssueDeleted, 2: issuefields.ErrNotFound, 4: issuefields.ErrNotFound} {
		key := issuefields.IssueKey{RepositoryID: r.ID, Number: n}
		if _, _, err := s.Values(ctx, key); !errors.Is(err, want) {
			t.Errorf("Values(%+v) = %v, want %v", key, err, want)
		}
		if _, err := s.CompareAndSwap(ctx, key, v, nil); !errors.Is(err, want) {
			t.Errorf("CompareAndSwap(%+v) = %v, want %v", key, err, want)
		}
	}
}

func TestTransferIssueMovesValues(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	r := addRepo(t, s, "octocat", "hello")
	for _, n := range []int64{1, 2} {
		if err := s.AddIssue("octocat", "hello", n); err != nil {
			t.Fatal(err)
		}
	}
	moved := []issuefields.Value{{FieldID: 1, Text: "moved"}}
	if err := s.SetValues("octocat", "hello", 1, moved); err != nil {
		t.Fatal(err)
	}
	dst := issuefields.IssueKey{RepositoryID: r.ID, Number: 2}
	_, before, _ := s.Values(ctx, dst)
	if err := s.TransferIssue("octocat", "hello", 1, "octocat", "hello", 2); err != nil {
		t.Fatal(err)
	}
	got, after, err := s.Values(ctx, dst)
	if err != nil || !reflect.DeepEqual(got, moved) || after == before {
		t.Errorf("after the transfer, Values(%+v) = %v, %q, %v; want %v and a version other than %q", dst, got, after, err, moved, before)
	}
}

// TestValuesKeptExactly checks values that a JSONB column could not keep as
// they are: a text with a NUL character, which the API accepts as "\u0000",
// and a negative zero.
func TestValuesKeptExactly(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	r := addRepo(t, s, "octocat", "hello")
	if err := s.AddIssue("octocat", "hello", 1); err != nil {
		t.Fatal(err)
	}
	key := issuefields.IssueKey{RepositoryID: r.ID, Number: 1}
	want := []issuefields.Value{
		{FieldID: 1, Text: "nul \x00, tab \t, quote \", backslash \\, \u2028 and \U0001F600"},
		{FieldID: 2, Number: math.Copysign(0, -1)},
		{FieldID: 3, Number: math.SmallestNonzeroFloat64},
		{FieldID: 4, Number: -math.MaxFloat64},
		{FieldID: 5, OptionIDs: []int64{math.MaxInt64, 1}},
		{FieldID: 6, Date: "2024-02-29"},
	}
	_, v, err := s.Values(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CompareAndSwap(ctx, key, v, want); err != nil {
		t.Fatal(err)
	}
	got, _, err := s.Values(ctx, key)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Values = %#v, %v; want %#v", got, err, want)
	}
	if !math.Signbit(got[1].Number) {
		t.Errorf("Values returned %v for a negative zero, without its sign", got[1].Number)
	}
}

// TestVersionsOfOtherStores checks that a version the store never handed
// out, even one that reads as the same number, is a conflict.
func TestVersionsOfOtherStores(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	r := addRepo(t, s, "octocat", "hello")
	if err := s.AddIssue("octocat", "hello", 1); err != nil {
		t.Fatal(err)
	}
	key := issuefields.IssueKey{RepositoryID: r.ID, Number: 1}
	_, v, err := s.Values(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	for _, other := range []issuefields.Version{"", "0" + v, "+" + v, v + " ", "x", "99999999999999999999"} {
		if _, err := s.CompareAndSwap(ctx, key, other, nil); !errors.Is(err, issuefields.ErrVersionConflict) {
			t.Errorf("CompareAndSwap with version %q when the current one is %q = %v, want ErrVersionConflict", other, v, err)
		}
	}
}

func TestIsEmpty(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	if empty, err := s.IsEmpty(ctx); err != nil || !empty {
		t.Errorf("IsEmpty of a new store = %t, %v; want true", empty, err)
	}
	if err := s.AddOrganization("octo-org"); err != nil {
		t.Fatal(err)
	}
	if empty, err := s.IsEmpty(ctx); err != nil || empty {
		t.Errorf("IsEmpty after AddOrganization = %t, %v; want false", empty, err)
	}
}

// addRepo adds the public repository owner/name to s and returns it.
func addRepo(t *testing.T, s *pgstore.Store, owner, name string) issuefields.Repository {
	t.Helper()
	r, err := s.AddRepository(owner, name, false)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
