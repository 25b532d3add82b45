package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// versionLine matches the first line of -version: the command's name, its
// module's path and its version.
var versionLine = regexp.MustCompile(`^issuefields-postgres github\.com/issuefields/issuefields/pgstore/cmd/issuefields-postgres (\(devel\)|v\S+)$`)

// TestInstalledCommand runs go install ./cmd/issuefields-postgres in pgstore,
// as the docs say, into a temporary directory, and checks the binary's name,
// its -version and its -h.
func TestInstalledCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: installs the command with the go command")
	}
	gobin := t.TempDir()
	install := exec.Command("go", "install", "./cmd/issuefields-postgres")
	install.Dir = "../.."
	install.Env = append(os.Environ(), "GOBIN="+gobin)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install ./cmd/issuefields-postgres: %v\n%s", err, out)
	}
	bin := filepath.Join(gobin, "issuefields-postgres")

	out, err := exec.Command(bin, "-version").Output()
	if err != nil {
		t.Fatalf("issuefields-postgres -version: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if !versionLine.MatchString(lines[0]) || !strings.HasPrefix(lines[len(lines)-1], "built with go") {
		t.Errorf("issuefields-postgres -version printed\n%s\nwant the module path and version first, and the Go version last", out)
	}

	out, err = exec.Command(bin, "-h").Output()
	if err != nil || !strings.HasPrefix(string(out), "Usage: issuefields-postgres [flags]\n") || !strings.Contains(string(out), "-postgres URL") {
		t.Errorf("issuefields-postgres -h = %v\n%s\nwant the help of issuefields-postgres with -postgres", err, out)
	}
}
