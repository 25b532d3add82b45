package issuefields_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// benchBody writes the fixture's five values: one of each data type.
const benchBody = `{"issue_field_values":[{"field_id":1,"value":"Needs a design review"},{"field_id":2,"value":"High"},` +
	`{"field_id":3,"value":5},{"field_id":4,"value":"2025-12-25"},{"field_id":5,"value":["Frontend","Backend"]}]}`

// benchOp is one operation to measure: the request, and what must happen
// before each request so that it does the same work every time.
type benchOp struct {
	method, path, body string
	status             int
	before             func(b *testing.B)
}

// benchmarkOp measures op through the handler ("handler") and, beside it, a
// bare ServeMux with the same route that reads the request body and writes a
// fixed body of the same size ("baseline"), so that their ratio is read from
// one run.
func benchmarkOp(b *testing.B, h http.Handler, op benchOp) {
	probe := do(b, h, op.method, op.path, writerToken, op.body)
	if probe.status != op.status {
		b.Fatalf("%s %s: status %d, want %d: %s", op.method, op.path, probe.status, op.status, probe.body)
	}
	fixed := []byte(probe.body)
	bare := http.NewServeMux()
	bare.HandleFunc(op.method+" /repos/{owner}/{repo}/issues/{issue_number}/{rest...}", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
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
			req.Header.Set("Authorization", "Bearer "+writerToken)
			body := strings.NewReader(op.body)
			for b.Loop() {
				if op.before != nil {
					op.before(b)
				}
				body.Reset(op.body)
				req.Body = io.NopCloser(body)
				rec := httptest.NewRecorder()
				side.handler.ServeHTTP(rec, req)
				if rec.Code != op.status {
					b.Fatalf("status %d, want %d: %s", rec.Code, op.status, rec.Body)
				}
			}
		})
	}
}

// newBenchHandler returns a handler over the fixture with the secondary rate
// limit off, so that every iteration does the same work.
func newBenchHandler(b *testing.B) (*issuefields.Handler, *memstore.Store) {
	s := newFixtureStore(b)
	return newConfiguredHandler(b, issuefields.Config{Store: s,
		WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: -1}}), s
}

func BenchmarkList(b *testing.B) {
	h, _ := newBenchHandler(b)
	benchmarkOp(b, h, benchOp{method: "GET", path: valuesPath(org, publicRepo, 1), status: http.StatusOK})
}

func BenchmarkAdd(b *testing.B) {
	h, _ := newBenchHandler(b)
	benchmarkOp(b, h, benchOp{method: "POST", path: valuesPath(org, publicRepo, 2), body: benchBody, status: http.StatusOK})
}

func BenchmarkSet(b *testing.B) {
	h, _ := newBenchHandler(b)
	benchmarkOp(b, h, benchOp{method: "PUT", path: valuesPath(org, publicRepo, 2),
		body: strings.Replace(benchBody, `,{"field_id":5,"value":["Frontend","Backend"]}`, "", 1), status: http.StatusOK})
}

// BenchmarkDelete puts the value back before each delete, on both sides, so
// that every delete removes a value.
func BenchmarkDelete(b *testing.B) {
	h, s := newBenchHandler(b)
	restore := func(b *testing.B) {
		if err := s.SetValues(org, publicRepo, 2, []issuefields.Value{{FieldID: estimateID, Number: 5}}); err != nil {
			b.Fatal(err)
		}
	}
	restore(b)
	benchmarkOp(b, h, benchOp{method: "DELETE", path: valuesPath(org, publicRepo, 2) + "/3", status: http.StatusNoContent, before: restore})
}
