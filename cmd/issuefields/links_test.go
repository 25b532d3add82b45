package main

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// listTimeout bounds the go command's listing of the commands' packages.
const listTimeout = 2 * time.Minute

// TestCommandsLinkNoTestCode checks that neither installed command,
// issuefields nor pgstore's issuefields-postgres, links the testing
// package: what they import of the library, the example server and its
// data file's loading, is no test code.
func TestCommandsLinkNoTestCode(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: lists packages with the go command")
	}
	for _, dir := range []string{".", "../../pgstore/cmd/issuefields-postgres"} {
		ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
		list := exec.CommandContext(ctx, "go", "list", "-deps", dir)
		out, err := list.Output()
		cancel()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", dir, err)
		}
		if deps := strings.Fields(string(out)); slices.Contains(deps, "testing") {
			t.Errorf("go list -deps %s lists the package testing: the command links test code", dir)
		}
	}
}
