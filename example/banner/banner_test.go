package banner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
