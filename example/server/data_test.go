package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// loadDemo returns the dataset of the demo data in a new memstore.Store.
func loadDemo(t *testing.T) *dataset {
	t.Helper()
	d, err := readData(context.Background(), "")
	if err != nil {
		t.Fatalf("the demo data: %v", err)
	}
	return d
}

// TestBadDataStopsStartUp checks that the server refuses to start with a
// data file that breaks a rule, and says which file, where in it and which
// rule, whether decoding finds the fault or loading does. The datafile
// package's tests have a file for each rule.
func TestBadDataStopsStartUp(t *testing.T) {
	for _, tt := range []struct{ name, data, want string }{
		{"syntax error", "{\n  \"organizations\": [}", "line 2, column 21: invalid character '}' looking for beginning of value"},
		{"wrong JSON type", `{"organizations": [{"login": 7}]}`, "organizations[0].login: want a string, got a number"},
		{"duplicate field id",
			`{"organizations": [{"login": "o", "fields": [{"id": 1, "name": "A", "data_type": "text"}, {"id": 1, "name": "B", "data_type": "number"}]}]}`,
			`organizations[0].fields[1]: field 1 "B": id already used by field "A"`},
		{"value the API refuses",
			`{"organizations": [{"login": "o", "fields": [{"id": 1, "name": "Due", "data_type": "date"}]}],
			  "repositories": [{"owner": "o", "name": "r", "issues": [{"number": 1, "values": [{"field_id": 1, "value": "2025-02-30"}]}]}]}`,
			`repositories[0].issues[0].values[0].value: Field "Due" is a date field: "2025-02-30" is not a calendar date written "YYYY-MM-DD".`},
		{"token without login", `{"tokens": [{"token": "t", "kind": "fine_grained_pat"}]}`, "tokens[0].login: a token needs the login of its user or app"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "data.json")
			if err := os.WriteFile(file, []byte(tt.data), 0o600); err != nil {
				t.Fatal(err)
			}
			want := file + ": " + tt.want
			if err := runWithData(file); err == nil || err.Error() != want {
				t.Errorf("run error:\n got %v\nwant %s", err, want)
			}
		})
	}
}

func TestUnreadableDataFileStopsStartUp(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ file, want string }{
		{filepath.Join(dir, "missing.json"), filepath.Join(dir, "missing.json") + ": no such file or directory"},
		{dir, dir + ": is a directory"},
	} {
		if err := runWithData(tt.file); err == nil || err.Error() != tt.want {
			t.Errorf("run -data %s = %v, want %s", tt.file, err, tt.want)
		}
	}
}

// runWithData runs the server with -data file and a context that is already
// done, so that a server that starts stops at once, and returns run's error.
func runWithData(file string) error {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return run(ctx, []string{"-addr", "127.0.0.1:0", "-data", file}, io.Discard, io.Discard)
}

// customData is a data file with an organization of its own, a private
// repository that was transferred from a user and renamed since, and a token.
const customData = `{
  "organizations": [{"login": "acme", "fields": [
    {"id": 7, "name": "Team", "data_type": "single_select", "options": [{"id": 70, "name": "Platform", "color": "blue"}]},
    {"id": 8, "name": "Notes", "data_type": "text"}]}],
  "repositories": [
    {"owner": "acme", "name": "widgets", "private": true, "renamed_from": ["wile/gadgets", "gizmos"],
     "issues": [{"number": 12, "values": [{"field_id": 7, "value": "Platform"}]}]}],
  "tokens": [
    {"token": "acme-token", "kind": "app_user", "login": "roadrunner",
     "repositories": {"acme/widgets": {"issues": "write", "push": true}}}]
}`

// TestServeDataFile runs the server with -data and checks that it serves the
// file's data and tokens, redirects the repository's former names, and no
// longer knows the demo data.
func TestServeDataFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "acme.json")
	if err := os.WriteFile(file, []byte(customData), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "-data", file)
	if !slices.Contains(s.message, "Serving the data of "+file+".") {
		t.Errorf("the start-up message does not name the data file:\n%s", strings.Join(s.message, "\n"))
	}
	const path = "/issues/12/issue-field-values"
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(repo, token string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, s.base+"repos/"+repo+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}

	resp := get("acme/widgets", "acme-token")
	var items []struct {
		ID     int64  `json:"issue_field_id"`
		Name   string `json:"issue_field_name"`
		Value  any    `json:"value"`
		Option struct {
			Name string `json:"name"`
		} `json:"single_select_option"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&items); resp.StatusCode != http.StatusOK || err != nil ||
		len(items) != 1 || items[0].ID != 7 || items[0].Name != "Team" || items[0].Value != 70.0 || items[0].Option.Name != "Platform" {
		t.Errorf("GET acme/widgets#12 = %d %+v (%v), want 200 and field 7 Team = Platform (70)", resp.StatusCode, items, err)
	}
	for _, former := range []string{"wile/gadgets", "acme/gizmos"} {
		resp := get(former, "acme-token")
		if want := s.base + "repos/acme/widgets" + path; resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != want {
			t.Errorf("GET %s#12 = %d Location %q, want 301 to %s", former, resp.StatusCode, resp.Header.Get("Location"), want)
		}
	}
	if resp := get("acme/widgets", "demo-writer-token"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET acme/widgets#12 with a demo token = %d, want 401: the file has its own tokens", resp.StatusCode)
	}
	if resp := get("octo-org/hello-world", "acme-token"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET octo-org/hello-world#12 = %d, want 404: the file has its own repositories", resp.StatusCode)
	}
	status, body := do(t, http.MethodPost, s.base+"repos/acme/widgets"+path, "acme-token", `{"issue_field_values": [{"field_id": 8, "value": "Ships in May"}]}`)
	if status != http.StatusOK || !strings.Contains(body, `"value":"Ships in May"`) {
		t.Errorf("POST acme/widgets#12 = %d %s, want 200 with the new value", status, body)
	}
}

// TestTokenSeesTheOrganizationsOfItsRepositories checks that a token sees
// the organization that owns a repository it lists, without a permission on
// the organization's fields, so that the field management routes answer it
// 403 naming the permission rather than 404; and that a token that lists
// neither sees no organization.
func TestTokenSeesTheOrganizationsOfItsRepositories(t *testing.T) {
	s := startServer(t)
	fields := s.base + "orgs/octo-org/issue-fields"
	a := send(t, http.MethodGet, fields, "demo-writer-token", "")
	if a.status != http.StatusForbidden || !strings.Contains(a.body, "issue_fields") {
		t.Errorf("GET %s with demo-writer-token = %d %s, want 403 naming issue_fields", fields, a.status, a.body)
	}
	if a := send(t, http.MethodGet, fields, "demo-outsider-token", ""); a.status != http.StatusNotFound {
		t.Errorf("GET %s with demo-outsider-token = %d %s, want 404", fields, a.status, a.body)
	}
}
