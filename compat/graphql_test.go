package compat

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/shurcooL/githubv4"
)

// The tests below run the queries and mutations of github-mcp-server's
// issue field tools through shurcooL/githubv4, the client it uses, against
// the GraphQL API at /api/graphql, where GitHub Enterprise Server serves it
// beside /api/v3, on each of stores: the example server's memstore and
// issuefields-postgres's pgstore. The structs are the test's own, with the
// shapes the tools send.

// gqlClient returns a githubv4 client of the server with token, which sends
// the GraphQL-Features header as github-mcp-server does.
func (s *server) gqlClient(t *testing.T, token string) *githubv4.Client {
	t.Helper()
	u := strings.TrimSuffix(s.base, mountPrefix+"/") + "/api/graphql"
	return githubv4.NewEnterpriseClient(u, &http.Client{Transport: tokenTransport(token)})
}

// tokenTransport adds the token and the GraphQL-Features header to each
// request.
type tokenTransport string

func (tok tokenTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(tok))
	r.Header.Set("GraphQL-Features", "issue_fields, repo_issue_fields")
	return http.DefaultTransport.RoundTrip(r)
}

// fieldCommon is what the tools read of every member of IssueFields.
type fieldCommon struct {
	ID             githubv4.ID
	FullDatabaseID githubv4.String `graphql:"fullDatabaseId"`
	Name           githubv4.String
	Description    githubv4.String
	DataType       githubv4.String
	Visibility     githubv4.String
}

// fieldNode is list_issue_fields' node of the union IssueFields.
type fieldNode struct {
	TypeName     githubv4.String `graphql:"__typename"`
	Text         fieldCommon     `graphql:"... on IssueFieldText"`
	Number       fieldCommon     `graphql:"... on IssueFieldNumber"`
	Date         fieldCommon     `graphql:"... on IssueFieldDate"`
	SingleSelect struct {
		fieldCommon
		Options []struct {
			ID          githubv4.ID
			Name        githubv4.String
			Description githubv4.String
			Color       githubv4.String
			Priority    *int
		}
	} `graphql:"... on IssueFieldSingleSelect"`
}

// field returns the common part of n, by its type name.
func (n fieldNode) field() fieldCommon {
	switch n.TypeName {
	case "IssueFieldText":
		return n.Text
	case "IssueFieldNumber":
		return n.Number
	case "IssueFieldDate":
		return n.Date
	case "IssueFieldSingleSelect":
		return n.SingleSelect.fieldCommon
	}
	return fieldCommon{}
}

// listFieldsRepo and listFieldsOrg are list_issue_fields' two queries.
type listFieldsRepo struct {
	Repository struct {
		IssueFields struct{ Nodes []fieldNode } `graphql:"issueFields(first: 100)"`
	} `graphql:"repository(owner: $owner, name: $name)"`
}

type listFieldsOrg struct {
	Organization struct {
		IssueFields struct{ Nodes []fieldNode } `graphql:"issueFields(first: 100)"`
	} `graphql:"organization(login: $login)"`
}

// checkFields checks nodes, octo-org's fields as list_issue_fields reads
// them: the four types it knows, the fifth skipped by its type name.
func checkFields(t *testing.T, nodes []fieldNode) map[string]fieldNode {
	t.Helper()
	byName := map[string]fieldNode{}
	var got []string
	for _, n := range nodes {
		f := n.field()
		if f.Name == "" {
			got = append(got, string(n.TypeName))
			continue
		}
		byName[string(f.Name)] = n
		got = append(got, string(f.Name)+":"+string(f.DataType)+":"+string(f.FullDatabaseID)+":"+string(f.Visibility))
	}
	want := "Priority:SINGLE_SELECT:1:ORGANIZATION_MEMBERS_ONLY Estimate:NUMBER:2:ORGANIZATION_MEMBERS_ONLY " +
		"Due date:DATE:3:ORGANIZATION_MEMBERS_ONLY Summary:TEXT:4:ORGANIZATION_MEMBERS_ONLY IssueFieldMultiSelect"
	if strings.Join(got, " ") != want {
		t.Errorf("fields:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	var options []string
	for _, o := range byName["Priority"].SingleSelect.Options {
		if !strings.HasPrefix(o.ID.(string), "IFO_") || o.Priority == nil {
			t.Errorf("option %+v: want an IFO_ id and a priority", o)
		}
		options = append(options, string(o.Name)+":"+string(o.Color))
	}
	if strings.Join(options, " ") != "High:RED Medium:YELLOW Low:GREEN" {
		t.Errorf("Priority's options: %v", options)
	}
	return byName
}

func TestGraphQLListIssueFieldsRepository(t *testing.T) {
	eachStore(t, func(t *testing.T, s *server) {
		var q listFieldsRepo
		if err := s.gqlClient(t, readerToken).Query(context.Background(), &q, map[string]any{
			"owner": githubv4.String("octo-org"), "name": githubv4.String("hello-world")}); err != nil {
			t.Fatal(err)
		}
		checkFields(t, q.Repository.IssueFields.Nodes)
	})
}

func TestGraphQLListIssueFieldsOrganization(t *testing.T) {
	eachStore(t, func(t *testing.T, s *server) {
		var q listFieldsOrg
		vars := map[string]any{"login": githubv4.String("octo-org")}
		if err := s.gqlClient(t, fieldsReaderToken).Query(context.Background(), &q, vars); err != nil {
			t.Fatal(err)
		}
		checkFields(t, q.Organization.IssueFields.Nodes)
		// As GET /orgs/octo-org/issue-fields, a token without the
		// organization's issue_fields permission may not list them.
		err := s.gqlClient(t, readerToken).Query(context.Background(), &listFieldsOrg{}, vars)
		if err == nil || !strings.Contains(err.Error(), "issue_fields=read") {
			t.Errorf("the reader's list: %v, want the refusal naming issue_fields=read", err)
		}
	})
}

// fieldRef is the IssueFieldRef of list_issues: the field of a value.
type fieldRef struct {
	Date         struct{ Name, FullDatabaseID githubv4.String } `graphql:"... on IssueFieldDate"`
	Number       struct{ Name, FullDatabaseID githubv4.String } `graphql:"... on IssueFieldNumber"`
	SingleSelect struct{ Name, FullDatabaseID githubv4.String } `graphql:"... on IssueFieldSingleSelect"`
	Text         struct{ Name, FullDatabaseID githubv4.String } `graphql:"... on IssueFieldText"`
}

// valueNode is list_issues' IssueFieldValueFragment.
type valueNode struct {
	TypeName  string `graphql:"__typename"`
	DateValue struct {
		Field fieldRef
		Value githubv4.String
	} `graphql:"... on IssueFieldDateValue"`
	NumberValue struct {
		Field fieldRef
		Value githubv4.Float `graphql:"valueNumber: value"`
	} `graphql:"... on IssueFieldNumberValue"`
	SingleSelectValue struct {
		Field fieldRef
		Value githubv4.String
	} `graphql:"... on IssueFieldSingleSelectValue"`
	TextValue struct {
		Field fieldRef
		Value githubv4.String
	} `graphql:"... on IssueFieldTextValue"`
}

// shown returns v as "name=value".
func (v valueNode) shown() string {
	switch v.TypeName {
	case "IssueFieldDateValue":
		return string(v.DateValue.Field.Date.Name) + "=" + string(v.DateValue.Value)
	case "IssueFieldNumberValue":
		return string(v.NumberValue.Field.Number.Name) + "=" + strconv.FormatFloat(float64(v.NumberValue.Value), 'g', -1, 64)
	case "IssueFieldSingleSelectValue":
		return string(v.SingleSelectValue.Field.SingleSelect.Name) + "=" + string(v.SingleSelectValue.Value)
	case "IssueFieldTextValue":
		return string(v.TextValue.Field.Text.Name) + "=" + string(v.TextValue.Value)
	}
	return v.TypeName
}

// IssueFieldValueFilter is named as GitHub's input type, since githubv4
// declares the variable with the Go type's name.
type IssueFieldValueFilter struct {
	FieldName               githubv4.String  `json:"fieldName"`
	TextValue               *githubv4.String `json:"textValue,omitempty"`
	DateValue               *githubv4.String `json:"dateValue,omitempty"`
	NumberValue             *githubv4.Float  `json:"numberValue,omitempty"`
	SingleSelectOptionValue *githubv4.String `json:"singleSelectOptionValue,omitempty"`
}

// listIssues is list_issues' query with a field filter.
type listIssues struct {
	Repository struct {
		Issues struct {
			Nodes []struct {
				Number     githubv4.Int
				Title      githubv4.String
				Body       githubv4.String
				State      githubv4.String
				DatabaseID int64
				Author     struct{ Login githubv4.String }
				CreatedAt  githubv4.DateTime
				UpdatedAt  githubv4.DateTime
				Labels     struct {
					Nodes []struct{ Name, ID, Description githubv4.String }
				} `graphql:"labels(first: 100)"`
				Assignees struct {
					Nodes []struct{ Login githubv4.String }
				} `graphql:"assignees(first: 100)"`
				Comments         struct{ TotalCount githubv4.Int } `graphql:"comments"`
				IssueFieldValues struct{ Nodes []valueNode }       `graphql:"issueFieldValues(first: 25)"`
			} `graphql:"nodes"`
			PageInfo struct {
				HasNextPage, HasPreviousPage githubv4.Boolean
				StartCursor, EndCursor       githubv4.String
			}
			TotalCount int
		} `graphql:"issues(first: $first, after: $after, states: $states, orderBy: {field: $orderBy, direction: $direction}, filterBy: {issueFieldValues: $issueFieldValues})"`
		IsPrivate githubv4.Boolean
	} `graphql:"repository(owner: $owner, name: $repo)"`
}

func TestGraphQLListIssuesWithFieldFilter(t *testing.T) {
	eachStore(t, func(t *testing.T, s *server) {
		high := githubv4.String("high")
		var q listIssues
		err := s.gqlClient(t, readerToken).Query(context.Background(), &q, map[string]any{
			"owner": githubv4.String("octo-org"), "repo": githubv4.String("hello-world"),
			"first": githubv4.Int(30), "after": (*githubv4.String)(nil),
			"states":  []githubv4.IssueState{githubv4.IssueStateOpen},
			"orderBy": githubv4.IssueOrderFieldCreatedAt, "direction": githubv4.OrderDirectionDesc,
			"issueFieldValues": []IssueFieldValueFilter{{FieldName: "Priority", SingleSelectOptionValue: &high}},
		})
		if err != nil {
			t.Fatal(err)
		}
		issues := q.Repository.Issues
		if issues.TotalCount != 1 || len(issues.Nodes) != 1 || issues.Nodes[0].Number != 1 || issues.Nodes[0].State != "OPEN" || bool(q.Repository.IsPrivate) {
			t.Fatalf("issues: %+v", q.Repository)
		}
		var values []string
		for _, v := range issues.Nodes[0].IssueFieldValues.Nodes {
			values = append(values, v.shown())
		}
		want := "Priority=High Estimate=3 Due date=2026-04-01 Summary=Crash when saving a file with a long name IssueFieldMultiSelectValue"
		if strings.Join(values, " ") != want {
			t.Errorf("values:\n got %s\nwant %s", strings.Join(values, " "), want)
		}
	})
}

// SetIssueFieldValueInput and IssueFieldCreateOrUpdateInput are named as
// GitHub's input types, since githubv4 declares $input with the Go type's
// name.
type SetIssueFieldValueInput struct {
	IssueID          githubv4.ID                     `json:"issueId"`
	IssueFields      []IssueFieldCreateOrUpdateInput `json:"issueFields"`
	ClientMutationID *githubv4.String                `json:"clientMutationId,omitempty"`
}

type IssueFieldCreateOrUpdateInput struct {
	FieldID              githubv4.ID       `json:"fieldId"`
	TextValue            *githubv4.String  `json:"textValue,omitempty"`
	NumberValue          *githubv4.Float   `json:"numberValue,omitempty"`
	DateValue            *githubv4.String  `json:"dateValue,omitempty"`
	SingleSelectOptionID *githubv4.ID      `json:"singleSelectOptionId,omitempty"`
	Delete               *githubv4.Boolean `json:"delete,omitempty"`
	Rationale            *githubv4.String  `json:"rationale,omitempty"`
	Confidence           *string           `json:"confidence,omitempty"`
	Suggest              *githubv4.Boolean `json:"suggest,omitempty"`
}

// setFieldsMutation is set_issue_fields' mutation.
type setFieldsMutation struct {
	SetIssueFieldValue struct {
		Issue struct {
			ID  githubv4.ID
			URL githubv4.String
		}
	} `graphql:"setIssueFieldValue(input: $input)"`
}

// issueID is set_issue_fields' query of the issue's node id.
type issueID struct {
	Repository struct {
		Issue struct{ ID githubv4.ID } `graphql:"issue(number: $issueNumber)"`
	} `graphql:"repository(owner: $owner, name: $repo)"`
}

func TestGraphQLSetIssueFields(t *testing.T) {
	eachStore(t, func(t *testing.T, s *server) {
		ctx := context.Background()
		gql := s.gqlClient(t, writerToken)
		var fields listFieldsRepo
		if err := gql.Query(ctx, &fields, map[string]any{"owner": githubv4.String("octo-org"), "name": githubv4.String("hello-world")}); err != nil {
			t.Fatal(err)
		}
		byName := checkFields(t, fields.Repository.IssueFields.Nodes)
		var id issueID
		if err := gql.Query(ctx, &id, map[string]any{"owner": githubv4.String("octo-org"), "repo": githubv4.String("hello-world"),
			"issueNumber": githubv4.Int(2)}); err != nil {
			t.Fatal(err)
		}
		str := func(s string) *githubv4.String { v := githubv4.String(s); return &v }
		num := githubv4.Float(13.5)
		yes, confidence := githubv4.Boolean(true), "HIGH"
		medium := byName["Priority"].SingleSelect.Options[1].ID
		for _, tt := range []struct {
			name  string
			item  IssueFieldCreateOrUpdateInput
			field int64
			want  any
		}{
			{"text", IssueFieldCreateOrUpdateInput{FieldID: byName["Summary"].Text.ID, TextValue: str("Set through GraphQL"),
				Rationale: str("the title says so"), Confidence: &confidence}, 4, "Set through GraphQL"},
			{"number", IssueFieldCreateOrUpdateInput{FieldID: byName["Estimate"].Number.ID, NumberValue: &num}, 2, 13.5},
			{"date", IssueFieldCreateOrUpdateInput{FieldID: byName["Due date"].Date.ID, DateValue: str("2026-09-30")}, 3, "2026-09-30"},
			{"single select", IssueFieldCreateOrUpdateInput{FieldID: byName["Priority"].SingleSelect.ID, SingleSelectOptionID: &medium}, 1, float64(12)},
			{"delete", IssueFieldCreateOrUpdateInput{FieldID: byName["Estimate"].Number.ID, Delete: &yes}, 2, nil},
		} {
			var m setFieldsMutation
			err := gql.Mutate(ctx, &m, SetIssueFieldValueInput{IssueID: id.Repository.Issue.ID, IssueFields: []IssueFieldCreateOrUpdateInput{tt.item}}, nil)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if m.SetIssueFieldValue.Issue.ID != id.Repository.Issue.ID || !strings.HasSuffix(string(m.SetIssueFieldValue.Issue.URL), "/octo-org/hello-world/issues/2") {
				t.Errorf("%s: the payload's issue %+v", tt.name, m.SetIssueFieldValue.Issue)
			}
			// Read back through REST, the values list.
			values, _, err := listValues(ctx, s.client(t, readerToken), "octo-org", "hello-world", 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got any
			found := false
			for _, v := range values {
				if v.IssueFieldID == tt.field {
					got, found = v.Value, true
				}
			}
			if tt.want == nil && found || tt.want != nil && got != tt.want {
				t.Errorf("%s: field %d is %v (there: %v) over REST, want %v", tt.name, tt.field, got, found, tt.want)
			}
		}
		// A value the field refuses: the REST refusal, naming the field.
		var m setFieldsMutation
		err := gql.Mutate(ctx, &m, SetIssueFieldValueInput{IssueID: id.Repository.Issue.ID, IssueFields: []IssueFieldCreateOrUpdateInput{
			{FieldID: byName["Due date"].Date.ID, DateValue: str("the 31st of June")}}}, nil)
		if err == nil || !strings.Contains(err.Error(), `Due date`) {
			t.Errorf("a bad date: %v, want the refusal naming the field", err)
		}
	})
}
