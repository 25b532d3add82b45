package datafile

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/issuefields/issuefields/example/internal/lookup"
)

// dataFileSection returns the section of docs/data-file.md under heading,
// up to the next heading of the same or a higher level.
func dataFileSection(t *testing.T, heading string) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/data-file.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("docs/data-file.md has no heading %q", heading)
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

func TestDocShowsDemoData(t *testing.T) {
	blocks := jsonBlocks(dataFileSection(t, "## Demo data"))
	if len(blocks) != 1 || blocks[0] != string(demoData) {
		t.Errorf("the section Demo data of docs/data-file.md does not show example/datafile/demo.json as it is")
	}
}

// TestDocDataFile checks that the data file of the section The format of
// docs/data-file.md loads, and that its repository answers to the names the
// page says it had.
func TestDocDataFile(t *testing.T) {
	blocks := jsonBlocks(dataFileSection(t, "## The format"))
	if len(blocks) != 1 {
		t.Fatalf("the section The format of docs/data-file.md has %d JSON blocks, want 1", len(blocks))
	}
	d, err := load([]byte(blocks[0]))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	for _, name := range []string{"octocat/hello", "octo-org/hello", "octo-org/hello-world-old", "octo-org/hello-world"} {
		owner, repo, _ := strings.Cut(name, "/")
		got, err := lookup.Repository(context.Background(), d.store, owner, repo)
		if err != nil || got.Owner != "octo-org" || got.Name != "hello-world" {
			t.Errorf("Repository(%s) = %s/%s, %v; want octo-org/hello-world", name, got.Owner, got.Name, err)
		}
	}
}

// TestDocListsEveryDemoToken checks that the section Demo tokens of
// docs/data-file.md has a row for each token of the demo data, in its order,
// and for no other.
func TestDocListsEveryDemoToken(t *testing.T) {
	d, err := load(demoData)
	if err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for _, td := range d.file.Tokens {
		want = append(want, td.Token)
	}
	for _, line := range strings.Split(dataFileSection(t, "## Demo tokens"), "\n") {
		if rest, ok := strings.CutPrefix(line, "| `"); ok {
			token, _, _ := strings.Cut(rest, "`")
			got = append(got, token)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("the section Demo tokens of docs/data-file.md lists %v; the demo data has %v", got, want)
	}
}
