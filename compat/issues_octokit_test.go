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
// two answers have the same ETag, and the primary rate limit's headers as
// Octokit reads them: the budget, its resource, remaining and used adding
// up to it, the second request counted, and a reset still to come.
const octokitIssueProgram = `import { Octokit } from "@octokit/core";

const octokit = new Octokit({ baseUrl: process.env.API_URL, auth: process.env.TOKEN });
const where = { owner: "octo-org", repo: "hello-world", issue_number: 1 };
const issue = await octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}", where);
const values = await octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values", where);
console.log(issue.status, issue.data.number, issue.data.title);
console.log(issue.data.issue_field_values.map((v) => v.issue_field_name).join(", "));
console.log("same values:", JSON.stringify(issue.data.issue_field_values) === JSON.stringify(values.data));
console.log("same etag:", issue.headers.etag === values.headers.etag);
const rate = (r) => ["limit", "remaining", "used"].map((k) => Number(r.headers["x-ratelimit-" + k]));
const [limit, remaining, used] = rate(issue);
console.log("rate limit:", limit, issue.headers["x-ratelimit-resource"], remaining + used === limit,
  rate(values)[1] === remaining - 1, Number(issue.headers["x-ratelimit-reset"]) > Date.now() / 1000);
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
	const want = "200 1 Issue #1\nPriority, Estimate, Due date, Summary, Platforms\nsame values: true\nsame etag: true\nrate limit: 5000 core true true true\n"
	if got != want {
		t.Errorf("the program printed\n%s\nwant\n%s", got, want)
	}
}
