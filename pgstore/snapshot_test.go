package pgstore_test

import (
	"net/http"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/seed"
)

// seedMoves gives s an organization with a select field, repositories that
// were renamed and transferred, and issues that were deleted and transferred,
// within a repository and to another one.
func seedMoves(t *testing.T, s seed.Seeder) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.AddOrganization("octo-org"))
	must(s.AddOrganization("other-org"))
	must(s.AddField("octo-org", issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText}))
	must(s.AddField("octo-org", issuefields.Field{ID: 2, Name: "Priority", DataType: issuefields.DataTypeSingleSelect,
		Options: []issuefields.FieldOption{{ID: 21, Name: "High", Color: "red"}, {ID: 22, Name: "Low", Color: "green"}}}))
	for _, name := range []string{"hello-world", "old-name", "moving", "target"} {
		_, err := s.AddRepository("octo-org", name, false)
		must(err)
	}
	for n := int64(1); n <= 5; n++ {
		must(s.AddIssue("octo-org", "hello-world", n))
	}
	must(s.AddIssue("octo-org", "old-name", 1))
	must(s.AddIssue("octo-org", "moving", 1))
	must(s.SetValues("octo-org", "hello-world", 1, []issuefields.Value{{FieldID: 1, Text: "one"}, {FieldID: 2, OptionIDs: []int64{22}}}))
	must(s.SetValues("octo-org", "old-name", 1, []issuefields.Value{{FieldID: 1, Text: "renamed"}}))
	must(s.DeleteIssue("octo-org", "hello-world", 2))
	must(s.TransferIssue("octo-org", "hello-world", 3, "octo-org", "hello-world", 30))
	must(s.TransferIssue("octo-org", "hello-world", 4, "octo-org", "target", 40))
	must(s.TransferIssue("octo-org", "target", 40, "octo-org", "target", 41))
	must(s.RenameRepository("octo-org", "old-name", "new-name"))
	must(s.TransferRepository("octo-org", "moving", "other-org"))
}

// TestSnapshotAnswersAsMemstore checks that a handler over pgstore, which
// reads each request with Snapshot, answers every kind of lookup as one over
// memstore does: lists, writes, renamed and transferred repositories,
// deleted issues, issues transferred once or twice, unknown ones.
func TestSnapshotAnswersAsMemstore(t *testing.T) {
	pg, _ := newStore(t)
	mem := memstore.New()
	seedMoves(t, pg)
	seedMoves(t, mem)
	handlers := map[string]http.Handler{"pgstore": newHandler(t, pg), "memstore": newHandler(t, mem)}
	requests := []struct{ method, path, body string }{
		{"GET", valuesPath("octo-org", "hello-world", 1), ""},
		{"GET", valuesPath("Octo-Org", "Hello-World", 1), ""},
		{"GET", valuesPath("octo-org", "hello-world", 2), ""},
		{"POST", valuesPath("octo-org", "hello-world", 2), textBody(1, "x")},
		{"GET", valuesPath("octo-org", "hello-world", 3), ""},
		{"PUT", valuesPath("octo-org", "hello-world", 3), textBody(1, "x")},
		{"GET", valuesPath("octo-org", "hello-world", 4), ""},
		{"GET", valuesPath("octo-org", "hello-world", 9), ""},
		{"GET", valuesPath("octo-org", "hello-world.git", 1), ""},
		{"GET", valuesPath("octo-org", "old-name", 1), ""},
		{"GET", valuesPath("octo-org", "new-name", 1), ""},
		{"GET", valuesPath("octo-org", "moving", 1), ""},
		{"GET", valuesPath("other-org", "moving", 1), ""},
		{"GET", valuesPath("octo-org", "nothing", 1), ""},
		{"POST", valuesPath("octo-org", "hello-world", 1), `{"issue_field_values":[{"field_id":2,"value":"High"}]}`},
		{"POST", valuesPath("octo-org", "hello-world", 1), `{"issue_field_values":[{"field_id":2,"value":"Gone"}]}`},
		{"DELETE", valuesPath("octo-org", "hello-world", 1) + "/1", ""},
		{"DELETE", valuesPath("octo-org", "hello-world", 1) + "/1", ""},
		{"GET", valuesPath("octo-org", "hello-world", 1), ""},
		{"GET", valuesPath("octo-org", "target", 41), ""},
	}
	for _, r := range requests {
		want := serve(handlers["memstore"], r.method, r.path, r.body)
		got := serve(handlers["pgstore"], r.method, r.path, r.body)
		if got.Code != want.Code || got.Body.String() != want.Body.String() ||
			got.Header().Get("Location") != want.Header().Get("Location") {
			t.Errorf("%s %s: pgstore answers %d %q %s\nmemstore answers %d %q %s", r.method, r.path,
				got.Code, got.Header().Get("Location"), got.Body, want.Code, want.Header().Get("Location"), want.Body)
		}
	}
}
