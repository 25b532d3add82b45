package compat

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/go-github/v92/github"
)

// go-github v92 has types for issue field values (IssueFieldValue,
// IssueFieldValueSingleSelectOption, IssueRequestFieldValue) but no methods
// for the four endpoints, so the helpers below call them the way go-github's
// own service methods do: Client.NewRequest with a path relative to the base
// URL, then Client.Do into go-github's types.

// valuesPath is the path of an issue's field values, relative to the base URL.
func valuesPath(owner, repo string, number int) string {
	return fmt.Sprintf("repos/%v/%v/issues/%v/issue-field-values", owner, repo, number)
}

// issueFieldValuesRequest is the body of the add and set operations.
// go-github has a type for its items but none for the body.
type issueFieldValuesRequest struct {
	IssueFieldValues []*github.IssueRequestFieldValue `json:"issue_field_values"`
}

// listValues lists an issue's field values, one page of them if opts asks
// for one.
func listValues(ctx context.Context, c *github.Client, owner, repo string, number int, opts *github.ListOptions, reqOpts ...github.RequestOption) ([]*github.IssueFieldValue, *github.Response, error) {
	u := valuesPath(owner, repo, number)
	if opts != nil {
		q := url.Values{}
		if opts.Page != 0 {
			q.Set("page", strconv.Itoa(opts.Page))
		}
		if opts.PerPage != 0 {
			q.Set("per_page", strconv.Itoa(opts.PerPage))
		}
		if len(q) > 0 {
			u += "?" + q.Encode()
		}
	}
	req, err := c.NewRequest(ctx, http.MethodGet, u, nil, reqOpts...)
	if err != nil {
		return nil, nil, err
	}
	var values []*github.IssueFieldValue
	resp, err := c.Do(req, &values)
	if err != nil {
		return nil, resp, err
	}
	return values, resp, nil
}

// addValues adds field values to an issue (POST) and returns its values.
func addValues(ctx context.Context, c *github.Client, owner, repo string, number int, values []*github.IssueRequestFieldValue) ([]*github.IssueFieldValue, *github.Response, error) {
	return writeValues(ctx, c, http.MethodPost, owner, repo, number, &issueFieldValuesRequest{IssueFieldValues: values})
}

// setValues replaces an issue's field values (PUT) and returns its values.
func setValues(ctx context.Context, c *github.Client, owner, repo string, number int, values []*github.IssueRequestFieldValue) ([]*github.IssueFieldValue, *github.Response, error) {
	return writeValues(ctx, c, http.MethodPut, owner, repo, number, &issueFieldValuesRequest{IssueFieldValues: values})
}

// writeValues sends body to an issue's field values with method.
func writeValues(ctx context.Context, c *github.Client, method, owner, repo string, number int, body any) ([]*github.IssueFieldValue, *github.Response, error) {
	req, err := c.NewRequest(ctx, method, valuesPath(owner, repo, number), body)
	if err != nil {
		return nil, nil, err
	}
	var values []*github.IssueFieldValue
	resp, err := c.Do(req, &values)
	if err != nil {
		return nil, resp, err
	}
	return values, resp, nil
}

// deleteValue deletes the value of one field from an issue.
func deleteValue(ctx context.Context, c *github.Client, owner, repo string, number int, fieldID int64) (*github.Response, error) {
	u := fmt.Sprintf("%v/%v", valuesPath(owner, repo, number), fieldID)
	req, err := c.NewRequest(ctx, http.MethodDelete, u, nil)
	if err != nil {
		return nil, err
	}
	return c.Do(req, nil)
}

// ignoreNodeID leaves node_id out of a comparison: it is opaque.
// checkNodeIDs checks what may be said of it.
var ignoreNodeID = cmpopts.IgnoreFields(github.IssueFieldValue{}, "NodeID")

// nodeIDPrefixes are the node_id prefixes by data type.
var nodeIDPrefixes = map[string]string{
	"text":          "IFT_",
	"single_select": "IFSS_",
	"multi_select":  "IFMS_",
	"number":        "IFN_",
	"date":          "IFD_",
}

// checkNodeIDs checks that each value's node_id has its data type's prefix.
func checkNodeIDs(t *testing.T, values []*github.IssueFieldValue) {
	t.Helper()
	for _, v := range values {
		prefix, ok := nodeIDPrefixes[v.DataType]
		if !ok {
			t.Errorf("field %d: unknown data_type %q", v.IssueFieldID, v.DataType)
			continue
		}
		if !strings.HasPrefix(v.NodeID, prefix) || len(v.NodeID) == len(prefix) {
			t.Errorf("field %d (%s): node_id %q; want %q and more", v.IssueFieldID, v.DataType, v.NodeID, prefix)
		}
	}
}

// priority is the item of the test data's single_select field with an
// option. Its value is the option's id, which go-github decodes into an `any`
// as float64, as it does every JSON number.
func priority(id int64, name, color string) *github.IssueFieldValue {
	return &github.IssueFieldValue{
		IssueFieldID: 1, DataType: "single_select", Value: float64(id),
		SingleSelectOption: &github.IssueFieldValueSingleSelectOption{ID: id, Name: name, Color: color},
	}
}

// estimate is the item of the test data's number field.
func estimate(n float64) *github.IssueFieldValue {
	return &github.IssueFieldValue{IssueFieldID: 2, DataType: "number", Value: n}
}

// dueDate is the item of the test data's date field.
func dueDate(d string) *github.IssueFieldValue {
	return &github.IssueFieldValue{IssueFieldID: 3, DataType: "date", Value: d}
}

// summary is the item of the test data's text field.
func summary(s string) *github.IssueFieldValue {
	return &github.IssueFieldValue{IssueFieldID: 4, DataType: "text", Value: s}
}

// platforms is the item of the test data's multi_select field, whose value
// is the selected option names joined by commas in the field's option order.
func platforms(names string) *github.IssueFieldValue {
	return &github.IssueFieldValue{IssueFieldID: 5, DataType: "multi_select", Value: names}
}

// helloWorld1 are the values of octo-org/hello-world#1 in the test data.
var helloWorld1 = []*github.IssueFieldValue{
	priority(11, "High", "red"),
	estimate(3),
	dueDate("2026-04-01"),
	summary("Crash when saving a file with a long name"),
	platforms("Linux,Windows"),
}

// The API versions: go-github's default, and the API's newest.
const (
	version20221128 = "2022-11-28"
	version20260310 = "2026-03-10"
)

// checkVersion checks that go-github sent the API version want, with its
// usual media type, and that the response says it was selected.
func checkVersion(t *testing.T, resp *http.Response, want string) {
	t.Helper()
	if got := resp.Request.Header.Get("X-GitHub-Api-Version"); got != want {
		t.Errorf("request X-GitHub-Api-Version %q; want %q", got, want)
	}
	if got := resp.Request.Header.Get("Accept"); got != "application/vnd.github.v3+json" {
		t.Errorf("request Accept %q; want application/vnd.github.v3+json", got)
	}
	if got := resp.Header.Get("X-GitHub-Api-Version-Selected"); got != want {
		t.Errorf("%s %s: X-GitHub-Api-Version-Selected %q; want %q", resp.Request.Method, resp.Request.URL.Path, got, want)
	}
}

// wantErrorResponse checks that err is go-github's *ErrorResponse (not one of
// its special kinds, such as a rate limit error) for status, with a message
// and the API's version headers, and returns it.
func wantErrorResponse(t *testing.T, err error, status int) *github.ErrorResponse {
	t.Helper()
	var er *github.ErrorResponse
	if !errors.As(err, &er) {
		t.Fatalf("error %T (%v); want *github.ErrorResponse with status %d", err, err, status)
	}
	if er.Response == nil || er.Response.StatusCode != status {
		t.Fatalf("error %v; want status %d", err, status)
	}
	if er.Message == "" {
		t.Errorf("status %d: empty message", status)
	}
	if er.DocumentationURL == "" {
		t.Errorf("status %d: empty documentation_url", status)
	}
	checkVersion(t, er.Response, version20221128)
	return er
}

// wantMessage checks an error response's message.
func wantMessage(t *testing.T, er *github.ErrorResponse, want string) {
	t.Helper()
	if er.Message != want {
		t.Errorf("message %q; want %q", er.Message, want)
	}
}

// wantRedirected checks that resp answers a request that followed a redirect
// of status from the original request to the path want (relative to the
// base URL), with the same method.
func wantRedirected(t *testing.T, resp *github.Response, status int, method, want string) {
	t.Helper()
	req := resp.Request
	if req.Method != method {
		t.Errorf("final request method %s; want %s", req.Method, method)
	}
	if got, want := req.URL.Path, mountPrefix+"/"+want; got != want {
		t.Errorf("final request path %q; want %q", got, want)
	}
	if req.Response == nil {
		t.Fatalf("%s %s was not redirected; want a %d", method, req.URL.Path, status)
	}
	if got := req.Response.StatusCode; got != status {
		t.Errorf("redirect status %d; want %d", got, status)
	}
}

// TestGoGitHub drives the example server with go-github as a user of GitHub
// Enterprise Server would, and checks every answer as go-github reports it.
// The subtests share one server; those that write use issues of their own.
func TestGoGitHub(t *testing.T) {
	s := startServer(t)
	writer := s.client(t, writerToken)
	anonymous := s.client(t, "")

	t.Run("List", func(t *testing.T) {
		got, resp, err := listValues(t.Context(), writer, "octo-org", "hello-world", 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Errorf("status %d; want 200", resp.StatusCode)
		}
		checkVersion(t, resp.Response, version20221128)
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("Content-Type %q; want application/json", ct)
		}
		if diff := cmp.Diff(helloWorld1, got, ignoreNodeID); diff != "" {
			t.Errorf("values (-want +got):\n%s", diff)
		}
		checkNodeIDs(t, got)

		// A public repository's values are listed without a token too,
		// with the same node ids.
		anon, _, err := listValues(t.Context(), anonymous, "octo-org", "hello-world", 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(got, anon); diff != "" {
			t.Errorf("anonymous list (-token +anonymous):\n%s", diff)
		}

		// An issue with no values gives an empty array.
		none, _, err := listValues(t.Context(), writer, "octo-org", "roadmap", 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		if none == nil || len(none) != 0 {
			t.Errorf("issue without values: %#v; want an empty slice", none)
		}
	})

	t.Run("APIVersion", func(t *testing.T) {
		_, resp, err := listValues(t.Context(), writer, "octo-org", "hello-world", 1, nil, github.WithVersion(version20260310))
		if err != nil {
			t.Fatal(err)
		}
		checkVersion(t, resp.Response, version20260310)
	})

	t.Run("Pagination", func(t *testing.T) {
		all, _, err := listValues(t.Context(), writer, "octo-org", "hello-world", 1, &github.ListOptions{PerPage: 100})
		if err != nil {
			t.Fatal(err)
		}
		const perPage = 2
		wantPages := (len(all) + perPage - 1) / perPage
		if wantPages < 2 {
			t.Fatalf("the issue has %d values; the test needs more than %d", len(all), perPage)
		}
		linkURL := regexp.MustCompile(`<([^>]*)>`)

		var walked []*github.IssueFieldValue
		seen := make(map[int64]int)
		opts := &github.ListOptions{PerPage: perPage}
		for page := 1; ; page++ {
			if page > wantPages {
				t.Fatalf("NextPage continues past page %d", wantPages)
			}
			values, resp, err := listValues(t.Context(), writer, "octo-org", "hello-world", 1, opts)
			if err != nil {
				t.Fatalf("page %d: %v", page, err)
			}
			checkVersion(t, resp.Response, version20221128)
			if len(values) == 0 || len(values) > perPage {
				t.Errorf("page %d: %d values; want 1 to %d", page, len(values), perPage)
			}
			for _, v := range values {
				seen[v.IssueFieldID]++
			}
			walked = append(walked, values...)

			wantLast := wantPages // Link has "last" on every page but the last
			if page == wantPages {
				wantLast = 0
			}
			if resp.LastPage != wantLast {
				t.Errorf("page %d: LastPage %d; want %d", page, resp.LastPage, wantLast)
			}
			if page > 1 && (resp.FirstPage != 1 || resp.PrevPage != page-1) {
				t.Errorf("page %d: FirstPage %d, PrevPage %d; want 1, %d", page, resp.FirstPage, resp.PrevPage, page-1)
			}
			link := resp.Header.Get("Link")
			for _, m := range linkURL.FindAllStringSubmatch(link, -1) {
				if !strings.HasPrefix(m[1], s.base+valuesPath("octo-org", "hello-world", 1)+"?") {
					t.Errorf("page %d: Link URL %q is not under the issue's values at %s", page, m[1], s.base)
				}
			}
			if resp.NextPage == 0 {
				if page != wantPages {
					t.Errorf("no NextPage after page %d; want %d pages", page, wantPages)
				}
				break
			}
			opts.Page = resp.NextPage
		}
		for _, v := range all {
			if n := seen[v.IssueFieldID]; n != 1 {
				t.Errorf("field %d seen %d times over the pages; want once", v.IssueFieldID, n)
			}
		}
		if diff := cmp.Diff(all, walked); diff != "" {
			t.Errorf("pages put together (-one page +walked):\n%s", diff)
		}
	})

	t.Run("AddEveryDataType", func(t *testing.T) {
		got, resp, err := addValues(t.Context(), writer, "octo-org", "hello-world", 3, []*github.IssueRequestFieldValue{
			{FieldID: 1, Value: "Medium"},
			{FieldID: 2, Value: 8},
			{FieldID: 3, Value: "2026-05-31"},
			{FieldID: 4, Value: "Add a dark theme"},
			{FieldID: 5, Value: []string{"Windows", "macOS"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Errorf("status %d; want 200", resp.StatusCode)
		}
		checkVersion(t, resp.Response, version20221128)
		want := []*github.IssueFieldValue{
			priority(12, "Medium", "yellow"),
			estimate(8),
			dueDate("2026-05-31"),
			summary("Add a dark theme"),
			platforms("macOS,Windows"), // in the field's option order
		}
		if diff := cmp.Diff(want, got, ignoreNodeID); diff != "" {
			t.Errorf("add response (-want +got):\n%s", diff)
		}
		checkNodeIDs(t, got)
		listed, _, err := listValues(t.Context(), writer, "octo-org", "hello-world", 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(got, listed); diff != "" {
			t.Errorf("list after add (-add response +list):\n%s", diff)
		}

		// Add merges: the listed field changes, the others stay.
		got, _, err = addValues(t.Context(), writer, "octo-org", "hello-world", 3, []*github.IssueRequestFieldValue{
			{FieldID: 2, Value: 13.5},
			{FieldID: 5, Value: []string{"Linux"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		want[1], want[4] = estimate(13.5), platforms("Linux")
		if diff := cmp.Diff(want, got, ignoreNodeID); diff != "" {
			t.Errorf("second add (-want +got):\n%s", diff)
		}
	})

	t.Run("Set", func(t *testing.T) {
		got, resp, err := setValues(t.Context(), writer, "octo-org", "hello-world", 2, []*github.IssueRequestFieldValue{
			{FieldID: 4, Value: "Replaced"},
			{FieldID: 3, Value: "2026-12-31"},
			{FieldID: 1, Value: "High"},
		})
		if err != nil {
			t.Fatal(err)
		}
		checkVersion(t, resp.Response, version20221128)
		want := []*github.IssueFieldValue{priority(11, "High", "red"), dueDate("2026-12-31"), summary("Replaced")}
		if diff := cmp.Diff(want, got, ignoreNodeID); diff != "" {
			t.Errorf("set response (-want +got):\n%s", diff)
		}
		listed, _, err := listValues(t.Context(), writer, "octo-org", "hello-world", 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(got, listed); diff != "" {
			t.Errorf("list after set (-set response +list):\n%s", diff)
		}

		// An empty array clears every value.
		got, _, err = setValues(t.Context(), writer, "octo-org", "hello-world", 2, []*github.IssueRequestFieldValue{})
		if err != nil {
			t.Fatal(err)
		}
		if got == nil || len(got) != 0 {
			t.Errorf("set to nothing: %#v; want an empty slice", got)
		}
	})

	t.Run("Delete", func(t *testing.T) {
		// roadmap is private: the writer's token sees it.
		resp, err := deleteValue(t.Context(), writer, "octo-org", "roadmap", 1, 3)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusNoContent {
			t.Errorf("status %d; want 204", resp.StatusCode)
		}
		checkVersion(t, resp.Response, version20221128)
		listed, _, err := listValues(t.Context(), writer, "octo-org", "roadmap", 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := []*github.IssueFieldValue{priority(12, "Medium", "yellow"), platforms("macOS")}
		if diff := cmp.Diff(want, listed, ignoreNodeID); diff != "" {
			t.Errorf("list after delete (-want +got):\n%s", diff)
		}

		// The field has no value any more.
		_, err = deleteValue(t.Context(), writer, "octo-org", "roadmap", 1, 3)
		wantErrorResponse(t, err, http.StatusNotFound)
	})

	t.Run("ValidationFailed", func(t *testing.T) {
		before, _, err := listValues(t.Context(), writer, "octo-org", "hello-world", 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = addValues(t.Context(), writer, "octo-org", "hello-world", 1, []*github.IssueRequestFieldValue{
			{FieldID: 4, Value: "A valid text that must not be stored"},
			{FieldID: 1, Value: "Urgent"},
			{FieldID: 2, Value: "three"},
			{FieldID: 99, Value: "x"},
			{FieldID: 5, Value: "Linux"},
		})
		er := wantErrorResponse(t, err, http.StatusUnprocessableEntity)
		wantMessage(t, er, "Validation Failed")
		want := []github.Error{
			{Resource: "IssueFieldValue", Field: "value", Code: "invalid", Message: `"High"`},
			{Resource: "IssueFieldValue", Field: "value", Code: "invalid", Message: "number"},
			{Resource: "IssueFieldValue", Field: "field_id", Code: "invalid", Message: "Issue field with id 99 not found"},
			{Resource: "IssueFieldValue", Field: "value", Code: "invalid", Message: "array"},
		}
		if diff := cmp.Diff(want, er.Errors, cmpopts.IgnoreFields(github.Error{}, "Message")); diff != "" {
			t.Errorf("errors (-want +got):\n%s", diff)
		} else {
			// Each message holds a part that matters to the user.
			for i, e := range er.Errors {
				if !strings.Contains(e.Message, want[i].Message) {
					t.Errorf("errors[%d].message %q; want it to contain %q", i, e.Message, want[i].Message)
				}
			}
		}

		// A refused request changes nothing, not even its valid items.
		after, _, err := listValues(t.Context(), writer, "octo-org", "hello-world", 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(before, after); diff != "" {
			t.Errorf("values changed by a refused add (-before +after):\n%s", diff)
		}

		// A body without issue_field_values does not clear anything.
		_, _, err = writeValues(t.Context(), writer, http.MethodPost, "octo-org", "hello-world", 1,
			map[string]any{"issue_field_value": []*github.IssueRequestFieldValue{}})
		er = wantErrorResponse(t, err, http.StatusUnprocessableEntity)
		if len(er.Errors) != 1 || er.Errors[0].Field != "issue_field_values" || er.Errors[0].Code != "missing_field" {
			t.Errorf("errors %+v; want one missing_field for issue_field_values", er.Errors)
		}

		// Set has no array form: a multi_select item is refused.
		_, _, err = setValues(t.Context(), writer, "octo-org", "hello-world", 1, []*github.IssueRequestFieldValue{
			{FieldID: 5, Value: "Linux"},
		})
		er = wantErrorResponse(t, err, http.StatusUnprocessableEntity)
		if len(er.Errors) != 1 || er.Errors[0].Field != "value" || !strings.Contains(er.Errors[0].Message, "POST") {
			t.Errorf("errors %+v; want one for value that points to add (POST)", er.Errors)
		}
	})

	t.Run("Unauthorized", func(t *testing.T) {
		for _, token := range []string{"not-a-token", expiredToken} {
			_, _, err := listValues(t.Context(), s.client(t, token), "octo-org", "hello-world", 1, nil)
			er := wantErrorResponse(t, err, http.StatusUnauthorized)
			wantMessage(t, er, "Bad credentials")
		}
		_, _, err := addValues(t.Context(), anonymous, "octo-org", "hello-world", 1, []*github.IssueRequestFieldValue{{FieldID: 4, Value: "x"}})
		er := wantErrorResponse(t, err, http.StatusUnauthorized)
		wantMessage(t, er, "Requires authentication")
	})

	t.Run("Forbidden", func(t *testing.T) {
		values := []*github.IssueRequestFieldValue{{FieldID: 4, Value: "x"}}

		// A classic personal access token is not a kind the API accepts.
		_, _, err := listValues(t.Context(), s.client(t, classicToken), "octo-org", "hello-world", 1, nil)
		er := wantErrorResponse(t, err, http.StatusForbidden)
		if !strings.Contains(er.Message, "fine-grained personal access tokens") {
			t.Errorf("message %q; want the kinds of token accepted", er.Message)
		}
		if got := er.Response.Header.Get("X-Accepted-GitHub-Permissions"); got != "issues=read" {
			t.Errorf("X-Accepted-GitHub-Permissions %q; want issues=read", got)
		}

		_, _, err = addValues(t.Context(), s.client(t, noPushToken), "octo-org", "hello-world", 3, values)
		er = wantErrorResponse(t, err, http.StatusForbidden)
		wantMessage(t, er, "Must have push access to this repository")
		if got := er.Response.Header.Get("X-Accepted-GitHub-Permissions"); got != "issues=write; pull_requests=write" {
			t.Errorf("X-Accepted-GitHub-Permissions %q; want issues=write; pull_requests=write", got)
		}

		_, _, err = setValues(t.Context(), s.client(t, readerToken), "octo-org", "hello-world", 3, values)
		er = wantErrorResponse(t, err, http.StatusForbidden)
		wantMessage(t, er, "Resource not accessible by personal access token")
	})

	t.Run("NotFound", func(t *testing.T) {
		outsider := s.client(t, outsiderToken)
		// A private repository is not found by one who may not see it.
		_, _, err := listValues(t.Context(), anonymous, "octo-org", "roadmap", 1, nil)
		wantErrorResponse(t, err, http.StatusNotFound)
		_, _, err = listValues(t.Context(), outsider, "octo-org", "roadmap", 1, nil)
		wantErrorResponse(t, err, http.StatusNotFound)
		_, _, err = addValues(t.Context(), outsider, "octo-org", "roadmap", 2, []*github.IssueRequestFieldValue{{FieldID: 4, Value: "x"}})
		wantErrorResponse(t, err, http.StatusNotFound)
		_, err = deleteValue(t.Context(), outsider, "octo-org", "roadmap", 1, 1)
		wantErrorResponse(t, err, http.StatusNotFound)
		// Nor is an issue that does not exist.
		_, _, err = listValues(t.Context(), writer, "octo-org", "hello-world", 999, nil)
		wantErrorResponse(t, err, http.StatusNotFound)
	})

	t.Run("DeletedIssue", func(t *testing.T) {
		_, _, err := listValues(t.Context(), writer, "octo-org", "hello-world", 4, nil)
		er := wantErrorResponse(t, err, http.StatusGone)
		wantMessage(t, er, "This issue was deleted")
	})

	t.Run("RenamedRepositoryList", func(t *testing.T) {
		want, _, err := listValues(t.Context(), writer, "octo-org", "handbook", 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 {
			t.Fatal("octo-org/handbook#1 has no values; the test needs some")
		}
		for name, c := range map[string]*github.Client{"token": writer, "anonymous": anonymous} {
			// octo-org/handbook was octo-org/docs: go-github follows the 301.
			got, resp, err := listValues(t.Context(), c, "octo-org", "docs", 1, nil)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			wantRedirected(t, resp, http.StatusMovedPermanently, http.MethodGet, valuesPath("octo-org", "handbook", 1))
			checkVersion(t, resp.Response, version20221128)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: list through the old name (-new name +old name):\n%s", name, diff)
			}
		}
	})

	t.Run("RenamedRepositoryWrite", func(t *testing.T) {
		// Go's http.Client repeats a POST and its body on a 307.
		got, resp, err := addValues(t.Context(), writer, "octo-org", "docs", 1, []*github.IssueRequestFieldValue{
			{FieldID: 1, Value: "Low"},
		})
		if err != nil {
			t.Fatal(err)
		}
		wantRedirected(t, resp, http.StatusTemporaryRedirect, http.MethodPost, valuesPath("octo-org", "handbook", 1))
		checkVersion(t, resp.Response, version20221128)
		if len(got) == 0 || cmp.Diff(priority(13, "Low", "green"), got[0], ignoreNodeID) != "" {
			t.Errorf("add through the old name: %+v; want Priority Low first", got)
		}
		listed, _, err := listValues(t.Context(), writer, "octo-org", "handbook", 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(got, listed); diff != "" {
			t.Errorf("list after add through the old name (-add response +list):\n%s", diff)
		}

		// A DELETE follows the 307 too.
		resp, err = deleteValue(t.Context(), writer, "octo-org", "docs", 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		wantRedirected(t, resp, http.StatusTemporaryRedirect, http.MethodDelete, valuesPath("octo-org", "handbook", 1)+"/1")
		if resp.StatusCode != http.StatusNoContent {
			t.Errorf("delete through the old name: status %d; want 204", resp.StatusCode)
		}
		after, _, err := listValues(t.Context(), writer, "octo-org", "handbook", 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(listed[1:], after); diff != "" {
			t.Errorf("list after delete through the old name (-want +got):\n%s", diff)
		}
	})

	t.Run("TransferredIssue", func(t *testing.T) {
		// octo-org/hello-world#5 is now octo-org/handbook#8.
		got, resp, err := listValues(t.Context(), writer, "octo-org", "hello-world", 5, nil)
		if err != nil {
			t.Fatal(err)
		}
		wantRedirected(t, resp, http.StatusMovedPermanently, http.MethodGet, valuesPath("octo-org", "handbook", 8))
		if diff := cmp.Diff([]*github.IssueFieldValue{summary("Belongs in the handbook")}, got, ignoreNodeID); diff != "" {
			t.Errorf("list of the transferred issue (-want +got):\n%s", diff)
		}

		got, resp, err = setValues(t.Context(), writer, "octo-org", "hello-world", 5, []*github.IssueRequestFieldValue{
			{FieldID: 2, Value: 1},
		})
		if err != nil {
			t.Fatal(err)
		}
		wantRedirected(t, resp, http.StatusTemporaryRedirect, http.MethodPut, valuesPath("octo-org", "handbook", 8))
		if diff := cmp.Diff([]*github.IssueFieldValue{estimate(1)}, got, ignoreNodeID); diff != "" {
			t.Errorf("set through the old place (-want +got):\n%s", diff)
		}
		listed, _, err := listValues(t.Context(), writer, "octo-org", "handbook", 8, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(got, listed); diff != "" {
			t.Errorf("list of the new place after set (-set response +list):\n%s", diff)
		}
	})
}
