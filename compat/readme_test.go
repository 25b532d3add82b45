package compat

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// snippetBound bounds building and running the README's program.
const snippetBound = 3 * time.Minute

// readmeProgram matches the README's go-github program and the output the
// README shows for it.
var readmeProgram = regexp.MustCompile("(?s)```go\n(package main\n.*?)```\n\n```text\n(.*?)```")

// goGitHubRequire matches the go-github requirement of compat's go.mod.
var goGitHubRequire = regexp.MustCompile(`(?m)^\s*github\.com/google/go-github/v\d+ v\S+$`)

// readmeOrigin is the origin of the example server in the README's programs.
const readmeOrigin = "http://127.0.0.1:8080"

// readmeExample returns the README's program that re matches (its first
// group) and the output the README shows for it (its second group), with the
// program pointed at a fresh example server started as the README starts it,
// with its demo data.
func readmeExample(t *testing.T, re *regexp.Regexp, what string) (program, want string) {
	t.Helper()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := re.FindSubmatch(readme)
	if m == nil {
		t.Fatalf("the README has no %s followed by a text block of its output", what)
	}
	program, want = string(m[1]), string(m[2])
	if !strings.Contains(program, readmeOrigin+mountPrefix) {
		t.Fatalf("the README's %s does not use %s%s", what, readmeOrigin, mountPrefix)
	}
	s := startServerWith(t, "")
	u, err := url.Parse(s.base)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(program, readmeOrigin, "http://"+u.Host), want
}

// runIn runs a command in dir with the extra environment variables of env
// and returns its standard output. A command that fails fails the test, with
// its output.
func runIn(ctx context.Context, t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

// TestREADMEGoGitHubProgram follows the README's steps for its go-github
// program, in a module of its own (go mod init, go mod tidy, go run .),
// against the example server with its demo data, and checks that the
// program prints what the README says it prints.
func TestREADMEGoGitHubProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: builds and runs a program with the go command")
	}
	program, want := readmeExample(t, readmeProgram, "go program (package main)")

	// The module of the README's steps. It requires the go-github that
	// compat's go.mod does, so that go mod tidy finds it in the module cache
	// that building compat filled, and it starts with compat's go.sum: the
	// lines the checksum database would give a user. With both, go mod tidy
	// needs neither the network nor the checksum database.
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	require := goGitHubRequire.Find(gomod)
	if require == nil {
		t.Fatal("compat's go.mod does not require go-github")
	}
	gosum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":  "module example.com/try-github\n\ngo 1.24\n\nrequire " + strings.TrimSpace(string(require)) + "\n",
		"go.sum":  string(gosum),
		"main.go": program,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), snippetBound)
	defer cancel()
	goCmd := func(args ...string) string {
		t.Helper()
		return runIn(ctx, t, dir, []string{"GOFLAGS=-mod=mod", "GOPROXY=off"}, "go", args...)
	}
	// The README's go mod tidy reads the go.mod of every module in
	// go-github's graph, some of which building compat never needed. This
	// fetches them into the module cache from the configured module proxy,
	// checked against compat's go.sum (so never against the checksum
	// database), as go test does for compat's own packages.
	download := exec.CommandContext(ctx, "go", "mod", "download", "all")
	download.Env = append(os.Environ(), "GOFLAGS=-mod=readonly")
	if out, err := download.CombinedOutput(); err != nil {
		t.Fatalf("go mod download all, in compat: %v\n%s", err, out)
	}
	goCmd("mod", "tidy")
	if got := goCmd("run", "."); got != want {
		t.Errorf("the README's program printed\n%s\nbut the README shows\n%s", got, want)
	}
}
