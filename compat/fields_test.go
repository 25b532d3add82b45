package compat

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v92/github"
)

// The pinned go-github has no type and no method for an organization's issue
// fields, so the tests below call the four routes as its own services would:
// Client.NewRequest, then Client.Do into a type of the test's own, shaped as
// GitHub documents the field.

// issueField is an issue field as GitHub documents it.
type issueField struct {
	ID          int64              `json:"id"`
	NodeID      string             `json:"node_id"`
	Name        string             `json:"name"`
	Description *string            `json:"description"`
	DataType    string             `json:"data_type"`
	Visibility  string             `json:"visibility"`
	Options     []issueFieldOption `json:"options"`
	CreatedAt   *github.Timestamp  `json:"created_at"`
	UpdatedAt   *github.Timestamp  `json:"updated_at"`
}

// issueFieldOption is an option of a select field.
type issueFieldOption struct {
	ID          int64   `json:"id,omitempty"`
	Name        string  `json:"name"`
	Description *string `json:"description,omitempty"`
	Color       string  `json:"color"`
	Priority    int     `json:"priority,omitempty"`
}

// fieldsPath is the path of octo-org's fields, relative to the base URL.
const fieldsPath = "orgs/octo-org/issue-fields"

// callFields sends body (nil for none) to path with method through c and
// decodes the answer into out (nil for none).
func callFields(ctx context.Context, c *github.Client, method, path string, body, out any) (*github.Response, error) {
	req, err := c.NewRequest(ctx, method, path, body)
	if err != nil {
		return nil, err
	}
	return c.Do(req, out)
}

// TestFieldManagementWithGoGitHub creates, lists, updates and deletes a field
// through go-github, and sets and reads a value on it between the steps.
func TestFieldManagementWithGoGitHub(t *testing.T) {
	s := startServer(t)
	ctx := context.Background()
	admin, writer, reader := s.client(t, fieldsAdminToken), s.client(t, writerToken), s.client(t, fieldsReaderToken)
	start := time.Now().Add(-time.Second)

	var created issueField
	resp, err := callFields(ctx, admin, http.MethodPost, fieldsPath, map[string]any{
		"name": "Stage", "data_type": "single_select", "description": "Where the work is",
		"options": []issueFieldOption{{Name: "Todo", Color: "gray", Priority: 1}, {Name: "Done", Color: "green", Priority: 2}},
	}, &created)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if resp.StatusCode != http.StatusOK || created.ID == 0 || created.Name != "Stage" || !strings.HasPrefix(created.NodeID, "IF_") ||
		created.Visibility != "organization_members_only" || len(created.Options) != 2 || created.CreatedAt == nil || created.CreatedAt.Before(start) {
		t.Fatalf("create: %d %+v", resp.StatusCode, created)
	}
	if got := resp.Header.Get("X-Accepted-GitHub-Permissions"); got != "issue_fields=write" {
		t.Errorf("create: X-Accepted-GitHub-Permissions %q, want issue_fields=write", got)
	}
	todo := created.Options[0].ID

	var listed []issueField
	if _, err := callFields(ctx, reader, http.MethodGet, fieldsPath, nil, &listed); err != nil {
		t.Fatalf("list: %v", err)
	}
	if len(listed) != 6 || listed[5].ID != created.ID || !slices.IsSortedFunc(listed, func(a, b issueField) int { return int(a.ID - b.ID) }) {
		t.Errorf("list: %+v, want the five fields of the data and the new one, by id", listed)
	}

	// The new field takes a value at once, and go-github reads it back.
	values, _, err := addValues(ctx, writer, "octo-org", "hello-world", 3, []*github.IssueRequestFieldValue{
		{FieldID: created.ID, Value: "Todo"}})
	if err != nil || len(values) != 1 || values[0].IssueFieldID != created.ID || values[0].SingleSelectOption == nil ||
		values[0].SingleSelectOption.Name != "Todo" {
		t.Fatalf("add a value of the new field: %v %+v", err, values)
	}

	var updated issueField
	_, err = callFields(ctx, admin, http.MethodPatch, fmt.Sprintf("%s/%d", fieldsPath, created.ID), map[string]any{
		"name": "Phase", "options": []issueFieldOption{{ID: todo, Name: "To do", Color: "gray"}, {Name: "Shipped", Color: "purple"}},
	}, &updated)
	if err != nil || updated.Name != "Phase" || len(updated.Options) != 2 || updated.Options[0].ID != todo {
		t.Fatalf("update: %v %+v", err, updated)
	}
	values, _, err = listValues(ctx, writer, "octo-org", "hello-world", 3, nil)
	if err != nil || len(values) != 1 || values[0].IssueFieldID != created.ID || values[0].SingleSelectOption == nil || values[0].SingleSelectOption.Name != "To do" {
		t.Errorf("after the update, the issue lists %v %+v; want the kept option under its new name", err, values)
	}

	_, err = callFields(ctx, reader, http.MethodPost, fieldsPath, map[string]any{"name": "Team", "data_type": "text"}, nil)
	wantErrorResponse(t, err, http.StatusForbidden)

	resp, err = callFields(ctx, admin, http.MethodDelete, fmt.Sprintf("%s/%d", fieldsPath, created.ID), nil, nil)
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete: %v", err)
	}
	values, _, err = listValues(ctx, writer, "octo-org", "hello-world", 3, nil)
	if err != nil || len(values) != 0 {
		t.Errorf("after the delete, the issue lists %v %+v; want no values", err, values)
	}
	_, _, err = addValues(ctx, writer, "octo-org", "hello-world", 3, []*github.IssueRequestFieldValue{{FieldID: created.ID, Value: "To do"}})
	er := wantErrorResponse(t, err, http.StatusUnprocessableEntity)
	if len(er.Errors) != 1 || !strings.Contains(er.Errors[0].Message, "not found") {
		t.Errorf("writing the deleted field: %+v; want one error that says it is not found", er.Errors)
	}
}

// ghAPI sends a request as `gh api` does, with call, and returns the status
// and the body.
func ghAPI(t *testing.T, s *server, token, method, path, body string) (int, string) {
	t.Helper()
	a := call(t, s, token, method, path, body)
	return a.status, string(a.body)
}

// TestFieldManagementWithRawRequests drives the four routes with requests as
// `gh api` sends them, then sets and reads a value on the new field.
func TestFieldManagementWithRawRequests(t *testing.T) {
	s := startServer(t)
	status, body := ghAPI(t, s, fieldsAdminToken, http.MethodPost, fieldsPath, `{"name":"Team","data_type":"text","visibility":"all"}`)
	var created issueField
	if err := json.Unmarshal([]byte(body), &created); status != http.StatusOK || err != nil || created.Visibility != "all" {
		t.Fatalf("create: %d %s", status, body)
	}
	fieldPath := fmt.Sprintf("%s/%d", fieldsPath, created.ID)
	if status, body := ghAPI(t, s, fieldsReaderToken, http.MethodGet, fieldsPath, ""); status != http.StatusOK || !strings.Contains(body, `"name":"Team"`) {
		t.Errorf("list: %d %s", status, body)
	}
	if status, body := ghAPI(t, s, fieldsAdminToken, http.MethodPatch, fieldPath, `{"description":"Who owns it"}`); status != http.StatusOK || !strings.Contains(body, `"description":"Who owns it"`) {
		t.Errorf("update: %d %s", status, body)
	}
	values := "repos/octo-org/hello-world/issues/3/issue-field-values"
	item := fmt.Sprintf(`{"issue_field_values":[{"field_id":%d,"value":"Platform team"}]}`, created.ID)
	if status, body := ghAPI(t, s, writerToken, http.MethodPost, values, item); status != http.StatusOK || !strings.Contains(body, "Platform team") {
		t.Errorf("add a value of the new field: %d %s", status, body)
	}
	if status, body := ghAPI(t, s, writerToken, http.MethodGet, values, ""); status != http.StatusOK || !strings.Contains(body, `"issue_field_name":"Team"`) {
		t.Errorf("read the value: %d %s", status, body)
	}
	if status, body := ghAPI(t, s, fieldsAdminToken, http.MethodPost, fieldsPath, `{"name":"team","data_type":"text"}`); status != http.StatusUnprocessableEntity || !strings.Contains(body, `"errors":["The organization has a field named \"Team\"`) {
		t.Errorf("a second field named team: %d %s; want 422 with GitHub's validation-error-simple, naming the field", status, body)
	}
	if status, body := ghAPI(t, s, fieldsAdminToken, http.MethodDelete, fieldPath, ""); status != http.StatusNoContent || body != "" {
		t.Errorf("delete: %d %q", status, body)
	}
	if status, body := ghAPI(t, s, writerToken, http.MethodGet, values, ""); status != http.StatusOK || strings.TrimSpace(body) != "[]" {
		t.Errorf("after the delete the issue lists %d %s; want []", status, body)
	}
	if status, _ := ghAPI(t, s, fieldsAdminToken, http.MethodDelete, fieldPath, ""); status != http.StatusNotFound {
		t.Errorf("a second delete: %d, want 404", status)
	}
}
