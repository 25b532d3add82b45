package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// install runs go install ./cmd/issuefields at the root of the repository,
// as the README says, into a temporary directory, and returns the path of
// the binary. In a git checkout it asks the go command to record the
// revision, and returns it; otherwise it returns "".
func install(t *testing.T) (bin, revision string) {
	t.Helper()
	if testing.Short() {
		t.Skip("skipped in -short mode: installs the command with the go command")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"install"}
	git := exec.Command("git", "rev-parse", "HEAD")
	git.Dir = root
	if out, err := git.Output(); err == nil {
		revision = strings.TrimSpace(string(out))
		args = append(args, "-buildvcs=true")
	}
	gobin := t.TempDir()
	install := exec.Command("go", append(args, "./cmd/issuefields")...)
	install.Dir = root
	install.Env = append(os.Environ(), "GOBIN="+gobin)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install ./cmd/issuefields: %v\n%s", err, out)
	}
	return filepath.Join(gobin, "issuefields"), revision
}

// versionLine matches the first line of -version: the command's name, its
// module's path and its version.
var versionLine = regexp.MustCompile(`^issuefields github\.com/issuefields/issuefields/cmd/issuefields (\(devel\)|v\S+)$`)

func TestInstalledCommand(t *testing.T) {
	bin, revision := install(t)

	out, err := exec.Command(bin, "-version").Output()
	if err != nil {
		t.Fatalf("issuefields -version: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if !versionLine.MatchString(lines[0]) || !strings.HasPrefix(lines[len(lines)-1], "built with go") {
		t.Errorf("issuefields -version printed\n%s\nwant the module path and version first, and the Go version last", out)
	}
	if revision != "" && !strings.Contains(string(out), "\nvcs.revision="+revision+"\nvcs.modified=") {
		t.Errorf("issuefields -version printed\n%s\nwant vcs.revision=%s and vcs.modified", out, revision)
	}

	out, err = exec.Command(bin, "-h").Output()
	if err != nil || !strings.HasPrefix(string(out), "Usage: issuefields [flags]\n") || !strings.Contains(string(out), "-tls-cert file") {
		t.Errorf("issuefields -h = %v\n%s\nwant the help of issuefields with every flag", err, out)
	}

	out, err = exec.Command(bin, "-addr", "nowhere").CombinedOutput()
	if err == nil || string(out) != "issuefields: -addr \"nowhere\": want host:port, such as 127.0.0.1:8080\n" {
		t.Errorf("issuefields -addr nowhere = %v\n%s\nwant exit status 1 and an error that names issuefields", err, out)
	}
}

// TestInstalledCommandServes starts the installed command and reads its
// listening line, then stops it with an interrupt, as Ctrl-C does.
func TestInstalledCommandServes(t *testing.T) {
	bin, _ := install(t)
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || !strings.HasPrefix(lines.Text(), "listening on http://127.0.0.1:") {
		t.Errorf("issuefields printed %q first, want its listening line", lines.Text())
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() {
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("issuefields after an interrupt: %v, want exit status 0", err)
	}
}
