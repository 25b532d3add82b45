package server

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// notStoreInterfaces are the interfaces of package issuefields that are not
// a Store's: timed need not pass them through.
var notStoreInterfaces = []string{"TokenVerifier", "Notifier", "RequestLogHandler"}

// timedInterfaces are the interfaces of package issuefields that timed
// passes through.
var timedInterfaces = []string{"Store", "FieldManager", "Snapshotter", "SnapshotKeeper", "Updater"}

// TestTimedPassesThroughEveryStoreInterface reads the interfaces that
// package issuefields declares, so that a new optional interface of a Store
// fails here until timed passes it through: a wrapper that hid it would
// change what the handler does under -debug-addr.
func TestTimedPassesThroughEveryStoreInterface(t *testing.T) {
	pkgs, err := parser.ParseDir(token.NewFileSet(), "../..", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, f := range pkgs["issuefields"].Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.IsExported() {
				if _, ok := ts.Type.(*ast.InterfaceType); ok && !slices.Contains(notStoreInterfaces, ts.Name.Name) {
					found = append(found, ts.Name.Name)
				}
			}
			return true
		})
	}
	slices.Sort(found)
	want := slices.Sorted(slices.Values(timedInterfaces))
	if !slices.Equal(found, want) {
		t.Errorf("package issuefields declares the store interfaces %v; timed (timedstore.go) passes through %v: a store behind -debug-addr would lose the others", found, want)
	}
}

// TestTimedChangesNoAnswer serves the same requests from a handler over a
// store and over the store timed, and compares the answers.
func TestTimedChangesNoAnswer(t *testing.T) {
	newHandler := func(wrap func(issuefields.Store) issuefields.Store) http.Handler {
		d, err := load(demoData)
		if err != nil {
			t.Fatal(err)
		}
		h, err := issuefields.New(issuefields.Config{Store: wrap(d.store), Verifier: d.tokens, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	plain := newHandler(func(s issuefields.Store) issuefields.Store { return s })
	m := newMetrics()
	timedHandler := newHandler(func(s issuefields.Store) issuefields.Store { return timed(s, m) })

	for _, req := range []struct{ method, path, token, body string }{
		{"GET", "/repos/octo-org/hello-world/issues/1/issue-field-values", "", ""},
		{"GET", "/repos/octo-org/roadmap/issues/1/issue-field-values", "demo-outsider-token", ""},
		{"POST", "/repos/octo-org/hello-world/issues/3/issue-field-values", "demo-writer-token", `{"issue_field_values":[{"field_id":2,"value":8}]}`},
		{"PUT", "/repos/octo-org/hello-world/issues/3/issue-field-values", "demo-writer-token", `{"issue_field_values":[{"field_id":4,"value":"x"}]}`},
		{"POST", "/repos/octo-org/hello-world/issues/3/issue-field-values", "demo-writer-token", `{"issue_field_values":[{"field_id":9,"value":8}]}`},
		{"DELETE", "/repos/octo-org/hello-world/issues/3/issue-field-values/4", "demo-writer-token", ""},
		{"GET", "/repos/octo-org/hello-world/issues/4/issue-field-values", "", ""},
		{"GET", "/repos/octo-org/hello-world/issues/5/issue-field-values", "", ""},
		{"GET", "/repos/octo-org/docs/issues/1/issue-field-values", "", ""},
		{"GET", "/repos/octo-org/hello-world/issues/3/issue-field-values", "", ""},
	} {
		serve := func(h http.Handler) *httptest.ResponseRecorder {
			r := httptest.NewRequest(req.method, req.path, strings.NewReader(req.body))
			r.Header.Set("X-Service-Api-Version", issuefields.DefaultAPIVersion)
			if req.token != "" {
				r.Header.Set("Authorization", "Bearer "+req.token)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			w.Header().Del("X-Service-Request-Id")
			// Two stores never give the same ETag, so only whether
			// there is one is compared.
			if w.Header().Get("Etag") != "" {
				w.Header().Set("Etag", "present")
			}
			return w
		}
		want, got := serve(plain), serve(timedHandler)
		if want.Code != got.Code || want.Body.String() != got.Body.String() || !cmp.Equal(want.Header(), got.Header()) {
			t.Errorf("%s %s: timed answers %d %v %s; the store alone %d %v %s",
				req.method, req.path, got.Code, got.Header(), got.Body, want.Code, want.Header(), want.Body)
		}
	}
	if n := m.storeCalls.Get("CompareAndSwap"); n == nil || n.String() == "0" {
		t.Errorf("timed counted no CompareAndSwap")
	}
}

// TestTimedHasTheOptionalInterfacesOfItsStore checks each optional
// interface on a store that has it and on one that does not.
func TestTimedHasTheOptionalInterfacesOfItsStore(t *testing.T) {
	full := memstore.New()
	bare := struct{ issuefields.Store }{full}
	for _, tc := range []struct {
		name  string
		check func(issuefields.Store) bool
	}{
		{"FieldManager", func(s issuefields.Store) bool { _, ok := s.(issuefields.FieldManager); return ok }},
	} {
		if !tc.check(full) || tc.check(bare) {
			t.Fatalf("the test's stores: memstore has %s %v, the bare store %v", tc.name, tc.check(full), tc.check(bare))
		}
		if !tc.check(timed(full, newMetrics())) {
			t.Errorf("timed hides the %s of its store", tc.name)
		}
		if tc.check(timed(bare, newMetrics())) {
			t.Errorf("timed claims a %s its store does not have", tc.name)
		}
	}
}

// keepingStore is a memstore that claims the Snapshotter and SnapshotKeeper
// interfaces, for TestTimedKeepsTheSnapshotKeeper; it serves no snapshot.
type keepingStore struct{ *memstore.Store }

func (keepingStore) Snapshot(context.Context, string, string, int64) (issuefields.Snapshot, error) {
	return issuefields.Snapshot{}, issuefields.ErrUnavailable
}

func (keepingStore) KeptSnapshot(string, string, int64) (issuefields.Snapshot, any, bool) {
	return issuefields.Snapshot{}, nil, false
}

func (keepingStore) SwapIfCurrent(context.Context, any, []issuefields.Value) (issuefields.Version, error) {
	return "", issuefields.ErrVersionConflict
}

// TestTimedKeepsTheSnapshotKeeper checks that timed passes a store's
// SnapshotKeeper through with its Snapshotter and its other interfaces.
func TestTimedKeepsTheSnapshotKeeper(t *testing.T) {
	s := timed(keepingStore{memstore.New()}, newMetrics())
	_, isKp := s.(issuefields.SnapshotKeeper)
	_, isSn := s.(issuefields.Snapshotter)
	_, isFM := s.(issuefields.FieldManager)
	if !isKp || !isSn || !isFM {
		t.Errorf("timed of a FieldManager, Snapshotter and SnapshotKeeper: FieldManager %v, Snapshotter %v, SnapshotKeeper %v; want all",
			isFM, isSn, isKp)
	}
	if _, ok := timed(memstore.New(), newMetrics()).(issuefields.SnapshotKeeper); ok {
		t.Errorf("timed claims a SnapshotKeeper that memstore does not have")
	}
}
