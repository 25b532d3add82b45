// Package docs holds the documentation pages that README.md links to. Its
// test keeps the links working and the README short.
package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// maxREADMELines is the most lines README.md may have: a page a newcomer
// reads in five minutes.
const maxREADMELines = 300

// testCommand is the README's command that runs the tests; CI runs it too.
const testCommand = "go test -race ./..."

var (
	// link matches a Markdown link or image, capturing its target.
	link = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// heading matches a Markdown heading, capturing its text.
	heading = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)
	// notInSlug matches what GitHub leaves out of a heading's anchor.
	notInSlug = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
)

// pages returns README.md and every page of docs/, by path from the root of
// the repository.
func pages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"README.md"}
	for _, d := range docs {
		paths = append(paths, filepath.Join("docs", d))
	}
	return paths
}

// read returns the text of path, a path from the root of the repository.
func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// withoutCode returns markdown without its fenced code blocks, whose lines
// are neither links nor headings.
func withoutCode(markdown string) string {
	var out []string
	fenced := false
	for _, line := range strings.Split(markdown, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// anchors returns the anchors of the headings of markdown, as GitHub makes
// them.
func anchors(markdown string) map[string]bool {
	set := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(withoutCode(markdown), -1) {
		slug := strings.ToLower(notInSlug.ReplaceAllString(m[1], ""))
		set[strings.ReplaceAll(slug, " ", "-")] = true
	}
	return set
}

// TestRelativeLinksResolve checks that every relative link of the README
// and of docs/ names a file of the repository and, with a #fragment into a
// Markdown page, one of its headings.
func TestRelativeLinksResolve(t *testing.T) {
	for _, page := range pages(t) {
		text := withoutCode(read(t, page))
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, fragment, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
				if _, err := os.Stat(filepath.Join("..", path)); err != nil {
					t.Errorf("%s: link %s: no file %s", page, target, path)
					continue
				}
			}
			if fragment != "" && strings.HasSuffix(path, ".md") && !anchors(read(t, path))[fragment] {
				t.Errorf("%s: link %s: %s has no heading with the anchor #%s", page, target, path, fragment)
			}
		}
	}
}

// TestEveryPageIsLinkedFromTheREADME checks that no page of docs/ is out of
// a newcomer's reach.
func TestEveryPageIsLinkedFromTheREADME(t *testing.T) {
	readme := read(t, "README.md")
	for _, page := range pages(t)[1:] {
		if !strings.Contains(readme, "]("+filepath.ToSlash(page)) {
			t.Errorf("README.md does not link to %s", page)
		}
	}
}

func TestREADMEIsShort(t *testing.T) {
	if n := strings.Count(read(t, "README.md"), "\n"); n > maxREADMELines {
		t.Errorf("README.md has %d lines, want at most %d: move the details to a page of docs/", n, maxREADMELines)
	}
}

// TestCIRunsTheREADMEsTestCommand checks that the command the README gives
// for the tests is the one CI runs.
func TestCIRunsTheREADMEsTestCommand(t *testing.T) {
	if !strings.Contains(read(t, "README.md"), "\n"+testCommand+" ") {
		t.Errorf("README.md does not give the test command %q", testCommand)
	}
	if !strings.Contains(read(t, ".ci/run"), "\n"+testCommand+"\n") {
		t.Errorf(".ci/run does not run the README's test command %q", testCommand)
	}
}

// TestComposeMatchesTheDocumentedConnection checks that the connection
// string that docs/operations.md gives for compose.yaml names the user,
// password, database and port that compose.yaml sets up.
func TestComposeMatchesTheDocumentedConnection(t *testing.T) {
	compose := read(t, "compose.yaml")
	setting := func(key string) string {
		m := regexp.MustCompile(`(?m)^\s+` + key + `: (\S+)$`).FindStringSubmatch(compose)
		if m == nil {
			t.Fatalf("compose.yaml sets no %s", key)
		}
		return m[1]
	}
	port := regexp.MustCompile(`"127\.0\.0\.1:(\d+):5432"`).FindStringSubmatch(compose)
	if port == nil {
		t.Fatal("compose.yaml publishes no port on 127.0.0.1")
	}
	want := "postgres://" + setting("POSTGRES_USER") + ":" + setting("POSTGRES_PASSWORD") + "@127.0.0.1:" + port[1] + "/" + setting("POSTGRES_DB")
	for _, page := range []string{"docs/operations.md", "compose.yaml"} {
		if !strings.Contains(read(t, page), want) {
			t.Errorf("%s does not give the connection string of compose.yaml, %s", page, want)
		}
	}
}

// requiredConfigFields are the fields of issuefields.Config without a
// default, which behaviour.md names in its text rather than in the table of
// defaults.
var requiredConfigFields = []string{"Store", "Verifier"}

// TestBehaviourDocListsEveryConfigField checks that the table of defaults of
// docs/behaviour.md has a row for every optional field of
// issuefields.Config.
func TestBehaviourDocListsEveryConfigField(t *testing.T) {
	pkgs, err := parser.ParseDir(token.NewFileSet(), "..", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	doc := read(t, "docs/behaviour.md")
	found := false
	for _, f := range pkgs["issuefields"].Files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || ts.Name.Name != "Config" {
				return true
			}
			found = true
			for _, field := range ts.Type.(*ast.StructType).Fields.List {
				for _, name := range field.Names {
					if !name.IsExported() || slices.Contains(requiredConfigFields, name.Name) {
						continue
					}
					if !strings.Contains(doc, "\n| `"+name.Name+"` |") {
						t.Errorf("docs/behaviour.md has no row for Config.%s in its table of defaults", name.Name)
					}
				}
			}
			return false
		})
	}
	if !found {
		t.Fatal("package issuefields has no type Config")
	}
}
