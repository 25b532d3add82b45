package issuefields_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// exampleStore returns a store with one organization, one single_select
// field, one public repository and one issue.
func exampleStore() *memstore.Store {
	s := memstore.New()
	_ = s.AddOrganization("octo-org")
	_ = s.AddField("octo-org", issuefields.Field{ID: 1, Name: "Priority", DataType: issuefields.DataTypeSingleSelect,
		Options: []issuefields.FieldOption{{ID: 11, Name: "High", Color: "red"}, {ID: 12, Name: "Low", Color: "green"}}})
	_, _ = s.AddRepository("octo-org", "hello-world", false)
	_ = s.AddIssue("octo-org", "hello-world", 1)
	return s
}

// exampleVerifier knows one token, which may write to every repository.
var exampleVerifier = issuefields.TokenVerifierFunc(func(ctx context.Context, token string) (*issuefields.Principal, error) {
	if token != "secret-token" {
		return nil, issuefields.ErrBadCredentials
	}
	return &issuefields.Principal{
		Kind:  issuefields.FineGrainedPersonalAccessToken,
		Login: "octocat",
		Permissions: func(context.Context, issuefields.Repository) (issuefields.RepositoryPermissions, error) {
			return issuefields.RepositoryPermissions{Visible: true, Issues: issuefields.PermissionWrite, Push: true}, nil
		},
	}, nil
})

// A host application mounts the handler under a path of its own; the URLs the
// handler writes keep that path.
func ExampleNew() {
	h, err := issuefields.New(issuefields.Config{
		Store:    exampleStore(),
		Verifier: exampleVerifier,
		Logger:   slog.New(slog.DiscardHandler),
	})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/", http.StripPrefix("/api", h))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	// A repository that does not exist.
	resp, err := http.Get(srv.URL + "/api/repos/octo-org/nope/issues/1/issue-field-values")
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println(resp.Status)

	// An issue of a public repository, read without a token.
	resp, err = http.Get(srv.URL + "/api/repos/octo-org/hello-world/issues/1/issue-field-values?per_page=1")
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.Status, resp.Header.Get("X-Accepted-Service-Permissions"), string(body))
	// Output:
	// 404 Not Found
	// 200 OK issues=read []
}

// A write with a token: add (POST) sets the listed fields and answers with
// every value of the issue.
func ExampleHandler_ServeHTTP() {
	h, err := issuefields.New(issuefields.Config{
		Store:    exampleStore(),
		Verifier: exampleVerifier,
		Logger:   slog.New(slog.DiscardHandler),
	})
	if err != nil {
		panic(err)
	}
	req := httptest.NewRequest("POST", "/repos/octo-org/hello-world/issues/1/issue-field-values",
		strings.NewReader(`{"issue_field_values": [{"field_id": 1, "value": "High"}]}`))
	req.Header.Set("Authorization", "Bearer secret-token")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	fmt.Println(rec.Code)
	fmt.Println(rec.Body.String())
	// Output:
	// 200
	// [{"issue_field_id":1,"issue_field_name":"Priority","node_id":"IFSS_AAEB","data_type":"single_select","value":11,"single_select_option":{"id":11,"name":"High","color":"red"}}]
}
