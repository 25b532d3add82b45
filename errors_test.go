package issuefields_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// faultyStore is a memstore whose method named failing returns err instead
// of doing its work.
type faultyStore struct {
	*memstore.Store
	failing string
	err     error
	calls   atomic.Int64 // calls of the failing method
}

func (s *faultyStore) fail(method string) bool {
	if method != s.failing {
		return false
	}
	s.calls.Add(1)
	return true
}

func (s *faultyStore) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	if s.fail("Snapshot") {
		return issuefields.Snapshot{}, s.err
	}
	return s.Store.Snapshot(ctx, owner, name, number)
}

func (s *faultyStore) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	if s.fail("UpdateIssue") {
		return "", s.err
	}
	return s.Store.UpdateIssue(ctx, snap, next)
}

// Store errors whose text must never reach a client.
var (
	errStoreDown   = fmt.Errorf("dial tcp 10.9.8.7:5432: connection refused: %w", issuefields.ErrUnavailable)
	errStoreBroken = errors.New("pq: relation \"issue_values_secret\" does not exist")
)

// logLines returns the JSON lines of log that carry request_id id.
func logLines(t testing.TB, log *bytes.Buffer, id string) []string {
	t.Helper()
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(log.Bytes()))
	for sc.Scan() {
		var line struct {
			RequestID string `json:"request_id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("log line is not JSON: %v: %s", err, sc.Text())
		}
		if line.RequestID == id {
			lines = append(lines, sc.Text())
		}
	}
	return lines
}

// TestStoreFailures checks that a store that is unavailable gives 503 with
// Retry-After, that any other store error gives a 500 that does not show it,
// that both are logged with the request id, and that nothing changes.
func TestStoreFailures(t *testing.T) {
	type request struct{ method, suffix, body string }
	get := request{"GET", "", ""}
	post := request{"POST", "", writeBody(fieldItem(notesID, `"changed"`))}
	put := request{"PUT", "", writeBody(fieldItem(estimateID, `1`))}
	del := request{"DELETE", "/" + itoa(dueID), ""}
	methods := map[string][]request{
		"Snapshot":    {get},
		"UpdateIssue": {post, put, del},
	}
	for _, method := range slices.Sorted(maps.Keys(methods)) {
		for _, storeErr := range []error{errStoreDown, errStoreBroken} {
			for _, rq := range methods[method] {
				t.Run(fmt.Sprintf("%s/%v/%s", method, errors.Is(storeErr, issuefields.ErrUnavailable), rq.method), func(t *testing.T) {
					s := &faultyStore{Store: newFixtureStore(t), failing: method, err: storeErr}
					var log bytes.Buffer
					h := newConfiguredHandler(t, issuefields.Config{Store: s, Logger: slog.New(slog.NewJSONHandler(&log, nil))})
					key := issueAt(org, publicRepo, 1)
					before, version := readStored(t, s.Store, key)

					r := do(t, h, rq.method, valuesPath(org, publicRepo, 1)+rq.suffix, writerToken, rq.body)

					if s.calls.Load() == 0 {
						t.Fatalf("the request did not reach %s: %d %s", method, r.status, r.body)
					}
					var e errorResponse
					r.json(t, &e)
					if errors.Is(storeErr, issuefields.ErrUnavailable) {
						retry, err := strconv.Atoi(r.header.Get("Retry-After"))
						if r.status != http.StatusServiceUnavailable || e.Code != "service_unavailable" || e.Status != "503" || err != nil || retry < 1 {
							t.Errorf("%d, Retry-After %q, body %s; want 503 service_unavailable with Retry-After", r.status, r.header.Get("Retry-After"), r.body)
						}
					} else if r.status != http.StatusInternalServerError || e.Status != "500" || e.Message == "" {
						t.Errorf("%d %s, want 500", r.status, r.body)
					}
					for _, secret := range []string{"10.9.8.7", "issue_values_secret", "pq:", "dial tcp"} {
						if strings.Contains(r.body, secret) {
							t.Errorf("the answer shows the store's error: %s", r.body)
						}
					}
					id := r.header.Get("X-Service-Request-Id")
					if lines := logLines(t, &log, id); !slices.ContainsFunc(lines, func(l string) bool {
						return strings.Contains(l, strings.ReplaceAll(storeErr.Error(), `"`, `\"`))
					}) {
						t.Errorf("no log line with request id %q shows the cause %q:\n%s", id, storeErr, log.String())
					}
					if after, afterVersion := readStored(t, s.Store, key); afterVersion != version {
						t.Errorf("the store changed: %+v became %+v", before, after)
					}
				})
			}
		}
	}
}

// TestErrorBodyShape checks the members of every kind of error body.
func TestErrorBodyShape(t *testing.T) {
	values := valuesPath(org, publicRepo, 1)
	cases := []struct {
		name, method, target, body string
		header                     []string
		anonymous                  bool
		failing                    string // the store method that fails, with errStoreBroken or errStoreDown
		storeErr                   error
		status                     int
		extra                      []string // members besides message, documentation_url and status
	}{
		{name: "bad JSON", method: "POST", target: values, body: "{", status: 400},
		{name: "unsupported version", method: "GET", target: values, header: []string{"X-Service-Api-Version", "2000-01-01"}, status: 400},
		{name: "requires authentication", method: "POST", target: values, body: writeBody(), anonymous: true, status: 401},
		{name: "not found", method: "GET", target: valuesPath(org, "nothing", 1), status: 404},
		{name: "unknown path", method: "GET", target: "/nowhere", status: 404},
		{name: "method not allowed", method: "PATCH", target: values, status: 405},
		{name: "deleted issue", method: "GET", target: valuesPath(org, publicRepo, 3), status: 410},
		{name: "validation", method: "POST", target: values, body: writeBody(fieldItem(99, "1")), status: 422, extra: []string{"errors"}},
		{name: "moved", method: "GET", target: valuesPath(org, "old-name", 1), status: 301, extra: []string{"url"}},
		{name: "moved, write", method: "PUT", target: valuesPath(org, "old-name", 1), body: writeBody(), status: 307, extra: []string{"url"}},
		{name: "unavailable", method: "GET", target: values, failing: "Snapshot", storeErr: errStoreDown, status: 503, extra: []string{"code"}},
		{name: "internal", method: "GET", target: values, failing: "Snapshot", storeErr: errStoreBroken, status: 500},
	}
	for _, docURL := range []string{"", "https://docs.example.test/issue-field-values"} {
		for _, tc := range cases {
			t.Run(tc.name+"/"+docURL, func(t *testing.T) {
				s := &faultyStore{Store: newFixtureStore(t), failing: tc.failing, err: tc.storeErr}
				h := newConfiguredHandler(t, issuefields.Config{Store: s, DocumentationURL: docURL})
				token := writerToken
				if tc.anonymous {
					token = ""
				}
				r := doWithHeader(t, h, tc.method, tc.target, token, tc.body, tc.header...)
				if r.status != tc.status {
					t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
				}
				if ct := r.header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
					t.Errorf("Content-Type %q", ct)
				}
				var body map[string]any
				r.json(t, &body)
				want := append([]string{"documentation_url", "message", "status"}, tc.extra...)
				slices.Sort(want)
				if got := slices.Sorted(maps.Keys(body)); !cmp.Equal(want, got) {
					t.Errorf("members %v, want %v: %s", got, want, r.body)
				}
				for _, member := range []string{"message", "documentation_url", "status"} {
					if s, ok := body[member].(string); !ok || s == "" {
						t.Errorf("%s is %#v, want a non-empty string", member, body[member])
					}
				}
				if body["status"] != strconv.Itoa(tc.status) {
					t.Errorf("status member %#v, want %q", body["status"], strconv.Itoa(tc.status))
				}
				wantDoc := docURL
				if wantDoc == "" {
					wantDoc = "https://docs.github.com/rest/issues/issue-field-values"
				}
				if doc, _ := body["documentation_url"].(string); !strings.HasPrefix(doc, wantDoc) {
					t.Errorf("documentation_url %q, want %q or an anchor in it", doc, wantDoc)
				}
				for _, internal := range []string{"issuefields:", "memstore", "Bearer", writerToken, "goroutine", ".go:"} {
					if strings.Contains(r.body, internal) {
						t.Errorf("the answer shows %q: %s", internal, r.body)
					}
				}
			})
		}
	}
}
