package datafile

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/internal/lookup"
	"github.com/issuefields/issuefields/memstore"
)

// loaded is a data file loaded into a new memstore.Store.
type loaded struct {
	file  *File
	store *memstore.Store
	*Loaded
}

// load parses data and loads it into a new memstore.Store.
func load(data []byte) (*loaded, error) {
	f, err := Parse(data)
	if err != nil {
		return nil, err
	}
	d := &loaded{file: f, store: memstore.New()}
	if d.Loaded, err = Load(context.Background(), f, d.store); err != nil {
		return nil, err
	}
	return d, nil
}

// TestIssuesGetTheirRecord checks that every issue of a file gets its record
// in the store, what the file gives and the documented defaults for what it
// leaves out, and an ID by the order of the file, the same when the file is
// loaded again.
func TestIssuesGetTheirRecord(t *testing.T) {
	data := []byte(`{"repositories": [{"owner": "octo-org", "name": "a", "issues": [
		{"number": 7, "title": "Crash", "body": "It crashes.", "state": "closed", "state_reason": "not_planned",
		 "labels": ["bug", "ui"], "assignees": ["hubot"], "author": "monalisa", "created_at": "2024-02-29T12:30:00+01:00"},
		{"number": 2}]}]}`)
	ids := func() []int64 {
		d, err := load(data)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, n := range []int64{7, 2} {
			snap, err := d.store.Snapshot(context.Background(), "octo-org", "a", n)
			if err != nil || snap.IssueErr != nil {
				t.Fatal(err, snap.IssueErr)
			}
			got := snap.Issue
			got.Repository, got.Version, got.ID, got.Values = issuefields.Repository{}, "", 0, nil
			created := time.Date(2024, 2, 29, 11, 30, 0, 0, time.UTC)
			want := issuefields.Issue{Number: 7, Title: "Crash", Body: "It crashes.", State: "closed", StateReason: "not_planned",
				Labels: []string{"bug", "ui"}, Assignees: []string{"hubot"}, Author: "monalisa", CreatedAt: created, UpdatedAt: created, ClosedAt: created}
			if n == 2 {
				want = issuefields.Issue{Number: 2, Title: "Issue #2", State: "open", Author: "octo-org", CreatedAt: started, UpdatedAt: started}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("issue %d is\n\t%+v\nwant\n\t%+v", n, got, want)
			}
			ids = append(ids, snap.Issue.ID)
		}
		return ids
	}
	first, again := ids(), ids()
	if first[0] != 1 || first[1] != 2 || !reflect.DeepEqual(first, again) {
		t.Errorf("the issues' IDs are %v, and %v when loaded again; want 1 and 2, the order of the file, both times", first, again)
	}
}

func TestDemoDataLoads(t *testing.T) {
	d := loadDemo(t)
	ctx := context.Background()
	snap, err := d.store.Snapshot(ctx, "octo-org", "hello-world", 1)
	if err != nil || snap.IssueErr != nil {
		t.Fatal(err, snap.IssueErr)
	}
	want := []issuefields.Value{
		{FieldID: 1, OptionIDs: []int64{11}},
		{FieldID: 2, Number: 3},
		{FieldID: 3, Date: "2026-04-01"},
		{FieldID: 4, Text: "Crash when saving a file with a long name"},
		{FieldID: 5, OptionIDs: []int64{51, 53}}, // given as Windows, Linux: stored in the field's order
	}
	if !reflect.DeepEqual(snap.Issue.Values, want) {
		t.Errorf("values of octo-org/hello-world#1 = %+v, want %+v", snap.Issue.Values, want)
	}
	if snap, err := d.store.Snapshot(ctx, "octo-org", "hello-world", 4); err != nil || !errors.Is(snap.IssueErr, issuefields.ErrIssueDeleted) {
		t.Errorf("Snapshot(hello-world#4) = %v, %v; want ErrIssueDeleted", snap.IssueErr, err)
	}
	moved, err := d.store.Snapshot(ctx, "octo-org", "hello-world", 5)
	if err != nil || moved.Issue.Repository.Name != "handbook" || moved.Issue.Number != 8 {
		t.Errorf("Snapshot(hello-world#5).Issue = %+v, %v; want octo-org/handbook#8", moved.Issue, err)
	}
	moved, err = d.store.Snapshot(ctx, "octo-org", "handbook", 8)
	if want := []issuefields.Value{{FieldID: 4, Text: "Belongs in the handbook"}}; err != nil || !reflect.DeepEqual(moved.Issue.Values, want) {
		t.Errorf("values of octo-org/handbook#8 = %+v, %v; want those of hello-world#5, %+v", moved.Issue.Values, err, want)
	}
	renamed, err := lookup.Repository(ctx, d.store, "octo-org", "docs")
	if err != nil || renamed.Name != "handbook" {
		t.Errorf("repository octo-org/docs = %+v, %v; want octo-org/handbook", renamed, err)
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

// withIssues returns a data file with dataFileOrg, the repository
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

// manyFields returns a data file whose organization has n text fields.
func manyFields(n int) string {
	fields := make([]string, n)
	for i := range fields {
		fields[i] = fmt.Sprintf(`{"id": %d, "name": "F%d", "data_type": "text"}`, i+1, i+1)
	}
	return `{"organizations": [{"login": "o", "fields": [` + strings.Join(fields, ", ") + `]}]}`
}

// withTokens returns a data file with dataFileOrg, the repositories
// octo-org/hello-world (formerly old-name) and octo-org/other, and tokens.
func withTokens(tokens string) string {
	return fmt.Sprintf(`{"organizations": [%s], "repositories": [
		{"owner": "octo-org", "name": "hello-world", "renamed_from": ["old-name"]},
		{"owner": "octo-org", "name": "other"}], "tokens": [%s]}`, dataFileOrg, tokens)
}

// badDataFile is a data file that breaks a rule of the format.
type badDataFile struct {
	name, data string
	// want is the error message. If prefix is set, want is only its
	// beginning: the rest is the store's own message.
	want   string
	prefix bool
}

// badDataFiles returns a data file for each rule of the format, each broken
// in one place.
func badDataFiles() []badDataFile {
	const valuePath = "repositories[0].issues[0].values[0].value: "
	return []badDataFile{
		{"empty file", ``, "the file holds no JSON object", false},
		{"syntax error", "{\n  \"organizations\": [}", "line 2, column 21: invalid character '}' looking for beginning of value", false},
		{"not JSON", "organizations:\n  - login: octo-org\n", "line 1, column 1: invalid character 'o' looking for beginning of value", false},
		{"file ends early", `{"organizations": [{"login": "o"}`, "the file ends before its JSON object does", false},
		{"not an object", `[{"login": "o"}]`, "want an object, got an array", false},
		{"wrong JSON type", "{\"organizations\": [\n  {\"login\": 7}]}", "organizations[0].login: want a string, got a number", false},
		{"null string", `{"organizations": [{"login": null}]}`, "organizations[0].login: want a string, got null", false},
		{"string for a boolean", `{"repositories": [{"owner": "u", "name": "r", "private": "yes"}]}`,
			"repositories[0].private: want true or false, got a string", false},
		{"object for an array", `{"tokens": {"token": "t"}}`, "tokens: want an array, got an object", false},
		{"number with a fraction", withIssues(`{"number": 1.5}`), "repositories[0].issues[0].number: want an integer, got 1.5", false},
		{"number out of range", withIssues(`{"number": 9223372036854775808}`),
			"repositories[0].issues[0].number: want an integer, got 9223372036854775808", false},
		{"unknown key", `{"organisations": []}`, `unknown key "organisations"; want organizations, repositories or tokens`, false},
		{"key in another case", `{"Organizations": []}`, `unknown key "Organizations"; want organizations, repositories or tokens`, false},
		{"unknown key of an issue", withIssues(`{"number": 1, "valeus": []}`),
			`repositories[0].issues[0]: unknown key "valeus"; want number, title, state, state_reason, labels, assignees, author, body, created_at, values, deleted or transferred_to`, false},
		{"issue state neither open nor closed", withIssues(`{"number": 1, "state": "merged"}`),
			`repositories[0].issues[0].state: "merged" is not open or closed`, false},
		{"unknown state_reason", withIssues(`{"number": 1, "state": "closed", "state_reason": "fixed"}`),
			`repositories[0].issues[0].state_reason: "fixed" is not completed, not_planned, duplicate or reopened`, false},
		{"title over 256 characters", withIssues(`{"number": 1, "title": "` + strings.Repeat("é", 257) + `"}`),
			`repositories[0].issues[0].title: a title has at most 256 characters (GitHub's limit)`, false},
		{"body over 65,536 characters", withIssues(`{"number": 1, "body": "` + strings.Repeat("b", 65537) + `"}`),
			`repositories[0].issues[0].body: a body has at most 65536 characters (GitHub's limit)`, false},
		{"created_at not RFC 3339", withIssues(`{"number": 1, "created_at": "2024-01-02"}`),
			`repositories[0].issues[0].created_at: "2024-01-02" is not an RFC 3339 time such as 2030-01-31T12:00:00Z`, false},
		{"a label without a name", withIssues(`{"number": 1, "labels": ["bug", ""]}`),
			`repositories[0].issues[0].labels: a label needs a name`, false},
		{"an assignee without a login", withIssues(`{"number": 1, "assignees": [""]}`),
			`repositories[0].issues[0].assignees: an assignee needs a login`, false},
		{"key twice", withIssues(`{"number": 1, "values": [], "number": 2}`),
			`repositories[0].issues[0]: the key "number" is given twice`, false},
		{"repository of a token twice",
			withTokens(`{"token": "t", "kind": "fine_grained_pat", "login": "l", "repositories": {"octo-org/other": {}, "octo-org/other": {"issues": "write"}}}`),
			`tokens[0].repositories: the key "octo-org/other" is given twice`, false},
		{"data after the object", `{} {}`, "line 1, column 4: data after the end of the top-level object", false},
		{"organization without login", `{"organizations": [{"login": ""}]}`, "organizations[0].login: ", true},
		{"unknown data type",
			`{"organizations": [{"login": "o", "fields": [{"id": 1, "name": "A", "data_type": "text"}, {"id": 2, "name": "B", "data_type": "enum"}]}]}`,
			`organizations[0].fields[1]: field 2 "B": unknown data type "enum"`, false},
		{"duplicate field id",
			`{"organizations": [{"login": "o", "fields": [{"id": 1, "name": "A", "data_type": "text"}, {"id": 1, "name": "B", "data_type": "number"}]}]}`,
			`organizations[0].fields[1]: field 1 "B": id already used by field "A"`, false},
		{"field name taken in another case",
			`{"organizations": [{"login": "o", "fields": [{"id": 1, "name": "Priority", "data_type": "text"}, {"id": 2, "name": "priority", "data_type": "number"}]}]}`,
			`organizations[0].fields[1]: field 2 "priority": duplicate field name "priority": field 1 is called "Priority"`, false},
		{"field name that is another's in full-width letters",
			`{"organizations": [{"login": "o", "fields": [{"id": 1, "name": "Priority", "data_type": "text"}, {"id": 2, "name": "Ｐriority", "data_type": "number"}]}]}`,
			`organizations[0].fields[1]: field 2 "Ｐriority": duplicate field name "Ｐriority": field 1 is called "Priority"`, false},
		{"option name that is another's with a zero-width space",
			`{"organizations": [{"login": "o", "fields": [{"id": 1, "name": "A", "data_type": "single_select", "options": [{"id": 2, "name": "High", "color": "red"}, {"id": 3, "name": "High\u200b", "color": "red"}]}]}]}`,
			`organizations[0].fields[0]: field 1 "A": duplicate option name "High\u200b": another option is called "High"`, false},
		{"field name with white space at its end",
			`{"organizations": [{"login": "o", "fields": [{"id": 1, "name": "Notes ", "data_type": "text"}]}]}`,
			`organizations[0].fields[0]: field 1 "Notes ": the name "Notes " begins or ends with white space`, false},
		{"select field without options",
			`{"organizations": [{"login": "o", "fields": [{"id": 1, "name": "A", "data_type": "single_select"}]}]}`,
			`organizations[0].fields[0]: field 1 "A": a single_select field needs at least one option`, false},
		{"option of an unknown color",
			`{"organizations": [{"login": "o", "fields": [{"id": 1, "name": "A", "data_type": "single_select", "options": [{"id": 2, "name": "X", "color": "teal"}]}]}]}`,
			`organizations[0].fields[0]: field 1 "A": option "X": color "teal" is not one of gray, blue, green, yellow, orange, red, pink, purple`, false},
		{"26 fields", manyFields(26), "organizations[0].fields[25]: an organization has at most 25 fields (GitHub's limit)", false},
		{"duplicate repository",
			`{"repositories": [{"owner": "u", "name": "r"}, {"owner": "U", "name": "R"}]}`,
			"repositories[1]: ", true},
		{"owner with a slash", `{"repositories": [{"owner": "octo-org/x", "name": "r"}]}`,
			`repositories[0].owner: "octo-org/x" is not an owner; want a login without "/", such as octo-org`, false},
		{"name with its owner", `{"repositories": [{"owner": "octo-org", "name": "octo-org/r"}]}`,
			`repositories[0].name: "octo-org/r" is not a repository name; want a name without "/", with the owner in owner`, false},
		{"former name with two slashes",
			`{"repositories": [{"owner": "u", "name": "r", "renamed_from": ["old", "a/b/c"]}]}`,
			`repositories[0].renamed_from[1]: "a/b/c" is not a former name; want "name", or "owner/name" for a name under another owner`, false},
		{"former name without its owner",
			`{"repositories": [{"owner": "u", "name": "r", "renamed_from": ["/old"]}]}`,
			`repositories[0].renamed_from[0]: "/old" is not a former name; want "name", or "owner/name" for a name under another owner`, false},
		{"transfer onto a taken name",
			`{"repositories": [{"owner": "u", "name": "r"}, {"owner": "u", "name": "s", "renamed_from": ["v/r"]}]}`,
			`repositories[1].name: transfer of v/r to u: `, true},
		{"field of no organization",
			withIssues(`{"number": 1}, {"number": 2, "values": [{"field_id": 7, "value": "x"}]}`),
			"repositories[0].issues[1].values[0].field_id: Issue field with id 7 not found", false},
		{"value on a repository of a user",
			`{"repositories": [{"owner": "someone", "name": "r", "issues": [{"number": 1, "values": [{"field_id": 1, "value": "x"}]}]}]}`,
			"repositories[0].issues[0].values[0].field_id: Issue field with id 1 not found", false},
		{"field twice on an issue",
			withIssues(`{"number": 1, "values": [{"field_id": 2, "value": 1}, {"field_id": 2, "value": 2}]}`),
			"repositories[0].issues[0].values[1].field_id: Issue field 2 appears more than once; send each field at most once.", false},
		{"unknown option name", withValue(1, `"Urgent"`),
			valuePath + `Field "Priority" is a single_select field with no option named "Urgent"; valid names are "High", "Low".`, false},
		{"single_select given an option id", withValue(1, `11`),
			valuePath + `Field "Priority" is a single_select field: value must be the name of one of its options ("High", "Low"), not 11.`, false},
		{"number given a string", withValue(2, `"3"`),
			valuePath + `Field "Estimate" is a number field: value must be a JSON number, not "3".`, false},
		{"number too large", withValue(2, `1e400`),
			valuePath + `Field "Estimate" is a number field: value 1e400 is out of the range of a 64-bit floating-point number.`, false},
		{"number beyond 2^53", withValue(2, `-9007199254740993`),
			valuePath + `Field "Estimate" is a number field: value -9007199254740993 has an integer part beyond ±9007199254740992 (2^53), past which a 64-bit floating-point number cannot hold every integer exactly.`, false},
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
		{"unknown repository_hooks permission",
			withTokens(`{"token": "t", "kind": "fine_grained_pat", "login": "l", "repositories": {"octo-org/other": {"repository_hooks": "admin"}}}`),
			`tokens[0].repositories["octo-org/other"].repository_hooks: unknown permission "admin"; want none, read or write`, false},
		{"unknown organization_hooks permission",
			withTokens(`{"token": "t", "kind": "fine_grained_pat", "login": "l", "organizations": {"octo-org": {"organization_hooks": "owner"}}}`),
			`tokens[0].organizations["octo-org"].organization_hooks: unknown permission "owner"; want none, read or write`, false},
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
}

// TestBadDataFiles checks that a data file that breaks a rule is refused,
// with an error that says where in the file and which rule.
func TestBadDataFiles(t *testing.T) {
	for _, tt := range badDataFiles() {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load([]byte(tt.data))
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
// TestBadDataFiles fail for their own reason: the same files with the
// fault removed load.
func TestBadDataFilesAreOtherwiseValid(t *testing.T) {
	for _, data := range []string{
		withIssues(`{"number": 1}, {"number": 2, "deleted": true}, {"number": 3, "transferred_to": {"owner": "octo-org", "name": "other", "number": 2}}`),
		withValue(1, `"High"`),
		withValue(2, `1.5`),
		withValue(3, `"2024-02-29"`),
		withValue(4, `"`+strings.Repeat("é", 1024)+`"`),
		withValue(5, `["macOS", "Linux"]`),
		manyFields(25),
		`{"repositories": [{"owner": "u", "name": "r"}, {"owner": "u", "name": "s", "renamed_from": ["v/q", "t"]}]}`,
		withTokens(`{"token": "t", "kind": "fine_grained_pat", "login": "l", "expires_at": "2030-01-31T12:00:00Z",
			"repositories": {"octo-org/old-name": {"issues": "write", "pull_requests": "read", "push": true}, "Octo-Org/OTHER": {}}}`),
	} {
		if _, err := load([]byte(data)); err != nil {
			t.Errorf("load: %v\ndata: %s", err, data)
		}
	}
}
