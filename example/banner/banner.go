package banner

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/datafile"
)

// Data is what a server serves: a data file, the store that serves it, and
// the file's tokens and repositories over that store.
type Data struct {
	// Name is the name of the data file as the command line gave it, or ""
	// for the built-in demo data.
	Name  string
	File  *datafile.File
	Store issuefields.Store
	*datafile.Loaded
	// Loading says how the file's data reached the store.
	Loading Loading
}

// A Loading says how a data file's data reached the store that serves it.
type Loading int

const (
	// InMemory says that the file was loaded into a new in-memory store, as
	// at every start of go run ./example.
	InMemory Loading = iota
	// IntoEmpty says that the file was loaded into a store that was empty.
	IntoEmpty
	// NotLoaded says that the store was not empty, so that it serves what
	// it held, with the file's tokens.
	NotLoaded
)

// stopLine is the last line of the start-up message.
const stopLine = "Stop the server with Ctrl-C."

// Print writes the start-up message: the data that d serves, its tokens and
// what each may do, and curl commands to try against base, the server's
// address and mount prefix (without a trailing slash). vendor is the word of
// the API's header names. certFile is the file of -tls-cert, which the curl
// commands trust, or "". When the store held data of its own, which the data
// file does not describe, it shows only the tokens. Every name of the data
// file is shown as shown escapes it.
func Print(ctx context.Context, w io.Writer, base, vendor, certFile string, d *Data) error {
	now := time.Now()
	p, err := newProber(ctx, d)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\n%s\n", shown(headline(d)))
	if d.Loading != NotLoaded {
		printData(tw, d)
	}
	fmt.Fprintf(tw, "\nTokens (send one as \"Authorization: Bearer TOKEN\"):\n")
	for _, td := range d.File.Tokens {
		for i, line := range p.abilities(td.Token, d.Tokens, d.Repositories, d.File.Organizations, now) {
			if i == 0 {
				row(tw, td.Token, td.Kind, td.Login, line)
			} else {
				row(tw, "", "", "", line)
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if d.Loading != NotLoaded {
		token, exs := d.examples(p)
		if len(exs) > 0 {
			fmt.Fprintf(w, "\nTry it from another terminal (each command expects the status it names, when run in order):\n")
		}
		for _, ex := range exs {
			fmt.Fprintf(w, "  # %s (expect %d)\n  %s\n", shown(ex.comment), ex.want, shown(curl(base, vendor, certFile, token, ex)))
		}
	}
	_, err = fmt.Fprintf(w, "\n%s\n", stopLine)
	return err
}

// headline says what the server serves, and whence.
func headline(d *Data) string {
	if d.Name == "" {
		switch d.Loading {
		case IntoEmpty:
			return "The store was empty: loaded the built-in demo data into it (-data FILE loads your own)."
		case NotLoaded:
			return "The store was not empty, so the built-in demo data was not loaded: serving what the store holds, with the demo data's tokens."
		}
		return "Serving the built-in demo data (-data FILE serves your own)."
	}
	switch d.Loading {
	case IntoEmpty:
		return "The store was empty: loaded the data of " + d.Name + " into it."
	case NotLoaded:
		return "The store was not empty, so the data of " + d.Name + " was not loaded: serving what the store holds, with the tokens of " + d.Name + "."
	}
	return "Serving the data of " + d.Name + "."
}

// printData writes the organizations and repositories of d's data file, as
// the store knows them.
func printData(w io.Writer, d *Data) {
	for _, o := range d.File.Organizations {
		fmt.Fprintf(w, "\nIssue fields of organization %s:\n", shown(o.Login))
		for _, f := range o.Fields {
			kind := f.DataType
			if len(f.Options) > 0 {
				names := make([]string, len(f.Options))
				for i, opt := range f.Options {
					names[i] = opt.Name
				}
				kind += " (" + strings.Join(names, ", ") + ")"
			}
			row(w, strconv.FormatInt(f.ID, 10), f.Name, kind)
		}
	}
	fmt.Fprintf(w, "\nRepositories:\n")
	for i, rd := range d.File.Repositories {
		repo := d.Repositories[i]
		row(w, repo.Owner+"/"+repo.Name, visibility(repo), issueSummary(rd))
	}
}

// visibility says whether repo is public or private.
func visibility(repo issuefields.Repository) string {
	if repo.Private {
		return "private"
	}
	return "public"
}

// issueSummary describes the issues of rd and its former names in a line.
func issueSummary(rd datafile.Repository) string {
	var live []string
	var parts []string
	for _, is := range rd.Issues {
		switch {
		case is.Deleted:
			parts = append(parts, fmt.Sprintf("#%d deleted", is.Number))
		case is.TransferredTo != nil:
			to := is.TransferredTo
			parts = append(parts, fmt.Sprintf("#%d transferred to %s/%s#%d", is.Number, to.Owner, to.Name, to.Number))
		default:
			live = append(live, fmt.Sprintf("#%d", is.Number))
		}
	}
	if len(live) > 0 {
		parts = append([]string{"issues " + strings.Join(live, ", ")}, parts...)
	}
	for _, name := range rd.FormerNames() {
		parts = append(parts, "formerly "+name)
	}
	return strings.Join(parts, "; ")
}

// curl returns the curl command of ex against base with token, trusting the
// certificate in certFile unless it is "".
func curl(base, vendor, certFile, token string, ex example) string {
	args := []string{"curl", "-sS"}
	if certFile != "" {
		if abs, err := filepath.Abs(certFile); err == nil {
			certFile = abs
		}
		args = append(args, "--cacert", shellQuote(certFile))
	}
	if ex.headers {
		args = append(args, "-i")
	}
	if ex.method != http.MethodGet {
		args = append(args, "-X", ex.method)
	}
	args = append(args, shellQuote(base+ex.path),
		"-H", shellQuote("Authorization: Bearer "+token),
		"-H", shellQuote("X-"+vendor+"-Api-Version: "+issuefields.APIVersion))
	if ex.body != "" {
		args = append(args, "-d", shellQuote(ex.body))
	}
	return strings.Join(args, " ")
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
