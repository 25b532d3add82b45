package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestGoRunNamesTheCommand checks that go run ./example answers -h and
// -version under the name go run gives it.
func TestGoRunNamesTheCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: runs the example program with the go command")
	}
	out, err := exec.Command("go", "run", ".", "-h").Output()
	if err != nil || !strings.HasPrefix(string(out), "Usage: example [flags]\n") {
		t.Errorf("go run ./example -h = %v\n%s\nwant the help of example", err, out)
	}
	out, err = exec.Command("go", "run", ".", "-version").Output()
	if err != nil || !strings.HasPrefix(string(out), "example github.com/issuefields/issuefields/example ") {
		t.Errorf("go run ./example -version = %v\n%s\nwant the name, the module path and its version", err, out)
	}
}
