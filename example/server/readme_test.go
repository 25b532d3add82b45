package server

import (
	"context"
	"os"
	"strings"
	"testing"
)

// readmeSection returns the section of the README under heading, up to the
// next heading of the same or a higher level.
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("the README has no heading %q", heading)
	}
	level := heading[:strings.IndexByte(heading, ' ')+1]
	for _, next := range []string{"\n" + level, "\n" + level[1:]} {
		if i := strings.Index(section, next); i >= 0 {
			section = section[:i]
		}
	}
	return section
}

// jsonBlocks returns the contents of the ```json blocks of markdown.
func jsonBlocks(markdown string) []string {
	var blocks []string
	for _, part := range strings.Split(markdown, "```json\n")[1:] {
		block, _, _ := strings.Cut(part, "```")
		blocks = append(blocks, block)
	}
	return blocks
}

func TestREADMEShowsDemoData(t *testing.T) {
	blocks := jsonBlocks(readmeSection(t, "### Demo data"))
	if len(blocks) != 1 || blocks[0] != string(demoData) {
		t.Errorf("the README's section Demo data does not show example/demo.json as it is")
	}
}

// TestREADMEDataFile checks that the data file of the README's section Data
// files loads, and that its repository answers to the names the README says
// it had.
func TestREADMEDataFile(t *testing.T) {
	blocks := jsonBlocks(readmeSection(t, "### Data files"))
	if len(blocks) != 1 {
		t.Fatalf("the README's section Data files has %d JSON blocks, want 1", len(blocks))
	}
	d, err := load([]byte(blocks[0]))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	for _, name := range []string{"octocat/hello", "octo-org/hello", "octo-org/hello-world-old", "octo-org/hello-world"} {
		owner, repo, _ := strings.Cut(name, "/")
		got, err := d.store.Repository(context.Background(), owner, repo)
		if err != nil || got.Owner != "octo-org" || got.Name != "hello-world" {
			t.Errorf("Repository(%s) = %s/%s, %v; want octo-org/hello-world", name, got.Owner, got.Name, err)
		}
	}
}
