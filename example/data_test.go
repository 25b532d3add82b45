package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
)

func TestDemoDataLoads(t *testing.T) {
	d, err := load(bytes.NewReader(demoData))
	if err != nil {
		t.Fatalf("load(demo.json): %v", err)
	}
	ctx := context.Background()
	repo, err := d.store.Repository(ctx, "octo-org", "hello-world")
	if err != nil {
		t.Fatal(err)
	}
	values, _, err := d.store.Values(ctx, issuefields.IssueKey{RepositoryID: repo.ID, Number: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := []issuefields.Value{
		{FieldID: 1, OptionIDs: []int64{11}},
		{FieldID: 2, Number: 3},
		{FieldID: 3, Date: "2026-04-01"},
		{FieldID: 4, Text: "Crash when saving a file with a long name"},
		{FieldID: 5, OptionIDs: []int64{51, 53}}, // given as Windows, Linux: stored in the field's order
	}
	if !reflect.DeepEqual(values, want) {
		t.Errorf("values of octo-org/hello-world#1 = %+v, want %+v", values, want)
	}
	if _, err := d.store.Issue(ctx, repo, 4); !errors.Is(err, issuefields.ErrIssueDeleted) {
		t.Errorf("Issue(hello-world#4) error = %v, want ErrIssueDeleted", err)
	}
	moved, err := d.store.Issue(ctx, repo, 5)
	if err != nil || moved.Repository.Name != "handbook" || moved.Number != 8 {
		t.Errorf("Issue(hello-world#5) = %+v, %v; want octo-org/handbook#8", moved, err)
	}
	renamed, err := d.store.Repository(ctx, "octo-org", "docs")
	if err != nil || renamed.Name != "handbook" {
		t.Errorf("Repository(octo-org, docs) = %+v, %v; want octo-org/handbook", renamed, err)
	}
}

// dataFileOrg is a valid organization with a field of each data type, for
// the bad data files below.
const dataFileOrg = `{"login": "octo-org", "fields": [
	{"id": 1, "name": "Priority", "data_type": "single_select", "options": [{"id": 11, "name": "High", "color": "red"}, {"id": 12, "name": "Low", "color": "green"}]},
	{"id": 2, "name": "Estimate", "data_type": "number"},
	{"id": 3, "name": "Due", "data_type": "date"},
	{"id": 4, "name": "Note", "data_type": "text"},
	{"id": 5, "name": "OS", "data_type": "multi_select", "options": [{"id": 51, "name": "Linux", "color": "blue"}, {"id": 52, "name": "macOS", "color": "gray"}]}]}`

// withRepos returns a data file with dataFileOrg, the repository
// octo-org/other, and repository octo-org/hello-world with issues.
func withIssues(issues string) string {
	return fmt.Sprintf(`{"organizations": [%s], "repositories": [
		{"owner": "octo-org", "name": "hello-world", "issues": [%s]},
		{"owner": "octo-org", "name": "other", "issues": [{"number": 1}]}]}`, dataFileOrg, issues)
}

// withValue returns a data file whose octo-org/hello-world#1 has value for
// field id.
func withValue(id int, value string) string {
	return withIssues(fmt.Sprintf(`{"number": 1, "values": [{"field_id": %d, "value": %s}]}`, id, value))
}

// withTokens returns a data file with dataFileOrg, the repositories
// octo-org/hello-world (formerly old-name) and octo-org/other, and tokens.
func withTokens(tokens string) string {
	return fmt.Sprintf(`{"organizations": [%s], "repositories": [
		{"owner": "octo-org", "name": "hello-world", "renamed_from": ["old-name"]},
		{"owner": "octo-org", "name": "other"}], "tokens": [%s]}`, dataFileOrg, tokens)
}

func TestLoadRefusesBadData(t *testing.T) {
	const valuePath = "repositories[0].issues[0].values[0].value: "
	tests := []struct {
		name, data string
		// want is the error message. If prefix is set, want is only its
		// beginning: the rest is the store's own message.
		want   string
		prefix bool
	}{
		{"empty file", ``, "the file holds no JSON object", false},
		{"syntax error", "{\n  \"organizations\": [}", "line 2, column 21: invalid character '}' looking for beginning of value", false},
		{"wrong JSON type", "{\"organizations\": [\n  {\"login\": 7}]}", "line 2, column 13: organizations.login: want a JSON string, got number", false},
		{"unknown key", `{"organisations": []}`, `json: unknown field "organisations"`, false},
		{"data after the object", `{} {}`, "line 1, column 4: data after the end of the top-level object", false},
		{"organization without login", `{"organizations": [{"login": ""}]}`, "organizations[0].login: ", true},
		{"unknown data type",
			`{"organizations": [{"login": "o", "fields": [{"id": 1, "name": "A", "data_type": "text"}, {"id": 2, "name": "B", "data_type": "enum"}]}]}`,
			`organizations[0].fields[1].data_type: unknown data type "enum"; want text, single_select, number, date or multi_select`, false},
		{"duplicate field id",
			`{"organizations": [{"login": "o", "fields": [{"id": 1, "name": "A", "data_type": "text"}, {"id": 1, "name": "B", "data_type": "number"}]}]}`,
			"organizations[0].fields[1]: ", true},
		{"select field without options",
			`{"organizations": [{"login": "o", "fields": [{"id": 1, "name": "A", "data_type": "single_select"}]}]}`,
			"organizations[0].fields[0]: ", true},
		{"duplicate repository",
			`{"repositories": [{"owner": "u", "name": "r"}, {"owner": "U", "name": "R"}]}`,
			"repositories[1]: ", true},
		{"field of no organization",
			withIssues(`{"number": 1}, {"number": 2, "values": [{"field_id": 7, "value": "x"}]}`),
			`repositories[0].issues[1].values[0]: field 7 is not a field of organization "octo-org"`, false},
		{"value on a repository of a user",
			`{"repositories": [{"owner": "someone", "name": "r", "issues": [{"number": 1, "values": [{"field_id": 1, "value": "x"}]}]}]}`,
			`repositories[0].issues[0].values[0]: field 1 is not a field of someone/r: its owner "someone" is not an organization of the file, so it has no fields`, false},
		{"field twice on an issue",
			withIssues(`{"number": 1, "values": [{"field_id": 2, "value": 1}, {"field_id": 2, "value": 2}]}`),
			"repositories[0].issues[0].values[1]: field 2 already has a value in values[0]", false},
		{"unknown option name", withValue(1, `"Urgent"`),
			valuePath + `Field "Priority" is a single_select field with no option named "Urgent"; valid names are "High", "Low".`, false},
		{"single_select given an option id", withValue(1, `11`),
			valuePath + `Field "Priority" is a single_select field: value must be the name of one of its options ("High", "Low"), not 11.`, false},
		{"number given a string", withValue(2, `"3"`),
			valuePath + `Field "Estimate" is a number field: value must be a JSON number, not "3".`, false},
		{"number too large", withValue(2, `1e400`),
			valuePath + `Field "Estimate" is a number field: value 1e400 is out of the range of a 64-bit floating-point number.`, false},
		{"date that does not exist", withValue(3, `"2025-02-30"`),
			valuePath + `Field "Due" is a date field: "2025-02-30" is not a calendar date written "YYYY-MM-DD".`, false},
		{"date in another format", withValue(3, `"30.01.2025"`),
			valuePath + `Field "Due" is a date field: "30.01.2025" is not a calendar date written "YYYY-MM-DD".`, false},
		{"empty text", withValue(4, `""`),
			valuePath + `Field "Note" is a text field: value must be 1 to 1024 characters long, not 0.`, false},
		{"text too long", withValue(4, `"`+strings.Repeat("é", 1025)+`"`),
			valuePath + `Field "Note" is a text field: value must be 1 to 1024 characters long, not 1025.`, false},
		{"null value", withValue(4, `null`),
			valuePath + `Field "Note" is a text field: value must not be null. To remove a field's value, use DELETE on .../issue-field-values/{issue_field_id}.`, false},
		{"multi_select given a string", withValue(5, `"Linux"`),
			valuePath + `Field "OS" is a multi_select field: value must be a non-empty array of option names from "Linux", "macOS".`, false},
		{"multi_select given no names", withValue(5, `[]`),
			valuePath + `Field "OS" is a multi_select field: value must be a non-empty array of option names from "Linux", "macOS".`, false},
		{"multi_select option twice", withValue(5, `["Linux", "Linux"]`),
			valuePath + `Field "OS" is a multi_select field: option "Linux" is listed more than once.`, false},
		{"multi_select unknown option", withValue(5, `["Linux", "BeOS"]`),
			valuePath + `Field "OS" is a multi_select field with no option named "BeOS"; valid names are "Linux", "macOS".`, false},
		{"issue number twice", withIssues(`{"number": 1}, {"number": 1}`),
			"repositories[0].issues[1].number: ", true},
		{"deleted issue with values", withIssues(`{"number": 1, "deleted": true, "values": [{"field_id": 2, "value": 1}]}`),
			"repositories[0].issues[0]: a deleted issue has no values", false},
		{"deleted and transferred", withIssues(`{"number": 1, "deleted": true, "transferred_to": {"owner": "octo-org", "name": "other", "number": 2}}`),
			"repositories[0].issues[0]: an issue is deleted or transferred, not both", false},
		{"transfer to an unknown repository", withIssues(`{"number": 1, "transferred_to": {"owner": "octo-org", "name": "nope", "number": 2}}`),
			`repositories[0].issues[0].transferred_to: "octo-org/nope" is not a repository of the file`, false},
		{"transfer onto a listed issue", withIssues(`{"number": 1, "transferred_to": {"owner": "octo-org", "name": "other", "number": 1}}`),
			"repositories[0].issues[0].transferred_to: octo-org/other#1 is already an issue; a transfer creates the issue it moves to, so name a number that the repository does not use", false},
		{"two transfers to one issue", withIssues(`{"number": 1, "transferred_to": {"owner": "octo-org", "name": "other", "number": 2}}, {"number": 2, "transferred_to": {"owner": "octo-org", "name": "other", "number": 2}}`),
			"repositories[0].issues[1].transferred_to: octo-org/other#2 is already an issue; a transfer creates the issue it moves to, so name a number that the repository does not use", false},
		{"transfer with values to another organization",
			fmt.Sprintf(`{"organizations": [%s], "repositories": [
				{"owner": "octo-org", "name": "r", "issues": [{"number": 1, "values": [{"field_id": 2, "value": 1}], "transferred_to": {"owner": "someone", "name": "s", "number": 1}}]},
				{"owner": "someone", "name": "s"}]}`, dataFileOrg),
			`repositories[0].issues[0].transferred_to: values move with a transferred issue, so an issue with values moves only within its organization "octo-org"`, false},
		{"token for an unknown repository",
			withTokens(`{"token": "t", "kind": "fine_grained_pat", "login": "l", "repositories": {"octo-org/hello-world": {}, "octo-org/nope": {"issues": "read"}}}`),
			`tokens[0].repositories["octo-org/nope"]: not a repository of the file`, false},
		{"token repository without owner",
			withTokens(`{"token": "t", "kind": "fine_grained_pat", "login": "l", "repositories": {"hello-world": {}}}`),
			`tokens[0].repositories["hello-world"]: want a repository as "owner/name"`, false},
		{"token lists a repository twice",
			withTokens(`{"token": "t", "kind": "fine_grained_pat", "login": "l", "repositories": {"octo-org/hello-world": {}, "octo-org/old-name": {}}}`),
			`tokens[0].repositories["octo-org/old-name"]: the token already lists octo-org/hello-world under another name`, false},
		{"unknown permission",
			withTokens(`{"token": "t", "kind": "fine_grained_pat", "login": "l", "repositories": {"octo-org/other": {"issues": "admin"}}}`),
			`tokens[0].repositories["octo-org/other"].issues: unknown permission "admin"; want none, read or write`, false},
		{"unknown token kind",
			withTokens(`{"token": "t", "kind": "fine_grained_pat", "login": "l"}, {"token": "u", "kind": "ssh_key", "login": "l"}`),
			`tokens[1].kind: unknown token kind "ssh_key"; want app_user, app_installation, fine_grained_pat, classic_pat or oauth_app`, false},
		{"duplicate token",
			withTokens(`{"token": "same", "kind": "fine_grained_pat", "login": "a"}, {"token": "other", "kind": "app_user", "login": "b"}, {"token": "same", "kind": "app_user", "login": "c"}`),
			"tokens[2].token: the same token as tokens[0]; each token is listed once", false},
		{"empty token", withTokens(`{"token": "", "kind": "fine_grained_pat", "login": "l"}`),
			"tokens[0].token: a token needs a value", false},
		{"token with a space", withTokens(`{"token": "a b", "kind": "fine_grained_pat", "login": "l"}`),
			"tokens[0].token: a token has no white space, which an Authorization header could not carry", false},
		{"token without login", withTokens(`{"token": "t", "kind": "fine_grained_pat"}`),
			"tokens[0].login: a token needs the login of its user or app", false},
		{"expiry not RFC 3339", withTokens(`{"token": "t", "kind": "fine_grained_pat", "login": "l", "expires_at": "2030-01-31"}`),
			`tokens[0].expires_at: "2030-01-31" is not an RFC 3339 time such as 2030-01-31T12:00:00Z`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(strings.NewReader(tt.data))
			if err == nil {
				t.Fatalf("load succeeded, want error %q", tt.want)
			}
			if got := err.Error(); got != tt.want && !(tt.prefix && strings.HasPrefix(got, tt.want) && len(got) > len(tt.want)) {
				t.Errorf("load error:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestBadDataFilesAreOtherwiseValid checks that the bad data files of
// TestLoadRefusesBadData fail for their own reason: the same files with the
// fault removed load.
func TestBadDataFilesAreOtherwiseValid(t *testing.T) {
	for _, data := range []string{
		withIssues(`{"number": 1}, {"number": 2, "deleted": true}, {"number": 3, "transferred_to": {"owner": "octo-org", "name": "other", "number": 2}}`),
		withValue(1, `"High"`),
		withValue(2, `1.5`),
		withValue(3, `"2024-02-29"`),
		withValue(4, `"`+strings.Repeat("é", 1024)+`"`),
		withValue(5, `["macOS", "Linux"]`),
		withTokens(`{"token": "t", "kind": "fine_grained_pat", "login": "l", "expires_at": "2030-01-31T12:00:00Z",
			"repositories": {"octo-org/old-name": {"issues": "write", "pull_requests": "read", "push": true}, "Octo-Org/OTHER": {}}}`),
	} {
		if _, err := load(strings.NewReader(data)); err != nil {
			t.Errorf("load: %v\ndata: %s", err, data)
		}
	}
}
