package pgstore_test

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
)

// TestValuesKeptExactly checks values that a JSONB column could not keep as
// they are: a text with a NUL character, which the API accepts as "\u0000",
// and a negative zero. Another Store reads them back from the database.
func TestValuesKeptExactly(t *testing.T) {
	ctx := context.Background()
	s := anIssue(t)
	want := []issuefields.Value{
		{FieldID: 1, Text: "nul \x00, tab \t, quote \", backslash \\, \u2028 and \U0001F600"},
		{FieldID: 2, Number: math.Copysign(0, -1)},
		{FieldID: 3, Number: math.SmallestNonzeroFloat64},
		{FieldID: 4, Number: -math.MaxFloat64},
		{FieldID: 5, OptionIDs: []int64{math.MaxInt64, 1}},
		{FieldID: 6, Date: "2024-02-29"},
	}
	snap, err := s.Snapshot(ctx, "octocat", "hello", 1)
	if err == nil {
		_, err = s.UpdateIssue(ctx, snap, issuefields.Issue{Values: want})
	}
	if err != nil {
		t.Fatal(err)
	}
	got, _ := storedValues(t, s, "octocat", "hello", 1)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the database holds %#v; want %#v", got, want)
	}
	if !math.Signbit(got[1].Number) {
		t.Errorf("the database holds %v for a negative zero, without its sign", got[1].Number)
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
// its issue 1.
func anIssue(t *testing.T) *pgstore.Store {
	t.Helper()
	s, _ := newStore(t)
	if _, err := s.AddRepository("octocat", "hello", false); err != nil {
		t.Fatal(err)
	}
	if err := s.AddIssue("octocat", "hello", 1); err != nil {
		t.Fatal(err)
	}
	return s
}
