package banner

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/issuefields/issuefields/example/datafile"
)

// tokenLines returns the lines of the Tokens section of d's start-up
// message, with the runs of spaces that align its columns made single
// spaces.
func tokenLines(t *testing.T, d *Data) []string {
	t.Helper()
	var out strings.Builder
	if err := Print(context.Background(), &out, "http://127.0.0.1:8080", "Service", "", d); err != nil {
		t.Fatal(err)
	}
	message := strings.Split(out.String(), "\n")
	i := slices.IndexFunc(message, func(line string) bool { return strings.HasPrefix(line, "Tokens (") })
	if i < 0 {
		t.Fatalf("the start-up message has no Tokens section:\n%s", out.String())
	}
	var lines []string
	for _, line := range message[i+1:] {
		if line == "" {
			break
		}
		lines = append(lines, strings.Join(strings.Fields(line), " "))
	}
	return lines
}

// TestStartUpMessageSaysWhatEachDemoTokenMay checks what the start-up
// message says each demo token may do, which is what docs/data-file.md says
// of them.
func TestStartUpMessageSaysWhatEachDemoTokenMay(t *testing.T) {
	const hello, roadmap, handbook = "octo-org/hello-world", "octo-org/roadmap", "octo-org/handbook"
	want := []string{
		"demo-writer-token fine_grained_pat octocat list and write: " + hello + ", " + roadmap + ", " + handbook,
		"demo-app-token app_installation demo-app[bot] list and write: " + hello + ", " + roadmap,
		"list only; writes are 403: " + handbook,
		"demo-reader-token fine_grained_pat reader list only; writes are 403: " + hello + ", " + roadmap + ", " + handbook,
		"demo-no-push-token app_user triager list; writes are 403 (no push access): " + hello + ", " + roadmap,
		"list only; writes are 403: " + handbook,
		"demo-outsider-token fine_grained_pat outsider list only; writes are 403: " + hello + ", " + handbook,
		"cannot see (404): " + roadmap,
		"demo-classic-token classic_pat octocat a classic_pat token is not accepted by the values routes: they answer 403",
		"list the issue fields of octo-org",
		"demo-fields-admin-token fine_grained_pat fields-admin list only; writes are 403: " + hello + ", " + handbook,
		"cannot see (404): " + roadmap,
		"manage the issue fields of octo-org",
		"demo-fields-reader-token app_installation fields-reader[bot] list only; writes are 403: " + hello + ", " + handbook,
		"cannot see (404): " + roadmap,
		"list the issue fields of octo-org",
		"demo-expired-token fine_grained_pat former-member expired at 2020-01-01T00:00:00Z: every request is 401 Bad credentials",
	}
	if got := tokenLines(t, demo(t, InMemory)); !slices.Equal(got, want) {
		t.Errorf("the Tokens section says\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestStartUpMessageOfOtherTokens checks what the start-up message says of a
// repository with no live issue to ask about, a token that may write but not
// list, and an OAuth app token that may manage every organization's fields.
func TestStartUpMessageOfOtherTokens(t *testing.T) {
	data := `{"organizations": [{"login": "o", "fields": [{"id": 1, "name": "Notes", "data_type": "text"}]}],
	  "repositories": [{"owner": "o", "name": "gone", "issues": [{"number": 1, "deleted": true}]},
	    {"owner": "o", "name": "r", "private": true, "issues": [{"number": 1}]}],
	  "tokens": [{"token": "t", "kind": "app_user", "login": "l", "repositories": {"o/r": {"pull_requests": "write", "push": true}}},
	    {"token": "u", "kind": "oauth_app", "login": "m", "scopes": ["admin:org"]}]}`
	f, err := datafile.Parse([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"t app_user l not known: the repository has no live issue to ask about: o/gone",
		"write; lists are 403: o/r",
		"u oauth_app m a oauth_app token is not accepted by the values routes: they answer 403",
		"manage the issue fields of o",
	}
	if got := tokenLines(t, load(t, f, InMemory)); !slices.Equal(got, want) {
		t.Errorf("the Tokens section says\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
