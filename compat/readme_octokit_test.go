package compat

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// readmeOctokitProgram matches the README's Octokit program and the output
// the README shows for it.
var readmeOctokitProgram = regexp.MustCompile("(?s)```js\n(import \\{ Octokit \\} from \"@octokit/core\";\n.*?)```\n\n```text\n(.*?)```")

// TestREADMEOctokitProgram runs the README's Octokit program with Node.js,
// with the packages that octokit/package-lock.json pins (installed with npm
// ci from the npm registry, in a temporary directory), against the example
// server with its demo data, and checks that the program prints what the
// README says it prints.
func TestREADMEOctokitProgram(t *testing.T) {
	requireNode(t)
	program, want := readmeExample(t, readmeOctokitProgram, "Octokit program (import { Octokit })")
	ctx, cancel := context.WithTimeout(t.Context(), snippetBound)
	defer cancel()
	dir := installOctokit(ctx, t)
	if err := os.WriteFile(filepath.Join(dir, "try.mjs"), []byte(program), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := runIn(ctx, t, dir, nil, "node", "try.mjs"); got != want {
		t.Errorf("the README's Octokit program printed\n%s\nbut the README shows\n%s", got, want)
	}
}

// requireNode skips the test in -short mode, and on a machine without node
// and npm but outside CI, which runs every test.
func requireNode(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("skipped in -short mode: installs packages with npm and runs a program with node")
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("no %s on this machine, and CI runs every test: .ci/run installs it", tool)
			}
			t.Skipf("skipped: no %s on this machine", tool)
		}
	}
}

// installOctokit installs the packages that octokit/package-lock.json pins
// (with npm ci from the npm registry) in a temporary directory, and returns
// the directory, where a program imports them.
func installOctokit(ctx context.Context, t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"package.json", "package-lock.json"} {
		text, err := os.ReadFile(filepath.Join("octokit", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), text, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	runIn(ctx, t, dir, []string{"npm_config_update_notifier=false"}, "npm", "ci", "--no-audit", "--no-fund")
	return dir
}
