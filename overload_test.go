package issuefields_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// gatedStore is a memstore whose Snapshot waits at a gate until the gate is
// opened. At most capacity calls wait at once; any more go straight through,
// so that a request that should not have reached the store shows as an
// answer instead of a hang.
type gatedStore struct {
	*memstore.Store
	capacity int32
	waiting  atomic.Int32
	entered  chan struct{} // receives once for each call that waits
	gate     chan struct{} // closed to open the gate
}

func newGatedStore(t testing.TB, capacity int) *gatedStore {
	return &gatedStore{Store: newFixtureStore(t), capacity: int32(capacity),
		entered: make(chan struct{}, capacity), gate: make(chan struct{})}
}

func (s *gatedStore) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	select {
	case <-s.gate:
	default:
		if s.waiting.Add(1) <= s.capacity {
			s.entered <- struct{}{}
			<-s.gate
		}
	}
	return s.Store.Snapshot(ctx, owner, name, number)
}

// checkServiceUnavailable fails the test unless r is a 503 with Retry-After
// in whole seconds, the code service_unavailable and a request id.
func checkServiceUnavailable(t testing.TB, r response) {
	t.Helper()
	var e errorResponse
	r.json(t, &e)
	retry, err := strconv.Atoi(r.header.Get("Retry-After"))
	if r.status != http.StatusServiceUnavailable || e.Code != "service_unavailable" || e.Status != "503" || e.Message == "" || err != nil || retry < 1 {
		t.Errorf("%d, Retry-After %q, body %s; want 503 service_unavailable with Retry-After", r.status, r.header.Get("Retry-After"), r.body)
	}
	if r.header.Get("X-Service-Request-Id") == "" {
		t.Error("the 503 has no request id")
	}
}

// TestMaxInFlight checks that a handler serving MaxInFlight requests answers
// any more at once with 503 and Retry-After, without touching the store, and
// serves requests again once those in flight are done.
func TestMaxInFlight(t *testing.T) {
	for _, limit := range []int{1, 3} {
		t.Run(strconv.Itoa(limit), func(t *testing.T) {
			s := newGatedStore(t, limit)
			h := newConfiguredHandler(t, issuefields.Config{Store: s, MaxInFlight: limit})
			path := valuesPath(org, publicRepo, 1)
			key := issueAt(org, publicRepo, 1)
			values, version := readStored(t, s.Store, key)

			held := make(chan response, limit)
			for range limit {
				go func() { held <- do(t, h, "GET", path, writerToken, "") }()
			}
			for range limit {
				<-s.entered
			}

			for _, rq := range []struct{ method, suffix, body string }{
				{"GET", "", ""},
				{"POST", "", writeBody(fieldItem(notesID, `"Shed"`))},
				{"PUT", "", writeBody()},
				{"DELETE", "/" + itoa(notesID), ""},
				{"GET", "/nowhere", ""},
			} {
				r := do(t, h, rq.method, path+rq.suffix, writerToken, rq.body)
				checkServiceUnavailable(t, r)
				if got := r.header["X-Accepted-Service-Permissions"]; len(got) != 1 || got[0] != "" {
					t.Errorf("a shed request: X-Accepted-Service-Permissions %q, want one empty value, as for a request no route matched", got)
				}
			}
			if got, gotVersion := readStored(t, s.Store, key); gotVersion != version || !cmp.Equal(got, values) {
				t.Errorf("a shed request changed the store: %+v became %+v", values, got)
			}
			if n := s.waiting.Load(); n != int32(limit) {
				t.Errorf("the store's Snapshot was called %d times, want %d: a shed request reached the store", n, limit)
			}

			close(s.gate)
			for range limit {
				if r := <-held; r.status != http.StatusOK {
					t.Errorf("a request held in flight: status %d: %s", r.status, r.body)
				}
			}
			if r := do(t, h, "GET", path, writerToken, ""); r.status != http.StatusOK {
				t.Errorf("GET after the requests in flight were done: status %d: %s", r.status, r.body)
			}
			if r := do(t, h, "POST", path, writerToken, writeBody(fieldItem(notesID, `"Served"`))); r.status != http.StatusOK {
				t.Errorf("POST after the requests in flight were done: status %d: %s", r.status, r.body)
			}
		})
	}
}

// panickingStore is a memstore whose method named method panics with
// message while armed.
type panickingStore struct {
	*memstore.Store
	method, message string
	armed           atomic.Bool
}

func (s *panickingStore) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	if s.method == "Snapshot" && s.armed.Load() {
		panic(s.message)
	}
	return s.Store.Snapshot(ctx, owner, name, number)
}

func (s *panickingStore) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	if s.method == "UpdateIssue" && s.armed.Load() {
		panic(fmt.Errorf("%s", s.message))
	}
	return s.Store.UpdateIssue(ctx, snap, next)
}

// Tokens of panickingVerifier.
const (
	panicVerifyToken      = "panic-verify-token"      // VerifyToken panics
	panicPermissionsToken = "panic-permissions-token" // the principal's Permissions panics
)

// panickingVerifier is the fixture's verifier, but for two tokens that
// panic, each with message; VerifyToken's panic quotes the token, as a
// careless verifier's might.
func panickingVerifier(message string) issuefields.TokenVerifier {
	return issuefields.TokenVerifierFunc(func(ctx context.Context, token string) (*issuefields.Principal, error) {
		switch token {
		case panicVerifyToken:
			panic(message + " while verifying " + token)
		case panicPermissionsToken:
			return &issuefields.Principal{Kind: issuefields.FineGrainedPersonalAccessToken, Login: "panicky",
				Permissions: func(context.Context, issuefields.Repository) (issuefields.RepositoryPermissions, error) {
					panic(message)
				}}, nil
		}
		return fixtureVerifier(ctx, token)
	})
}

// TestPanicsAreInternalErrors checks that a panic in a store, a verifier or a
// principal's Permissions is answered with the same generic 500 as any other
// internal failure, with the request id, that it is logged with the request
// id, that it changes nothing, and that the handler goes on serving.
func TestPanicsAreInternalErrors(t *testing.T) {
	issue1 := valuesPath(org, publicRepo, 1)
	tests := []struct {
		name                        string
		storeMethod                 string // the store method that panics, if any
		method, target, token, body string
	}{
		{"Snapshot, list", "Snapshot", "GET", issue1, writerToken, ""},
		{"Snapshot, anonymous list", "Snapshot", "GET", issue1, "", ""},
		{"UpdateIssue, add", "UpdateIssue", "POST", issue1, writerToken, writeBody(fieldItem(notesID, `"x"`))},
		{"UpdateIssue, set", "UpdateIssue", "PUT", issue1, writerToken, writeBody()},
		{"UpdateIssue, delete", "UpdateIssue", "DELETE", issue1 + "/" + itoa(notesID), writerToken, ""},
		{"verifier, list", "", "GET", issue1, panicVerifyToken, ""},
		{"verifier, add", "", "POST", issue1, panicVerifyToken, writeBody(fieldItem(notesID, `"x"`))},
		{"Permissions, list", "", "GET", issue1, panicPermissionsToken, ""},
		{"Permissions, delete", "", "DELETE", issue1 + "/" + itoa(notesID), panicPermissionsToken, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			marker := "panic-marker-" + strings.ReplaceAll(tt.name, ", ", "-")
			var log bytes.Buffer
			s := &panickingStore{Store: newFixtureStore(t), method: tt.storeMethod, message: marker}
			// With room for one request at a time, a request that panicked
			// must give its place back for the next one to be served.
			h := newConfiguredHandler(t, issuefields.Config{Store: s, Verifier: panickingVerifier(marker), MaxInFlight: 1,
				Logger: slog.New(slog.NewJSONHandler(&log, nil))})
			key := issueAt(org, publicRepo, 1)
			values, version := readStored(t, s.Store, key)
			// The generic answer of an internal failure: the fixture's
			// verifier fails for brokenVerifyToken.
			var generic errorResponse
			do(t, h, "GET", issue1, brokenVerifyToken, "").json(t, &generic)

			s.armed.Store(true)
			r := do(t, h, tt.method, tt.target, tt.token, tt.body)
			s.armed.Store(false)

			if r.status != http.StatusInternalServerError {
				t.Fatalf("status %d, want 500: %s", r.status, r.body)
			}
			if ct := r.header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			var e errorResponse
			r.json(t, &e)
			if e.Status != "500" || e.Message == "" || e.Message != generic.Message || e.DocumentationURL == "" {
				t.Errorf("body %s, want the generic message %q", r.body, generic.Message)
			}
			for _, internal := range []string{marker, "panic", "goroutine", ".go:"} {
				if strings.Contains(r.body, internal) {
					t.Errorf("the answer shows %q: %s", internal, r.body)
				}
			}
			if etag := r.header.Get("ETag"); etag != "" {
				t.Errorf("the 500 carries ETag %q", etag)
			}
			id := r.header.Get("X-Service-Request-Id")
			if id == "" {
				t.Error("the 500 has no request id")
			}
			if lines := logLines(t, &log, id); !containsAny(lines, marker) {
				t.Errorf("no log line with request id %q shows the panic %q:\n%s", id, marker, log.String())
			}
			if tt.token != "" && strings.Contains(log.String(), tt.token) {
				t.Errorf("the log shows the token %q:\n%s", tt.token, log.String())
			}
			if got, gotVersion := readStored(t, s.Store, key); gotVersion != version || !cmp.Equal(got, values) {
				t.Errorf("the store changed: %+v became %+v", values, got)
			}

			if next := do(t, h, "GET", issue1, writerToken, ""); next.status != http.StatusOK {
				t.Errorf("the next list: status %d: %s", next.status, next.body)
			}
			if next := do(t, h, "POST", issue1, writerToken, writeBody(fieldItem(notesID, `"After the panic"`))); next.status != http.StatusOK {
				t.Errorf("the next add: status %d: %s", next.status, next.body)
			}
		})
	}
}

// TestPanicsOverARealConnection checks, through a real server, that a panic
// in the store answers the client with a 500 rather than a dropped
// connection, and that the server goes on serving.
func TestPanicsOverARealConnection(t *testing.T) {
	s := &panickingStore{Store: newFixtureStore(t), method: "Snapshot", message: "store exploded"}
	srv := httptest.NewServer(newConfiguredHandler(t, issuefields.Config{Store: s}))
	defer srv.Close()
	get := func() (int, error) {
		resp, err := srv.Client().Get(srv.URL + valuesPath(org, publicRepo, 1))
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		_, err = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, err
	}
	s.armed.Store(true)
	if status, err := get(); err != nil || status != http.StatusInternalServerError {
		t.Errorf("with a panicking store: status %d, error %v; want 500", status, err)
	}
	s.armed.Store(false)
	if status, err := get(); err != nil || status != http.StatusOK {
		t.Errorf("after: status %d, error %v; want 200", status, err)
	}
}
