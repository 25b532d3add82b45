package memstore_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// A Store starts empty and is filled with its seed methods; the handler then
// reads and writes it through the issuefields.Store methods, as this example
// does by hand.
func Example() {
	ctx := context.Background()
	s := memstore.New()
	for _, err := range []error{
		s.AddOrganization("octo-org"),
		s.AddField("octo-org", issuefields.Field{ID: 1, Name: "Priority", DataType: issuefields.SingleSelect,
			Options: []issuefields.Option{{ID: 11, Name: "High"}, {ID: 12, Name: "Low"}}}),
		s.AddField("octo-org", issuefields.Field{ID: 2, Name: "Notes", DataType: issuefields.Text}),
	} {
		if err != nil {
			panic(err)
		}
	}
	if _, err := s.AddRepository("octo-org", "hello-world", false); err != nil {
		panic(err)
	}
	if err := s.AddIssue("octo-org", "hello-world", 1); err != nil {
		panic(err)
	}
	if err := s.RenameRepository("octo-org", "hello-world", "greetings"); err != nil {
		panic(err)
	}

	// A repository is found by a former name, case-insensitively, under
	// its current name.
	repo, err := s.Repository(ctx, "Octo-Org", "Hello-World")
	if err != nil {
		panic(err)
	}
	fmt.Println("found:", repo.Owner+"/"+repo.Name)

	issue, err := s.Issue(ctx, repo, 1)
	if err != nil {
		panic(err)
	}
	fields, err := s.Fields(ctx, repo)
	if err != nil {
		panic(err)
	}
	fmt.Println("fields:", len(fields))

	// A write is a compare-and-set on the version the values were read at:
	// a writer holding an older version loses.
	_, version, err := s.Values(ctx, issue.Key())
	if err != nil {
		panic(err)
	}
	high := []issuefields.Value{{FieldID: 1, OptionIDs: []int64{11}}}
	if _, err := s.CompareAndSwap(ctx, issue.Key(), version, high); err != nil {
		panic(err)
	}
	_, err = s.CompareAndSwap(ctx, issue.Key(), version, nil)
	fmt.Println("stale write:", errors.Is(err, issuefields.ErrVersionConflict))

	values, _, err := s.Values(ctx, issue.Key())
	if err != nil {
		panic(err)
	}
	fmt.Printf("values: %+v\n", values)

	_, err = s.Repository(ctx, "octo-org", "nope")
	fmt.Println("unknown repository:", errors.Is(err, issuefields.ErrNotFound))
	// Output:
	// found: octo-org/greetings
	// fields: 2
	// stale write: true
	// values: [{FieldID:1 Text: Number:0 Date: OptionIDs:[11]}]
	// unknown repository: true
}
