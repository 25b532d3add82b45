package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestApp checks the application's own route beside the API, the API under
// /api/ with the application's tokens and seeded data, and a write.
func TestApp(t *testing.T) {
	app, err := newApp()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(app)
	defer srv.Close()
	for _, tc := range []struct {
		method, path, token, body string
		status                    int
		want                      string
	}{
		{"GET", "/", "", "", 200, "home page"},
		{"GET", "/api/repos/acme/widgets/issues/1/issue-field-values", "bob-token", "", 200, `"single_select_option":{"id":11,"name":"High","color":"red"}`},
		{"GET", "/api/repos/acme/plans/issues/1/issue-field-values", "bob-token", "", 404, `"message":"Not Found"`},
		{"GET", "/api/repos/acme/plans/issues/1/issue-field-values", "alice-token", "", 200, "[]\n"},
		{"POST", "/api/repos/acme/widgets/issues/2/issue-field-values", "bob-token", `{"issue_field_values":[{"field_id":2,"value":5}]}`, 403, "Resource not accessible"},
		{"POST", "/api/repos/acme/widgets/issues/2/issue-field-values", "alice-token", `{"issue_field_values":[{"field_id":2,"value":5}]}`, 200, `"value":5`},
		{"GET", "/api/repos/acme/widgets/issues/2/issue-field-values", "", "", 200, `"issue_field_name":"Estimate"`},
		{"GET", "/api/repos/acme/widgets/issues/1/issue-field-values", "mallory-token", "", 401, "Bad credentials"},
	} {
		req, err := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		if tc.token != "" {
			req.Header.Set("Authorization", "Bearer "+tc.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s %s with %q = %d %s, want %d and %q", tc.method, tc.path, tc.token, resp.StatusCode, body, tc.status, tc.want)
		}
	}
}
