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

// TestREADMEGoGitHubProgram follows the README's steps for its go-github
// program, in a module of its own (go mod init, go mod tidy, go run .),
// against the example server with its demo data, and checks that the
// program prints what the README says it prints.
func TestREADMEGoGitHubProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: builds and runs a program with the go command")
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := readmeProgram.FindSubmatch(readme)
	if m == nil {
		t.Fatal("the README has no go program (package main) followed by a text block of its output")
	}
	program, want := string(m[1]), string(m[2])
	const readmeOrigin = "http://127.0.0.1:8080"
	if !strings.Contains(program, readmeOrigin+mountPrefix+"/") {
		t.Fatalf("the README's program does not use %s%s/", readmeOrigin, mountPrefix)
	}

	s := startServerWith(t, "")
	u, err := url.Parse(s.base)
	if err != nil {
		t.Fatal(err)
	}
	program = strings.ReplaceAll(program, readmeOrigin, "http://"+u.Host)

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
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
		out, err := cmd.Output()
		if err != nil {
			stderr := ""
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("go %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr)
		}
		return string(out)
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
