package server

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/datafile"
	"github.com/issuefields/issuefields/memstore"
)

// fakeStore is a memstore.Store that says whether it is empty, as a store
// that keeps its data between starts does.
type fakeStore struct {
	*memstore.Store
	empty    bool
	emptyErr error // the error of IsEmpty
}

// newFakeStore returns an empty memstore.Store whose IsEmpty reports empty.
func newFakeStore(empty bool) *fakeStore {
	return &fakeStore{Store: memstore.New(), empty: empty}
}

func (s *fakeStore) IsEmpty(context.Context) (bool, error) {
	return s.empty, s.emptyErr
}

// served returns s, a memstore.Store or a store that embeds one, as the
// server serves it: with the memstore's Hooks.
func served(s datafile.Store) Store {
	return Store{Data: s, Hooks: s.(interface{ Hooks() *memstore.Hooks }).Hooks()}
}

// opening returns a command whose Open opens s (see served), and whose
// function that closes s counts its calls in closed, if closed is not nil.
func opening(s datafile.Store, closed *atomic.Int32) Command {
	return Command{Open: func(context.Context, *slog.Logger) (Store, func(), error) {
		return served(s), func() {
			if closed != nil {
				closed.Add(1)
			}
		}, nil
	}}
}

// TestOpenLoadsAnEmptyStore checks that the data goes into the store that
// Open opens when it is empty, and that the store is closed after the stop.
func TestOpenLoadsAnEmptyStore(t *testing.T) {
	store := newFakeStore(true)
	var closed atomic.Int32
	s := startCommand(t, opening(store, &closed))
	if want := "The store was empty: loaded the built-in demo data into it (-data FILE loads your own)."; !strings.Contains(strings.Join(s.message, "\n"), want) {
		t.Errorf("the start-up message does not say %q:\n%s", want, strings.Join(s.message, "\n"))
	}
	if _, err := store.Snapshot(context.Background(), "octo-org", "roadmap", 1); err != nil {
		t.Errorf("the opened store does not have the demo data's octo-org/roadmap: %v", err)
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	if n := closed.Load(); n != 1 {
		t.Errorf("the store was closed %d times, want once", n)
	}
	if logs := s.logs.String(); !strings.Contains(logs, "loaded the data file into the empty store") {
		t.Errorf("the log does not say that the data was loaded:\n%s", logs)
	}
}

// TestOpenServesAStoreThatIsNotEmpty checks that a store that is not empty is
// served as it is, with the tokens of the data file following its
// repositories by name to their IDs in the store.
func TestOpenServesAStoreThatIsNotEmpty(t *testing.T) {
	store := newFakeStore(false)
	// acme/tools takes the ID that octo-org/hello-world has in the demo
	// data, so that a token whose permissions kept their IDs would see it.
	if err := store.AddOrganization("octo-org"); err != nil {
		t.Fatal(err)
	}
	if err := store.AddField("octo-org", issuefields.Field{ID: 40, Name: "Owner team", DataType: issuefields.DataTypeText}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"acme/tools", "octo-org/hello-world"} {
		owner, repo, _ := strings.Cut(name, "/")
		if _, err := store.AddRepository(owner, repo, true); err != nil {
			t.Fatal(err)
		}
		if err := store.AddIssue(owner, repo, 1); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.SetValues("octo-org", "hello-world", 1, []issuefields.Value{{FieldID: 40, Text: "Platform"}}); err != nil {
		t.Fatal(err)
	}

	s := startCommand(t, opening(store, nil))
	message := strings.Join(s.message, "\n")
	if want := "The store was not empty, so the built-in demo data was not loaded: serving what the store holds, with the demo data's tokens."; !strings.Contains(message, want) {
		t.Errorf("the start-up message does not say %q:\n%s", want, message)
	}
	if strings.Contains(message, "curl") || strings.Contains(message, "Repositories:") {
		t.Errorf("the start-up message describes the demo data, which the store does not hold:\n%s", message)
	}
	if !strings.Contains(message, "list and write: octo-org/hello-world\n") {
		t.Errorf("the start-up message does not say that demo-writer-token may write to octo-org/hello-world alone:\n%s", message)
	}

	hello := s.base + "repos/octo-org/hello-world/issues/1/issue-field-values"
	if status, body := do(t, http.MethodGet, hello, "demo-reader-token", ""); status != http.StatusOK || !strings.Contains(body, `"value":"Platform"`) {
		t.Errorf("GET octo-org/hello-world#1 = %d %s, want 200 with the store's value", status, body)
	}
	if status, body := do(t, http.MethodPost, hello, "demo-writer-token", `{"issue_field_values": [{"field_id": 40, "value": "Docs"}]}`); status != http.StatusOK {
		t.Errorf("POST octo-org/hello-world#1 with the demo writer's token = %d %s, want 200", status, body)
	}
	for _, repo := range []string{"acme/tools", "octo-org/roadmap"} {
		if status, body := do(t, http.MethodGet, s.base+"repos/"+repo+"/issues/1/issue-field-values", "demo-writer-token", ""); status != http.StatusNotFound {
			t.Errorf("GET %s#1 with the demo writer's token = %d %s, want 404", repo, status, body)
		}
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	logs := s.logs.String()
	for _, want := range []string{"the store is not empty: serving what it holds", `repositories="[octo-org/roadmap octo-org/handbook]"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log does not say %s:\n%s", want, logs)
		}
	}
}

// seedFailure is the error of failingStore's AddIssue.
var seedFailure = errors.New("the disk is full")

// failingStore is a store whose AddIssue fails.
type failingStore struct{ *fakeStore }

func (failingStore) AddIssue(string, string, int64) error { return seedFailure }

// failingLoad is a store that loads all or nothing (LoadIfEmpty), whose
// AddIssue fails.
type failingLoad struct{ failingStore }

func (s failingLoad) LoadIfEmpty(ctx context.Context, load func(ctx context.Context, into Store) error) (bool, error) {
	return true, load(ctx, served(s.failingStore))
}

// TestOpenFailures checks that the failures of the store that Open opens
// stop the start with an error that says what failed, and that the store is
// closed.
func TestOpenFailures(t *testing.T) {
	openFailure := errors.New("no such database")
	unknown := newFakeStore(false)
	unknown.emptyErr = errors.New("connection refused")
	for _, tt := range []struct {
		name    string
		store   datafile.Store // nil: Open fails with openFailure
		want    string
		wantErr error
		closed  int32
	}{
		{"Open fails", nil, "no such database", openFailure, 0},
		{"IsEmpty fails", unknown, "cannot tell whether the store is empty: connection refused", unknown.emptyErr, 1},
		{"a seed method fails", failingStore{newFakeStore(true)},
			"demo.json: loading into the empty store: repositories[0].issues[0].number: the disk is full; the store may now hold part of the data: empty it before the next start",
			seedFailure, 1},
		{"a seed method fails in a load that is all or nothing", failingLoad{failingStore{newFakeStore(true)}},
			"demo.json: loading into the empty store: repositories[0].issues[0].number: the disk is full; nothing of it was kept, so the next start loads it again",
			seedFailure, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var closed atomic.Int32
			c := opening(tt.store, &closed)
			if tt.store == nil {
				c.Open = func(context.Context, *slog.Logger) (Store, func(), error) { return Store{}, nil, openFailure }
			}
			err := c.Run(context.Background(), []string{"-addr", "127.0.0.1:0"}, io.Discard, io.Discard)
			if err == nil || err.Error() != tt.want || !errors.Is(err, tt.wantErr) {
				t.Errorf("Run = %v, want %s", err, tt.want)
			}
			if n := closed.Load(); n != tt.closed {
				t.Errorf("the store was closed %d times, want %d", n, tt.closed)
			}
		})
	}
}

// TestCommandFlags checks that a command's own flags are parsed with the
// server's, listed by -h under the command's usage, and read by Open.
func TestCommandFlags(t *testing.T) {
	var where string
	c := Command{
		Usage: "go run ./cmd/other",
		Flags: func(fs *flag.FlagSet) { fs.StringVar(&where, "where", "", "`place` of the store") },
		Open: func(context.Context, *slog.Logger) (Store, func(), error) {
			return Store{}, nil, errors.New("cannot open the store at " + where)
		},
	}
	err := c.Run(context.Background(), []string{"-where", "the moon", "-vendor", "GitHub"}, io.Discard, io.Discard)
	if want := "cannot open the store at the moon"; err == nil || err.Error() != want {
		t.Errorf("Run = %v, want %s", err, want)
	}
	var out bytes.Buffer
	if err := c.Run(context.Background(), []string{"-h"}, &out, io.Discard); err != nil {
		t.Fatalf("Run(-h) = %v, want nil", err)
	}
	if help := out.String(); !strings.HasPrefix(help, "Usage: go run ./cmd/other [flags]\n") || !strings.Contains(help, "-where place") || !strings.Contains(help, "-vendor") {
		t.Errorf("help does not show the command's usage, its flag and the server's:\n%s", help)
	}
}

// onceStore is a fakeStore that decides in LoadIfEmpty, which it counts,
// whether to load.
type onceStore struct {
	*fakeStore
	calls atomic.Int32
}

func (s *onceStore) LoadIfEmpty(ctx context.Context, load func(ctx context.Context, into Store) error) (bool, error) {
	s.calls.Add(1)
	if !s.empty {
		return false, nil
	}
	return true, load(ctx, served(s.fakeStore))
}

// TestHowAStoreSaysItIsEmpty checks that Run asks LoadIfEmpty rather than
// IsEmpty when a store has both, and loads a store that has neither.
func TestHowAStoreSaysItIsEmpty(t *testing.T) {
	once := &onceStore{fakeStore: newFakeStore(false)}
	once.emptyErr = errors.New("IsEmpty called")
	for _, tt := range []struct {
		name  string
		store datafile.Store
		want  string
	}{
		{"LoadIfEmpty", once, "The store was not empty"},
		{"neither", memstore.New(), "The store was empty"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := startCommand(t, opening(tt.store, nil))
			if message := strings.Join(s.message, "\n"); !strings.Contains(message, tt.want) {
				t.Errorf("the start-up message does not say %q:\n%s", tt.want, message)
			}
		})
	}
	if n := once.calls.Load(); n != 1 {
		t.Errorf("LoadIfEmpty was called %d times, want once", n)
	}
}
