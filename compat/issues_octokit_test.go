package compat

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// octokitIssueProgram reads an issue with Octokit's request, and the
// issue's values through the values route, and prints what a test can
// compare: the issue's number and title, its values' names, whether its
// issue_field_values are the values list's items exactly, and whether the
// two answers have the same ETag.
const octokitIssueProgram = `import { Octokit } from "@octokit/core";

const octokit = new Octokit({ baseUrl: process.env.API_URL, auth: process.env.TOKEN });
const where = { owner: "octo-org", repo: "hello-world", issue_number: 1 };
const issue = await octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}", where);
const values = await octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values", where);
console.log(issue.status, issue.data.number, issue.data.title);
console.log(issue.data.issue_field_values.map((v) => v.issue_field_name).join(", "));
console.log("same values:", JSON.stringify(issue.data.issue_field_values) === JSON.stringify(values.data));
console.log("same etag:", issue.headers.etag === values.headers.etag);
`

// TestOctokitIssue reads an issue with its field values through Octokit's
// request, with Node.js, from the example server.
func TestOctokitIssue(t *testing.T) {
	requireNode(t)
	s := startServer(t)
	ctx, cancel := context.WithTimeout(t.Context(), snippetBound)
	defer cancel()
	dir := installOctokit(ctx, t)
	if err := os.WriteFile(filepath.Join(dir, "issue.mjs"), []byte(octokitIssueProgram), 0o600); err != nil {
		t.Fatal(err)
	}
	got := runIn(ctx, t, dir, []string{"API_URL=" + strings.TrimSuffix(s.base, "/"), "TOKEN=" + writerToken}, "node", "issue.mjs")
	const want = "200 1 Issue #1\nPriority, Estimate, Due date, Summary, Platforms\nsame values: true\nsame etag: true\n"
	if got != want {
		t.Errorf("the program printed\n%s\nwant\n%s", got, want)
	}
}
