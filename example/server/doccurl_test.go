package server

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// docOrigin is the address of go run ./example in the documentation's curl
// commands.
const docOrigin = "http://127.0.0.1:8080"

// curlCommand matches a curl command of a sh block, with its continuation
// lines.
var curlCommand = regexp.MustCompile(`(?m)^curl (?:[^\n]*\\\n)*[^\n]*$`)

// TestDocumentedCurlCommands runs, in the order of each page, the curl
// commands of the README and of docs/operations.md that go to
// go run ./example, against the example server with its demo data, and
// checks that each gets a 2xx answer whose JSON body ends with a newline, a
// 204 (without a body), or the HTML page of the tools.
func TestDocumentedCurlCommands(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil && os.Getenv("CI") != "" {
		t.Fatal("no curl on this machine, and CI runs every test: .ci/run installs it")
	}
	if err != nil {
		t.Skip("skipped: no curl on this machine")
	}
	for _, page := range []string{"README.md", "docs/operations.md"} {
		t.Run(page, func(t *testing.T) {
			text, err := os.ReadFile("../../" + page)
			if err != nil {
				t.Fatal(err)
			}
			s := startServer(t)
			origin := strings.TrimSuffix(s.base, "/")
			shownAnswers := answersShown(string(text))
			ran := 0
			for _, cmd := range curlCommand.FindAllString(string(text), -1) {
				if !strings.Contains(cmd, docOrigin+"/") {
					continue
				}
				ran++
				line := strings.ReplaceAll(cmd, docOrigin, origin)
				line = strings.Replace(line, "curl ", curl+" -w '\n%{http_code}' ", 1)
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				out, err := exec.CommandContext(ctx, "sh", "-c", line).Output()
				cancel()
				body, status, _ := cutLast(string(out), "\n")
				whole := strings.HasSuffix(body, "}\n") || strings.HasSuffix(body, "]\n") || strings.HasSuffix(body, "</html>\n")
				if err != nil || !strings.HasPrefix(status, "2") || status != "204" && !whole {
					t.Errorf("%s\n= %s (%v), want a 2xx answer whose JSON body ends with a newline, a 204, or the tools' page", cmd, out, err)
				}
				if shown, ok := shownAnswers[cmd]; ok && !strings.HasPrefix(body, shown) {
					t.Errorf("%s\nanswers\n%s\nbut %s shows it as beginning\n%s", cmd, body, page, shown)
				}
			}
			if ran == 0 {
				t.Errorf("%s has no curl command to %s", page, docOrigin)
			}
		})
	}
}

// shownAnswer matches a sh block of one curl command followed by a json
// block of its answer.
var shownAnswer = regexp.MustCompile("(?s)```sh\n(curl [^`]*?)\n```\n\n```json\n(.*?)\n```")

// answersShown returns the beginning of the answer that markdown shows for
// each curl command it shows one for: the json block, its lines joined as
// one line, up to the "…" that stands for the rest.
func answersShown(markdown string) map[string]string {
	shown := map[string]string{}
	for _, m := range shownAnswer.FindAllStringSubmatch(markdown, -1) {
		answer := strings.ReplaceAll(m[2], "\n ", "")
		answer, _, _ = strings.Cut(answer, " …")
		shown[m[1]] = answer
	}
	return shown
}

// cutLast cuts s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}
