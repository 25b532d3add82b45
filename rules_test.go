package issuefields_test

import (
	"context"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/rulestest"
	"github.com/issuefields/issuefields/memstore"
)

// rulesAdmin may manage every organization's fields and write the values of
// every repository.
var rulesAdmin = &issuefields.Principal{
	Kind:  issuefields.FineGrainedPersonalAccessToken,
	Login: "rules-admin",
	Permissions: func(context.Context, issuefields.Repository) (issuefields.RepositoryPermissions, error) {
		return issuefields.RepositoryPermissions{Visible: true, Issues: issuefields.PermissionWrite, Push: true}, nil
	},
	OrganizationPermissions: func(context.Context, string) (issuefields.OrganizationPermissions, error) {
		return issuefields.OrganizationPermissions{Visible: true, IssueFields: issuefields.PermissionWrite}, nil
	},
}

// TestRules runs the rules of field definitions and the edges of the values
// routes over memstore.
func TestRules(t *testing.T) {
	rulestest.Run(t, func(t *testing.T) rulestest.Harness {
		s := memstore.New()
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(s.AddOrganization("octo-org"))
		_, err := s.AddRepository("octo-org", "hello-world", false)
		must(err)
		must(s.AddIssue("octo-org", "hello-world", 1))
		h := newConfiguredHandler(t, issuefields.Config{Store: s,
			Verifier: issuefields.TokenVerifierFunc(func(context.Context, string) (*issuefields.Principal, error) {
				return rulesAdmin, nil
			}),
			WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: -1}})
		return rulestest.Harness{Handler: h, Org: "octo-org", Repo: "hello-world", Token: "rules-admin-token"}
	})
}
