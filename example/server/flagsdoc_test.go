package server

import (
	"flag"
	"io"
	"os"
	"regexp"
	"testing"
)

// flagRow matches a row of the flag table of docs/operations.md, capturing
// the flag's name and its default as the table gives it.
var flagRow = regexp.MustCompile("(?m)^\\| `-([a-z-]+)` \\| ([^|]+?) \\|")

// TestOperationsDocListsEveryFlag checks that the flag table of
// docs/operations.md has every flag of the server, with the default that -h
// shows ("none" for an empty one), and no flag the server does not have.
func TestOperationsDocListsEveryFlag(t *testing.T) {
	var fs *flag.FlagSet
	c := Command{Flags: func(f *flag.FlagSet) { fs = f }}
	if _, err := c.parseFlags(nil, io.Discard); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]string{}
	for _, m := range flagRow.FindAllStringSubmatch(string(doc), -1) {
		documented[m[1]] = m[2]
	}
	fs.VisitAll(func(f *flag.Flag) {
		want := "none"
		if f.DefValue != "" {
			want = "`" + f.DefValue + "`"
		}
		got, ok := documented[f.Name]
		switch {
		case !ok:
			t.Errorf("docs/operations.md does not list -%s", f.Name)
		case got != want:
			t.Errorf("docs/operations.md gives -%s the default %s, -h %s", f.Name, got, want)
		}
		delete(documented, f.Name)
	})
	for name := range documented {
		t.Errorf("docs/operations.md lists -%s, which the server does not have", name)
	}
}
