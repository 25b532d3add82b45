package main

import (
	"context"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// seed returns a store with organization acme, two fields, the public
// repository acme/widgets with issues 1 (two values) and 2, and the private
// repository acme/plans with issue 1.
func seed() (*memstore.Store, error) {
	s := memstore.New()
	if err := s.AddOrganization("acme"); err != nil {
		return nil, err
	}
	fields := []issuefields.Field{
		{ID: 1, Name: "Priority", DataType: issuefields.DataTypeSingleSelect, Options: []issuefields.FieldOption{
			{ID: 11, Name: "High", Color: "red"}, {ID: 12, Name: "Low", Color: "green"},
		}},
		{ID: 2, Name: "Estimate", DataType: issuefields.DataTypeNumber},
	}
	for _, f := range fields {
		if err := s.AddField("acme", f); err != nil {
			return nil, err
		}
	}
	for _, repo := range []struct {
		name    string
		private bool
		issues  []int64
	}{{"widgets", false, []int64{1, 2}}, {"plans", true, []int64{1}}} {
		if _, err := s.AddRepository("acme", repo.name, repo.private); err != nil {
			return nil, err
		}
		for _, n := range repo.issues {
			if err := s.AddIssue("acme", repo.name, n); err != nil {
				return nil, err
			}
		}
	}
	// Seed values are stored as the handler stores them: an option by its
	// ID, a number as a float64.
	return s, s.SetValues("acme", "widgets", 1, []issuefields.Value{
		{FieldID: 1, OptionIDs: []int64{11}},
		{FieldID: 2, Number: 3},
	})
}

// A grant is what the application knows about a token it issued.
type grant struct {
	login string
	kind  issuefields.TokenKind
	// repos holds the token's permissions by "owner/name". An application
	// whose repositories are renamed keys them by Repository.ID instead,
	// which stays the same.
	repos map[string]issuefields.RepositoryPermissions
}

var (
	write = issuefields.RepositoryPermissions{Visible: true, Issues: issuefields.PermissionWrite, Push: true}
	read  = issuefields.RepositoryPermissions{Visible: true, Issues: issuefields.PermissionRead}
)

// grants are the application's tokens: alice may write to both
// repositories, bob may read acme/widgets.
var grants = map[string]grant{
	"alice-token": {"alice", issuefields.FineGrainedPersonalAccessToken, map[string]issuefields.RepositoryPermissions{"acme/widgets": write, "acme/plans": write}},
	"bob-token":   {"bob", issuefields.FineGrainedPersonalAccessToken, map[string]issuefields.RepositoryPermissions{"acme/widgets": read}},
}

// verifier is the TokenVerifier of grants.
var verifier = issuefields.TokenVerifierFunc(func(ctx context.Context, token string) (*issuefields.Principal, error) {
	g, ok := grants[token]
	if !ok {
		return nil, issuefields.ErrBadCredentials // 401 Bad credentials
	}
	return &issuefields.Principal{
		Kind:  g.kind,
		Login: g.login,
		Permissions: func(ctx context.Context, repo issuefields.Repository) (issuefields.RepositoryPermissions, error) {
			return g.repos[repo.Owner+"/"+repo.Name], nil // not listed: the zero value grants nothing
		},
	}, nil
})
