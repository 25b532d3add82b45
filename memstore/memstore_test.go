package memstore_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/storetest"
	"github.com/issuefields/issuefields/webhook"
	"github.com/issuefields/issuefields/webhook/webhooktest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Store { return memstore.New() })
}

func TestHooksConformance(t *testing.T) {
	webhooktest.RunStore(t, func(t *testing.T) webhook.Store { return memstore.New().Hooks() })
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
		s.AddField("nobody", issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText}),
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

// TestIssueThatIsNotLive checks that Snapshot tells a deleted issue
// (ErrIssueDeleted) from one that was transferred away or never added
// (ErrNotFound), and that UpdateIssue stores nothing from a Snapshot of
// either.
func TestIssueThatIsNotLive(t *testing.T) {
	ctx := context.Background()
	s := memstore.New()
	if _, err := s.AddRepository("octocat", "hello", false); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		s.AddIssue("octocat", "hello", 1),
		s.AddIssue("octocat", "hello", 2),
		s.AddIssue("octocat", "hello", 3),
		s.TransferIssue("octocat", "hello", 2, "octocat", "hello", 4),
		s.TransferIssue("octocat", "hello", 3, "octocat", "hello", 5),
		s.DeleteIssue("octocat", "hello", 1),
		s.DeleteIssue("octocat", "hello", 5),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	// Issue 3 was transferred to 5, which was deleted.
	for n, want := range map[int64]error{1: issuefields.ErrIssueDeleted, 3: issuefields.ErrIssueDeleted, 6: issuefields.ErrNotFound} {
		snap, err := s.Snapshot(ctx, "octocat", "hello", n)
		if err != nil || !errors.Is(snap.IssueErr, want) {
			t.Errorf("Snapshot(%q, %q, %d) = %+v, %v; want IssueErr %v", "octocat", "hello", n, snap, err, want)
		}
		if _, err := s.UpdateIssue(ctx, snap, issuefields.Issue{}); !errors.Is(err, issuefields.ErrChanged) {
			t.Errorf("UpdateIssue from the Snapshot of issue %d = %v, want ErrChanged", n, err)
		}
	}
}

// TestSnapshotAllocatesNothing checks that a Snapshot of a live issue hands
// out the store's own slices. (A name asked for in upper case costs the
// lower-cased copy that finds it.)
func TestSnapshotAllocatesNothing(t *testing.T) {
	ctx := context.Background()
	s := memstore.New()
	if err := s.AddOrganization("octo-org"); err != nil {
		t.Fatal(err)
	}
	if err := s.AddField("octo-org", issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddRepository("octo-org", "hello-world", false); err != nil {
		t.Fatal(err)
	}
	if err := s.AddIssue("octo-org", "hello-world", 1); err != nil {
		t.Fatal(err)
	}
	if err := s.SetValues("octo-org", "hello-world", 1, []issuefields.Value{{FieldID: 1, Text: "note"}}); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := s.Snapshot(ctx, "octo-org", "hello-world", 1); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Snapshot of a live issue made %v allocations, want none", allocs)
	}
}

// TestVersionsDifferAcrossStores checks that two stores filled alike give
// different versions.
func TestVersionsDifferAcrossStores(t *testing.T) {
	var versions [2]issuefields.Version
	for i := range versions {
		s := memstore.New()
		if _, err := s.AddRepository("octocat", "hello", false); err != nil {
			t.Fatal(err)
		}
		if err := s.AddIssue("octocat", "hello", 1); err != nil {
			t.Fatal(err)
		}
		snap, err := s.Snapshot(context.Background(), "octocat", "hello", 1)
		if err != nil {
			t.Fatal(err)
		}
		versions[i] = snap.Issue.Version
	}
	if versions[0] == versions[1] {
		t.Errorf("two stores filled alike both gave the version %q", versions[0])
	}
}

// TestNewIDsCountOnFromTheLargest checks that ChangeFields gives each new
// field, then its new options, the next ID above every ID that a field or an
// option of the organization ever had, seeded or given.
func TestNewIDsCountOnFromTheLargest(t *testing.T) {
	ctx := context.Background()
	s := memstore.New()
	if err := s.AddOrganization("octo-org"); err != nil {
		t.Fatal(err)
	}
	if err := s.AddField("octo-org", issuefields.Field{ID: 5, Name: "Size", DataType: issuefields.DataTypeSingleSelect,
		Options: []issuefields.FieldOption{{ID: 40, Name: "S", Color: "blue"}}}); err != nil {
		t.Fatal(err)
	}
	stage := issuefields.Field{Name: "Stage", DataType: issuefields.DataTypeSingleSelect,
		Options: []issuefields.FieldOption{{Name: "Todo", Color: "gray"}, {Name: "Done", Color: "green"}}}
	for _, tt := range []struct {
		change func([]issuefields.Field) []issuefields.Field
		want   []int64 // the IDs of the fields and options, in order
	}{
		{func(current []issuefields.Field) []issuefields.Field {
			return append(current[:len(current):len(current)], stage, issuefields.Field{Name: "Notes", DataType: issuefields.DataTypeText})
		}, []int64{5, 40, 41, 42, 43, 44}},
		{func([]issuefields.Field) []issuefields.Field { return nil }, nil},
		{func([]issuefields.Field) []issuefields.Field { return []issuefields.Field{stage} }, []int64{45, 46, 47}},
	} {
		fields, err := s.ChangeFields(ctx, "octo-org", func(current []issuefields.Field) ([]issuefields.Field, error) {
			return tt.change(current), nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, f := range fields {
			ids = append(ids, f.ID)
			for _, o := range f.Options {
				ids = append(ids, o.ID)
			}
		}
		if !slices.Equal(ids, tt.want) {
			t.Errorf("ChangeFields stored the IDs %v, want %v", ids, tt.want)
		}
	}
}

// TestChangeFieldsOutOfIDs checks that ChangeFields refuses a new field, and
// changes nothing, once the organization has had the largest ID there is.
func TestChangeFieldsOutOfIDs(t *testing.T) {
	ctx := context.Background()
	s := memstore.New()
	if err := s.AddOrganization("octo-org"); err != nil {
		t.Fatal(err)
	}
	if err := s.AddField("octo-org", issuefields.Field{ID: math.MaxInt64, Name: "Notes", DataType: issuefields.DataTypeText}); err != nil {
		t.Fatal(err)
	}
	_, err := s.ChangeFields(ctx, "octo-org", func(current []issuefields.Field) ([]issuefields.Field, error) {
		return append(current[:len(current):len(current)], issuefields.Field{Name: "Due", DataType: issuefields.DataTypeDate}), nil
	})
	if err == nil {
		t.Error("ChangeFields gave a new field an ID above the largest there is")
	}
	if fields, err := s.OrganizationFields(ctx, "octo-org"); err != nil || len(fields) != 1 {
		t.Errorf("after ChangeFields ran out of IDs, OrganizationFields = %+v, %v; want the one field", fields, err)
	}
}

// TestChangeFieldsHoldsUpOnlyItsOrganization checks that while a change of
// one organization's fields runs (its change function is blocked), reads of
// that organization's values and fields, which see the fields before the
// change, writes of values, seed calls and changes of another
// organization's fields go on.
func TestChangeFieldsHoldsUpOnlyItsOrganization(t *testing.T) {
	ctx := context.Background()
	s := memstore.New()
	for _, org := range []string{"octo-org", "other-org"} {
		if err := s.AddOrganization(org); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.AddRepository("octo-org", "hello-world", false); err != nil {
		t.Fatal(err)
	}
	if err := s.AddIssue("octo-org", "hello-world", 1); err != nil {
		t.Fatal(err)
	}
	if err := s.AddField("octo-org", issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText}); err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, err := s.ChangeFields(ctx, "octo-org", func(current []issuefields.Field) ([]issuefields.Field, error) {
			close(entered)
			<-release
			return nil, nil
		})
		if err != nil {
			t.Error(err)
		}
	}()
	<-entered
	done := make(chan error, 1)
	go func() {
		snap, err := s.Snapshot(ctx, "octo-org", "hello-world", 1)
		if err == nil && len(snap.Fields) != 1 {
			err = fmt.Errorf("a Snapshot during the change shows the fields %+v, want those before it", snap.Fields)
		}
		if err == nil {
			var fields []issuefields.Field
			fields, err = s.OrganizationFields(ctx, "octo-org")
			if err == nil && len(fields) != 1 {
				err = fmt.Errorf("OrganizationFields during the change = %+v, want the fields before it", fields)
			}
		}
		if err == nil {
			_, err = s.UpdateIssue(ctx, snap, snap.Issue)
		}
		if err == nil {
			_, err = s.AddRepository("octo-org", "another", false)
		}
		if err == nil {
			_, err = s.ChangeFields(ctx, "other-org", func(current []issuefields.Field) ([]issuefields.Field, error) { return current, nil })
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(5 * time.Second):
		t.Error("calls waited for a change of octo-org's fields")
	}
	close(release)
	wg.Wait()
}
