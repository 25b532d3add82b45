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

// TestValuesKeptExactly checks values that a JSONB column could not keep as
// they are: a text with a NUL character, which the API accepts as "\u0000",
// and a negative zero.
func TestValuesKeptExactly(t *testing.T) {
	ctx := context.Background()
	s, key := anIssue(t)
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
	s, key := anIssue(t)
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

// anIssue returns a new store that holds the repository octocat/hello and
// its issue 1, and the issue's key.
func anIssue(t *testing.T) (*pgstore.Store, issuefields.IssueKey) {
	t.Helper()
	s, _ := newStore(t)
	r, err := s.AddRepository("octocat", "hello", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddIssue("octocat", "hello", 1); err != nil {
		t.Fatal(err)
	}
	return s, issuefields.IssueKey{RepositoryID: r.ID, Number: 1}
}
