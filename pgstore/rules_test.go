package pgstore_test

import (
	"testing"

	"github.com/issuefields/issuefields/internal/rulestest"
)

// TestRules runs the rules of field definitions and the edges of the values
// routes over PostgreSQL: the handler's answers are the same over every
// store.
func TestRules(t *testing.T) {
	rulestest.Run(t, func(t *testing.T) rulestest.Harness {
		s, _ := newStore(t)
		must(t, s.AddOrganization("octo-org"))
		_, err := s.AddRepository("octo-org", "hello-world", false)
		must(t, err)
		must(t, s.AddIssue("octo-org", "hello-world", 1))
		h := newFieldsAdminHandler(t, s)
		return rulestest.Harness{Handler: h, Org: "octo-org", Repo: "hello-world", Token: "fields-admin-token"}
	})
}
