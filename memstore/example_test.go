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
		s.AddField("octo-org", issuefields.Field{ID: 1, Name: "Priority", DataType: issuefields.DataTypeSingleSelect,
			Options: []issuefields.FieldOption{{ID: 11, Name: "High", Color: "red"}, {ID: 12, Name: "Low", Color: "green"}}}),
		s.AddField("octo-org", issuefields.Field{ID: 2, Name: "Notes", DataType: issuefields.DataTypeText}),
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

	// One Snapshot finds the repository by a former name, case-insensitively,
	// under its current name, with the issue, its fields, values and version.
	snap, err := s.Snapshot(ctx, "Octo-Org", "Hello-World", 1)
	if err != nil {
		panic(err)
	}
	fmt.Println("found:", snap.Repository.Owner+"/"+snap.Repository.Name, "issue", snap.Issue.Number, "with", len(snap.Fields), "fields")

	// UpdateIssue stores new values if the store still holds what the
	// Snapshot shows, as a compare-and-set; from the same Snapshot again,
	// after that write, it stores nothing.
	high := []issuefields.Value{{FieldID: 1, OptionIDs: []int64{11}}}
	if _, err := s.UpdateIssue(ctx, snap, issuefields.Issue{Values: high}); err != nil {
		panic(err)
	}
	_, err = s.UpdateIssue(ctx, snap, issuefields.Issue{})
	fmt.Println("stale write:", errors.Is(err, issuefields.ErrChanged))

	snap, err = s.Snapshot(ctx, "octo-org", "greetings", 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("values: %+v\n", snap.Issue.Values)

	// A new field gets an ID above every ID the organization had.
	fields, err := s.ChangeFields(ctx, "octo-org", func(current []issuefields.Field) ([]issuefields.Field, error) {
		return append(current[:len(current):len(current)], issuefields.Field{Name: "Due", DataType: issuefields.DataTypeDate}), nil
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("new field:", fields[len(fields)-1].ID, fields[len(fields)-1].Name)

	_, err = s.Snapshot(ctx, "octo-org", "nope", 1)
	fmt.Println("unknown repository:", errors.Is(err, issuefields.ErrNotFound))
	// Output:
	// found: octo-org/greetings issue 1 with 2 fields
	// stale write: true
	// values: [{FieldID:1 Text: Number:0 Date: OptionIDs:[11]}]
	// new field: 13 Due
	// unknown repository: true
}
