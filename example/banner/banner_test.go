package banner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/issuefields/issuefields/example/datafile"
	"github.com/issuefields/issuefields/memstore"
)

// demo returns the demo data loaded into a new memstore.Store, as the
// server serves it without -data, with how as the way it was loaded.
func demo(t *testing.T, how Loading) *Data {
	t.Helper()
	return load(t, datafile.Demo(), how)
}

// load returns f loaded into a new memstore.Store, with how as the way it
// was loaded.
func load(t *testing.T, f *datafile.File, how Loading) *Data {
	t.Helper()
	s := memstore.New()
	loaded, err := datafile.Load(context.Background(), f, s)
	if err != nil {
		t.Fatal(err)
	}
	return &Data{File: f, Store: s, Loaded: loaded, Loading: how}
}

// TestPrint checks the parts of the start-up message over the demo data
// (access_test.go checks its tokens): the headline, the data, and curl
// commands against the server's address that trust -tls-cert's file.
func TestPrint(t *testing.T) {
	var out strings.Builder
	if err := Print(context.Background(), &out, "https://127.0.0.1:8443/api", "GitHub", "cert.pem", demo(t, InMemory)); err != nil {
		t.Fatal(err)
	}
	message := out.String()
	cert, err := filepath.Abs("cert.pem")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\nServing the built-in demo data (-data FILE serves your own).\n",
		"\nIssue fields of organization octo-org:\n  1  Priority   single_select (High, Medium, Low)\n",
		"  octo-org/handbook     public   issues #1; formerly octo-org/docs\n",
		"  # List the values of octo-org/hello-world#1 (expect 200)\n  curl -sS --cacert '" + cert + "' 'https://127.0.0.1:8443/api/repos/octo-org/hello-world/issues/1/issue-field-values' -H 'Authorization: Bearer demo-writer-token' -H 'X-GitHub-Api-Version: ",
		"\n\n" + stopLine + "\n",
	} {
		if !strings.Contains(message, want) {
			t.Errorf("the start-up message does not have %q:\n%s", want, message)
		}
	}
	if !strings.HasSuffix(message, stopLine+"\n") {
		t.Errorf("the start-up message does not end with %q:\n%s", stopLine, message)
	}
}

// TestPrintOverAStoreThatWasNotEmpty checks that the message shows only the
// tokens when the store held data of its own.
func TestPrintOverAStoreThatWasNotEmpty(t *testing.T) {
	var out strings.Builder
	if err := Print(context.Background(), &out, "http://127.0.0.1:8080", "Service", "", demo(t, NotLoaded)); err != nil {
		t.Fatal(err)
	}
	message := out.String()
	if !strings.Contains(message, "demo-writer-token") {
		t.Errorf("the start-up message does not show the tokens:\n%s", message)
	}
	for _, unwanted := range []string{"Repositories:", "Issue fields", "curl"} {
		if strings.Contains(message, unwanted) {
			t.Errorf("the start-up message shows %q, which the store may not hold:\n%s", unwanted, message)
		}
	}
}

func TestHeadline(t *testing.T) {
	for _, tt := range []struct {
		name    string
		loading Loading
		want    string
	}{
		{"", InMemory, "Serving the built-in demo data (-data FILE serves your own)."},
		{"data.json", InMemory, "Serving the data of data.json."},
		{"", IntoEmpty, "The store was empty: loaded the built-in demo data into it (-data FILE loads your own)."},
		{"data.json", IntoEmpty, "The store was empty: loaded the data of data.json into it."},
		{"", NotLoaded, "The store was not empty, so the built-in demo data was not loaded: serving what the store holds, with the demo data's tokens."},
		{"data.json", NotLoaded, "The store was not empty, so the data of data.json was not loaded: serving what the store holds, with the tokens of data.json."},
	} {
		if got := headline(&Data{Name: tt.name, Loading: tt.loading}); got != tt.want {
			t.Errorf("headline(%q, %d) = %q, want %q", tt.name, tt.loading, got, tt.want)
		}
	}
}

// TestShellQuote checks that a POSIX shell reads each quoted string as one
// word, the string itself.
func TestShellQuote(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no sh on this machine, and CI runs every test")
		}
		t.Skip("skipped: no sh on this machine")
	}
	for _, s := range []string{"plain", "it's", `{"a": "b c"}`, "''", "", `$HOME \ "*"`} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		out, err := exec.CommandContext(ctx, "sh", "-c", "printf '[%s]' "+shellQuote(s)).Output()
		cancel()
		if want := "[" + s + "]"; err != nil || string(out) != want {
			t.Errorf("sh printed %q (%v) for shellQuote(%q), want %q", out, err, s, want)
		}
	}
}

// TestPrintEscapesWhatNamesHold checks that the start-up message shows the
// names of a data file with their control characters (ESC, CR, LF, tab),
// bidirectional controls and other unprintable characters escaped,
// wherever the message shows them: the headline, an organization's
// heading, fields and options, repositories and what became of their
// issues, tokens, logins, and the curl commands. The names of fields and
// options refuse control and bidirectional characters, but take a line
// separator and a zero-width space; a token that is not visible ASCII is
// refused by the API, so that only the tokens' table shows one.
func TestPrintEscapesWhatNamesHold(t *testing.T) {
	const hostile = "\x1b[2J\r\n\u202e\tz" // clears the screen, starts a line, reverses it
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	org, repo, other := "octo"+hostile+"org", "re"+hostile+"po", "oth"+hostile+"er"
	doc := fmt.Sprintf(`{
  "organizations": [
    {"login": %[1]s, "fields": [{"id": 1, "name": "Summary", "data_type": "text"}]},
    {"login": "octo-org", "fields": [
      {"id": 2, "name": "Pri\u2028ority", "data_type": "single_select", "options": [{"id": 21, "name": "Hi\u200bgh", "color": "red"}]}]}
  ],
  "repositories": [
    {"owner": %[1]s, "name": %[2]s, "renamed_from": [%[4]s], "issues": [
      {"number": 1}, {"number": 2, "transferred_to": {"owner": %[1]s, "name": %[3]s, "number": 3}}, {"number": 4, "deleted": true}]},
    {"owner": %[1]s, "name": %[3]s},
    {"owner": "octo-org", "name": "pla\u202ein", "issues": [{"number": 1}]}
  ],
  "tokens": [
    {"token": %[5]s, "kind": "fine_grained_pat", "login": %[6]s, "repositories": {%[7]s: {"issues": "write", "push": true}}},
    {"token": "writer-token", "kind": "fine_grained_pat", "login": "octo\u2066cat", "repositories": {"octo-org/pla\u202ein": {"issues": "write", "push": true}}}
  ]
}`, q(org), q(repo), q(other), q("ol"+hostile+"d"), q("demo\x1b]0;title\x07\u2067token"), q("us"+hostile+"er"), q(org+"/"+repo))
	name := filepath.Join(t.TempDir(), "hostile.json")
	if err := os.WriteFile(name, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := datafile.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	d := load(t, f, InMemory)
	d.Name = "hostile\r\n.json"
	var out strings.Builder
	if err := Print(context.Background(), &out, "http://127.0.0.1:8080", "Service", "", d); err != nil {
		t.Fatal(err)
	}
	message := out.String()
	for _, r := range message {
		if r != '\n' && (r == unicode.ReplacementChar || !unicode.IsPrint(r)) {
			t.Fatalf("the start-up message holds %U:\n%q", r, message)
		}
	}
	// The lines, with the runs of spaces that align columns made single.
	var lines []string
	for _, line := range strings.Split(message, "\n") {
		lines = append(lines, strings.Join(strings.Fields(line), " "))
		// Each line is a heading or an indented row: a name's line feed
		// would start a line of its own.
		if line != "" && !strings.HasPrefix(line, "  ") && !strings.HasSuffix(line, ":") && !strings.HasSuffix(line, ".") {
			t.Errorf("the start-up message has the line %q, which it does not write", line)
		}
	}
	shown := strings.Join(lines, "\n")
	const escaped = `\x1b[2J\r\n\u202e\tz`
	for _, want := range []string{
		"\nServing the data of hostile\\r\\n.json.\n",
		"\nIssue fields of organization octo" + escaped + "org:\n",
		"\n2 Pri\\u2028ority single_select (Hi\\u200bgh)\n",
		"\nocto" + escaped + "org/re" + escaped + "po public issues #1; #2 transferred to octo" + escaped + "org/oth" + escaped + "er#3; #4 deleted; formerly octo" + escaped + "org/ol" + escaped + "d\n",
		"\ndemo\\x1b]0;title\\a\\u2067token fine_grained_pat us" + escaped + "er ",
		"\nwriter-token fine_grained_pat octo\\u2066cat ",
		"\nlist and write: octo-org/pla\\u202ein\n",
		"\n# List the values of octo-org/pla\\u202ein#1 (expect 200)\n",
		"\ncurl -sS 'http://127.0.0.1:8080/repos/octo-org/pla\\u202ein/issues/1/issue-field-values' -H 'Authorization: Bearer writer-token'",
	} {
		if !strings.Contains(shown, want) {
			t.Errorf("the start-up message does not have %q:\n%s", want, message)
		}
	}
}
