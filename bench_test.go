package issuefields_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// The benchmark's organization has ten fields, two of each data type, and its
// issue 1 a value of each: a list of about 1.6 KB.
const benchOrg, benchRepo = "bench-org", "bench-repo"

var benchFields = func() []issuefields.Field {
	opts := func(base int64, names ...string) []issuefields.FieldOption {
		o := make([]issuefields.FieldOption, len(names))
		for i, n := range names {
			o[i] = issuefields.FieldOption{ID: base + int64(i), Name: n, Color: "blue"}
		}
		return o
	}
	return []issuefields.Field{
		{ID: 1, Name: "Summary", DataType: issuefields.DataTypeText},
		{ID: 2, Name: "Owner team", DataType: issuefields.DataTypeText},
		{ID: 3, Name: "Priority", DataType: issuefields.DataTypeSingleSelect, Options: opts(30, "Urgent", "High", "Medium", "Low")},
		{ID: 4, Name: "Size", DataType: issuefields.DataTypeSingleSelect, Options: opts(40, "S", "M", "L", "XL")},
		{ID: 5, Name: "Estimate", DataType: issuefields.DataTypeNumber},
		{ID: 6, Name: "Spent", DataType: issuefields.DataTypeNumber},
		{ID: 7, Name: "Due date", DataType: issuefields.DataTypeDate},
		{ID: 8, Name: "Start date", DataType: issuefields.DataTypeDate},
		{ID: 9, Name: "Platforms", DataType: issuefields.DataTypeMultiSelect, Options: opts(90, "Linux", "macOS", "Windows", "Android")},
		{ID: 10, Name: "Components", DataType: issuefields.DataTypeMultiSelect, Options: opts(100, "API", "Web", "CLI", "Docs")},
	}
}()

// benchBody writes ten values, one per field, in the request format.
const benchBody = `{"issue_field_values":[` +
	`{"field_id":1,"value":"Crash when saving a draft with an attachment"},{"field_id":2,"value":"Editor experience"},` +
	`{"field_id":3,"value":"High"},{"field_id":4,"value":"M"},{"field_id":5,"value":5},{"field_id":6,"value":2.5},` +
	`{"field_id":7,"value":"2025-12-25"},{"field_id":8,"value":"2025-11-03"},` +
	`{"field_id":9,"value":["Linux","Windows"]},{"field_id":10,"value":["API","Web","Docs"]}]}`

// benchPrincipal may write everywhere; the verifier returns it as a host that
// caches its principals would.
var benchPrincipal = &issuefields.Principal{
	Kind: issuefields.FineGrainedPersonalAccessToken, Login: "bench",
	Permissions: func(context.Context, issuefields.Repository) (issuefields.RepositoryPermissions, error) {
		return issuefields.RepositoryPermissions{Visible: true, Issues: issuefields.PermissionWrite, Push: true}, nil
	},
}

// newBenchHandler returns a handler over a store with the benchmark's
// organization, repository and issues 1 and 2, issue 1 holding benchBody's
// values, with the secondary rate limit off so every iteration does the same
// work.
func newBenchHandler(b *testing.B) (*issuefields.Handler, *memstore.Store) {
	s := memstore.New()
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(s.AddOrganization(benchOrg))
	for _, f := range benchFields {
		must(s.AddField(benchOrg, f))
	}
	_, err := s.AddRepository(benchOrg, benchRepo, true)
	must(err)
	must(s.AddIssue(benchOrg, benchRepo, 1))
	must(s.AddIssue(benchOrg, benchRepo, 2))
	h := newConfiguredHandler(b, issuefields.Config{
		Store: s,
		Verifier: issuefields.TokenVerifierFunc(func(context.Context, string) (*issuefields.Principal, error) {
			return benchPrincipal, nil
		}),
		WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: -1},
	})
	if r := do(b, h, "POST", valuesPath(benchOrg, benchRepo, 1), "t", benchBody); r.status != http.StatusOK {
		b.Fatalf("seeding: %d %s", r.status, r.body)
	}
	return h, s
}

// discardWriter is a ResponseWriter that keeps only the status and the size
// of the body, and is reused between requests, so that benchmarks measure
// the handler rather than the recorder.
type discardWriter struct {
	header http.Header
	status int
	size   int
}

func (w *discardWriter) Header() http.Header         { return w.header }
func (w *discardWriter) WriteHeader(status int)      { w.status = status }
func (w *discardWriter) Write(b []byte) (int, error) { w.size += len(b); return len(b), nil }

func (w *discardWriter) reset() {
	clear(w.header)
	w.status, w.size = 0, 0
}

// benchOp is one operation to measure: the request, with bodies that the
// iterations take in turn, and what must happen before each request so that
// it does the same work every time.
type benchOp struct {
	method, path string
	bodies       []string
	status       int
	before       func(b *testing.B)
}

// alternating returns body and a copy of it whose estimate (field 5) is 6
// instead of 5, so that writes taking them in turn each change the issue.
func alternating(body string) []string {
	return []string{body, strings.Replace(body, `{"field_id":5,"value":5}`, `{"field_id":5,"value":6}`, 1)}
}

// benchmarkOp measures op through the handler ("handler") and, beside it, a
// bare ServeMux with the same route ("baseline") that decodes the request
// body, if any, into a generic JSON value and writes a fixed body of the same
// size, so that their ratio is read from one run.
func benchmarkOp(b *testing.B, h http.Handler, op benchOp) {
	bodies := op.bodies
	if len(bodies) == 0 {
		bodies = []string{""}
	}
	probe := do(b, h, op.method, op.path, "t", bodies[0])
	if probe.status != op.status {
		b.Fatalf("%s %s: status %d, want %d: %s", op.method, op.path, probe.status, op.status, probe.body)
	}
	fixed := []byte(probe.body)
	bare := http.NewServeMux()
	bare.HandleFunc(op.method+" /repos/{owner}/{repo}/issues/{issue_number}/{rest...}", func(w http.ResponseWriter, r *http.Request) {
		if bodies[0] != "" {
			var v any
			if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(op.status)
		_, _ = w.Write(fixed)
	})
	for _, side := range []struct {
		name    string
		handler http.Handler
	}{{"handler", h}, {"baseline", bare}} {
		b.Run(side.name, func(b *testing.B) {
			b.ReportAllocs()
			req := httptest.NewRequest(op.method, op.path, nil)
			req.Header.Set("Authorization", "Bearer t")
			body := strings.NewReader("")
			w := &discardWriter{header: http.Header{}}
			for i := 0; b.Loop(); i++ {
				if op.before != nil {
					op.before(b)
				}
				body.Reset(bodies[i%len(bodies)])
				req.Body = io.NopCloser(body)
				w.reset()
				side.handler.ServeHTTP(w, req)
				if w.status != op.status && !(w.status == 0 && op.status == http.StatusOK) {
					b.Fatalf("status %d, want %d", w.status, op.status)
				}
			}
			b.ReportMetric(float64(w.size), "body-bytes")
		})
	}
}

func BenchmarkList(b *testing.B) {
	h, _ := newBenchHandler(b)
	benchmarkOp(b, h, benchOp{method: "GET", path: valuesPath(benchOrg, benchRepo, 1), status: http.StatusOK})
}

// BenchmarkAdd writes the ten values, with the estimate alternating so that
// every add changes the issue.
func BenchmarkAdd(b *testing.B) {
	h, _ := newBenchHandler(b)
	benchmarkOp(b, h, benchOp{method: "POST", path: valuesPath(benchOrg, benchRepo, 2), bodies: alternating(benchBody), status: http.StatusOK})
}

// BenchmarkSet writes every value but the multi_select ones, which set
// cannot write, with the estimate alternating so that every set changes the
// issue.
func BenchmarkSet(b *testing.B) {
	h, _ := newBenchHandler(b)
	body := strings.Replace(benchBody, `,{"field_id":9,"value":["Linux","Windows"]},{"field_id":10,"value":["API","Web","Docs"]}`, "", 1)
	benchmarkOp(b, h, benchOp{method: "PUT", path: valuesPath(benchOrg, benchRepo, 2), bodies: alternating(body), status: http.StatusOK})
}

// BenchmarkDelete puts the value back before each delete, on both sides, so
// that every delete removes a value.
func BenchmarkDelete(b *testing.B) {
	h, s := newBenchHandler(b)
	restore := func(b *testing.B) {
		if err := s.SetValues(benchOrg, benchRepo, 2, []issuefields.Value{{FieldID: 5, Number: 5}}); err != nil {
			b.Fatal(err)
		}
	}
	restore(b)
	benchmarkOp(b, h, benchOp{method: "DELETE", path: valuesPath(benchOrg, benchRepo, 2) + "/5", status: http.StatusNoContent, before: restore})
}

// BenchmarkLongItemList reports the bytes a request allocates to be refused
// for a 1 MiB body of the form {"issue_field_values":[1,1,1,…]}: the handler
// stops reading at the 26th item, so they stay proportional to 25 items,
// whatever the rest of the body holds.
func BenchmarkLongItemList(b *testing.B) {
	h, _ := newBenchHandler(b)
	prefix := `{"issue_field_values":[`
	n := (defaultMaxBodyBytes - len(prefix) - 2) / 2
	body := []byte(prefix + strings.Repeat("1,", n-1) + "1]}")
	w := &discardWriter{header: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		w.reset()
		req := httptest.NewRequest("POST", valuesPath(benchOrg, benchRepo, 2), bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer t")
		h.ServeHTTP(w, req)
		if w.status != http.StatusUnprocessableEntity {
			b.Fatalf("status %d, want 422", w.status)
		}
	}
}
