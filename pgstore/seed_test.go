package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
)

// seeded returns a store with an organization and its field, a user, three
// repositories, and issues that are live, deleted and transferred.
func seeded(t *testing.T) *pgstore.Store {
	t.Helper()
	s, _ := newStore(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.AddOrganization("octo-org"))
	must(s.AddField("octo-org", issuefields.Field{ID: 1, Name: "Priority", DataType: issuefields.SingleSelect,
		Options: []issuefields.Option{{ID: 1, Name: "High"}, {ID: 2, Name: "Low"}}}))
	for _, name := range [][2]string{{"octo-org", "hello-world"}, {"octo-org", "spoon-knife"}, {"octocat", "spoon-knife"}} {
		_, err := s.AddRepository(name[0], name[1], false)
		must(err)
	}
	for n := int64(1); n <= 3; n++ {
		must(s.AddIssue("octo-org", "hello-world", n))
	}
	must(s.SetValues("octo-org", "hello-world", 1, []issuefields.Value{{FieldID: 1, OptionIDs: []int64{2}}}))
	must(s.DeleteIssue("octo-org", "hello-world", 2))
	must(s.TransferIssue("octo-org", "hello-world", 3, "octo-org", "hello-world", 4))
	return s
}

// observe describes what the Store methods show about the accounts,
// repositories and issues that the tests use.
func observe(s *pgstore.Store) string {
	ctx := context.Background()
	var b strings.Builder
	for _, owner := range []string{"octo-org", "octocat", "nobody"} {
		for _, name := range []string{"hello-world", "spoon-knife", "renamed", "new"} {
			r, err := s.Repository(ctx, owner, name)
			fmt.Fprintf(&b, "%s/%s: %+v, %v\n", owner, name, r, err)
			if err != nil {
				continue
			}
			fields, err := s.Fields(ctx, r)
			fmt.Fprintf(&b, "\tfields: %+v, %v\n", fields, err)
			for n := int64(1); n <= 5; n++ {
				is, err := s.Issue(ctx, r, n)
				values, v, verr := s.Values(ctx, issuefields.IssueKey{RepositoryID: r.ID, Number: n})
				fmt.Fprintf(&b, "\t#%d: %+v, %v; %+v, %q, %v\n", n, is, err, values, v, verr)
			}
		}
	}
	return b.String()
}

// TestBadSeedCallChangesNothing checks that each seed method refuses what
// memstore's refuses, with the same message but for the package's name, and
// changes nothing when it does.
func TestBadSeedCallChangesNothing(t *testing.T) {
	field := func(id int64, name string, dt issuefields.DataType, options ...issuefields.Option) issuefields.Field {
		return issuefields.Field{ID: id, Name: name, DataType: dt, Options: options}
	}
	high := issuefields.Option{ID: 7, Name: "High"}
	addRepo := func(owner, name string) func(*pgstore.Store) error {
		return func(s *pgstore.Store) error {
			_, err := s.AddRepository(owner, name, false)
			return err
		}
	}
	tests := []struct {
		name   string
		call   func(*pgstore.Store) error
		want   string // the error message
		target error  // what the error wraps, if anything
	}{
		{"empty organization", func(s *pgstore.Store) error { return s.AddOrganization("") },
			`pgstore: empty organization login`, nil},
		{"organization twice", func(s *pgstore.Store) error { return s.AddOrganization("Octo-Org") },
			`pgstore: organization "Octo-Org": account "octo-org" already exists`, nil},
		{"organization named like a user", func(s *pgstore.Store) error { return s.AddOrganization("octocat") },
			`pgstore: organization "octocat": account "octocat" already exists`, nil},
		{"field of an unknown organization", func(s *pgstore.Store) error { return s.AddField("nobody", field(2, "Notes", issuefields.Text)) },
			`pgstore: organization "nobody": issuefields: not found`, issuefields.ErrNotFound},
		{"field of a user", func(s *pgstore.Store) error { return s.AddField("OctoCat", field(2, "Notes", issuefields.Text)) },
			`pgstore: "octocat" is a user, not an organization`, nil},
		{"field ID zero", func(s *pgstore.Store) error { return s.AddField("octo-org", field(0, "Notes", issuefields.Text)) },
			`pgstore: field 0 of organization "octo-org": id is not positive`, nil},
		{"field ID taken", func(s *pgstore.Store) error { return s.AddField("octo-org", field(1, "Notes", issuefields.Text)) },
			`pgstore: field 1 of organization "octo-org": id already used by field "Priority"`, nil},
		{"field without a name", func(s *pgstore.Store) error { return s.AddField("octo-org", field(2, "", issuefields.Text)) },
			`pgstore: field 2 of organization "octo-org": empty name`, nil},
		{"field name taken", func(s *pgstore.Store) error { return s.AddField("octo-org", field(2, "Priority", issuefields.Text)) },
			`pgstore: field 2 of organization "octo-org": duplicate field name "Priority"`, nil},
		{"unknown data type", func(s *pgstore.Store) error { return s.AddField("octo-org", field(2, "Notes", "color")) },
			`pgstore: field 2 of organization "octo-org": unknown data type "color"`, nil},
		{"select field without options", func(s *pgstore.Store) error {
			return s.AddField("octo-org", field(2, "Size", issuefields.MultiSelect))
		},
			`pgstore: field 2 of organization "octo-org": a multi_select field needs at least one option`, nil},
		{"text field with options", func(s *pgstore.Store) error {
			return s.AddField("octo-org", field(2, "Notes", issuefields.Text, high))
		},
			`pgstore: field 2 of organization "octo-org": a text field has no options`, nil},
		{"option ID zero", func(s *pgstore.Store) error {
			return s.AddField("octo-org", field(3, "Size", issuefields.SingleSelect, issuefields.Option{Name: "S"}))
		}, `pgstore: field 3 of organization "octo-org": option "S": id 0 is not positive`, nil},
		{"option without a name", func(s *pgstore.Store) error {
			return s.AddField("octo-org", field(3, "Size", issuefields.SingleSelect, issuefields.Option{ID: 1}))
		}, `pgstore: field 3 of organization "octo-org": option 1: empty name`, nil},
		{"option ID taken", func(s *pgstore.Store) error {
			return s.AddField("octo-org", field(3, "Size", issuefields.SingleSelect, high, issuefields.Option{ID: 7, Name: "Low"}))
		}, `pgstore: field 3 of organization "octo-org": duplicate option id 7`, nil},
		{"option name taken", func(s *pgstore.Store) error {
			return s.AddField("octo-org", field(3, "Size", issuefields.SingleSelect, high, issuefields.Option{ID: 8, Name: "High"}))
		}, `pgstore: field 3 of organization "octo-org": duplicate option name "High"`, nil},
		{"repository without an owner", addRepo("", "new"),
			`pgstore: repository "/new": bad owner ""`, nil},
		{"repository without a name", addRepo("octo-org", ""),
			`pgstore: repository "octo-org/": bad name ""`, nil},
		{"owner with a slash", addRepo("octo/org", "new"),
			`pgstore: repository "octo/org/new": bad owner "octo/org"`, nil},
		{"repository twice", addRepo("Octo-Org", "Hello-World"),
			`pgstore: repository "octo-org/hello-world" already exists`, nil},
		{"rename of an unknown repository", func(s *pgstore.Store) error { return s.RenameRepository("octo-org", "nope", "renamed") },
			`pgstore: repository "octo-org/nope": issuefields: not found`, issuefields.ErrNotFound},
		{"rename to an empty name", func(s *pgstore.Store) error { return s.RenameRepository("octo-org", "hello-world", "") },
			`pgstore: repository "octo-org/": bad name ""`, nil},
		{"rename to a taken name", func(s *pgstore.Store) error { return s.RenameRepository("octo-org", "hello-world", "Spoon-Knife") },
			`pgstore: repository "octo-org/spoon-knife" already exists`, nil},
		{"transfer of an unknown repository", func(s *pgstore.Store) error { return s.TransferRepository("nobody", "hello-world", "octocat") },
			`pgstore: repository "nobody/hello-world": issuefields: not found`, issuefields.ErrNotFound},
		{"transfer to nobody", func(s *pgstore.Store) error { return s.TransferRepository("octo-org", "hello-world", "") },
			`pgstore: repository "/hello-world": bad owner ""`, nil},
		{"transfer to a taken name", func(s *pgstore.Store) error { return s.TransferRepository("octocat", "spoon-knife", "octo-org") },
			`pgstore: repository "octo-org/spoon-knife" already exists`, nil},
		{"issue of an unknown repository", func(s *pgstore.Store) error { return s.AddIssue("octo-org", "nope", 1) },
			`pgstore: repository "octo-org/nope": issuefields: not found`, issuefields.ErrNotFound},
		{"issue number zero", func(s *pgstore.Store) error { return s.AddIssue("octo-org", "hello-world", 0) },
			`pgstore: issue 0 of "octo-org/hello-world": number is not positive`, nil},
		{"issue twice", func(s *pgstore.Store) error { return s.AddIssue("octo-org", "hello-world", 1) },
			`pgstore: issue 1 of "octo-org/hello-world" already exists`, nil},
		{"issue number of a deleted issue", func(s *pgstore.Store) error { return s.AddIssue("octo-org", "hello-world", 2) },
			`pgstore: issue 2 of "octo-org/hello-world" already exists`, nil},
		{"issue number of a transferred issue", func(s *pgstore.Store) error { return s.AddIssue("octo-org", "hello-world", 3) },
			`pgstore: issue 3 of "octo-org/hello-world" already exists`, nil},
		{"deletion of an unknown issue", func(s *pgstore.Store) error { return s.DeleteIssue("octo-org", "hello-world", 5) },
			`pgstore: issue 5 of "octo-org/hello-world": issuefields: not found`, issuefields.ErrNotFound},
		{"deletion of a deleted issue", func(s *pgstore.Store) error { return s.DeleteIssue("octo-org", "hello-world", 2) },
			`pgstore: issue 2 of "octo-org/hello-world": issuefields: issue deleted`, issuefields.ErrIssueDeleted},
		{"deletion of a transferred issue", func(s *pgstore.Store) error { return s.DeleteIssue("octo-org", "hello-world", 3) },
			`pgstore: issue 3 of "octo-org/hello-world" was transferred to issue 4 of repository 1: issuefields: not found`, issuefields.ErrNotFound},
		{"transfer of a deleted issue", func(s *pgstore.Store) error {
			return s.TransferIssue("octo-org", "hello-world", 2, "octocat", "spoon-knife", 1)
		},
			`pgstore: issue 2 of "octo-org/hello-world": issuefields: issue deleted`, issuefields.ErrIssueDeleted},
		{"transfer of an issue to itself", func(s *pgstore.Store) error {
			return s.TransferIssue("octo-org", "hello-world", 1, "Octo-Org", "Hello-World", 1)
		},
			`pgstore: cannot transfer issue 1 of "Octo-Org/Hello-World" to itself`, nil},
		{"transfer of an issue to number zero", func(s *pgstore.Store) error {
			return s.TransferIssue("octo-org", "hello-world", 1, "octocat", "spoon-knife", 0)
		},
			`pgstore: issue 0 of "octocat/spoon-knife": number is not positive`, nil},
		{"transfer of an issue to an unknown repository", func(s *pgstore.Store) error {
			return s.TransferIssue("octo-org", "hello-world", 1, "octocat", "nope", 1)
		},
			`pgstore: repository "octocat/nope": issuefields: not found`, issuefields.ErrNotFound},
		{"transfer of an issue onto a deleted one", func(s *pgstore.Store) error {
			return s.TransferIssue("octo-org", "hello-world", 1, "octo-org", "hello-world", 2)
		},
			`pgstore: issue 2 of "octo-org/hello-world": issuefields: issue deleted`, issuefields.ErrIssueDeleted},
		{"transfer of an issue onto a transferred one", func(s *pgstore.Store) error {
			return s.TransferIssue("octo-org", "hello-world", 1, "octo-org", "hello-world", 3)
		},
			`pgstore: issue 3 of "octo-org/hello-world" was transferred to issue 4 of repository 1: issuefields: not found`, issuefields.ErrNotFound},
		{"values of an unknown issue", func(s *pgstore.Store) error { return s.SetValues("octo-org", "hello-world", 5, nil) },
			`pgstore: issue 5 of "octo-org/hello-world": issuefields: not found`, issuefields.ErrNotFound},
		{"values of a deleted issue", func(s *pgstore.Store) error { return s.SetValues("octo-org", "hello-world", 2, nil) },
			`pgstore: issue 2 of "octo-org/hello-world": issuefields: issue deleted`, issuefields.ErrIssueDeleted},
	}
	// A refused call changes nothing, so every case can start from the same
	// store.
	s := seeded(t)
	before := observe(s)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call(s)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error = %v, want %s", err, tt.want)
			}
			if tt.target != nil && !errors.Is(err, tt.target) {
				t.Errorf("error %v does not wrap %v", err, tt.target)
			}
			if after := observe(s); after != before {
				t.Fatalf("the store changed from\n%s\nto\n%s", before, after)
			}
		})
	}
}
