package pgstore_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/issuefields/issuefields/storetest"
)

// benchFields are the fields of the benchmarks' organization: one of each
// data type.
var benchFields = []issuefields.Field{
	{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText},
	{ID: 2, Name: "Priority", DataType: issuefields.DataTypeSingleSelect, Options: []issuefields.FieldOption{
		{ID: 11, Name: "High", Color: "red"}, {ID: 12, Name: "Medium", Color: "yellow"}, {ID: 13, Name: "Low", Color: "green"}}},
	{ID: 3, Name: "Estimate", DataType: issuefields.DataTypeNumber},
	{ID: 4, Name: "Due", DataType: issuefields.DataTypeDate},
	{ID: 5, Name: "Labels", DataType: issuefields.DataTypeMultiSelect, Options: []issuefields.FieldOption{
		{ID: 51, Name: "Frontend", Color: "blue"}, {ID: 52, Name: "Backend", Color: "green"}, {ID: 53, Name: "Docs", Color: "gray"}}},
}

// benchValues are the values of issue 1: one of each data type.
var benchValues = []issuefields.Value{
	{FieldID: 1, Text: "Needs a design review"},
	{FieldID: 2, OptionIDs: []int64{11}},
	{FieldID: 3, Number: 5},
	{FieldID: 4, Date: "2025-12-25"},
	{FieldID: 5, OptionIDs: []int64{51, 52}},
}

// benchSetBodies are the bodies of the PUTs to issue 2, which alternate so
// that every PUT changes the values and writes them.
var benchSetBodies = []string{
	`{"issue_field_values":[{"field_id":1,"value":"First draft"},{"field_id":2,"value":"High"},{"field_id":3,"value":5},{"field_id":4,"value":"2025-12-25"}]}`,
	`{"issue_field_values":[{"field_id":1,"value":"Second draft"},{"field_id":2,"value":"Low"},{"field_id":3,"value":8},{"field_id":4,"value":"2026-01-31"}]}`,
}

// fillBench puts the benchmarks' fixture into s: octo-org with benchFields,
// its repository hello-world, issue 1 holding benchValues and issue 2.
func fillBench(b *testing.B, s storetest.Store) {
	b.Helper()
	must := func(err error) {
		b.Helper()
		if err != nil {
			b.Fatal(err)
		}
	}
	must(s.AddOrganization("octo-org"))
	for _, f := range benchFields {
		must(s.AddField("octo-org", f))
	}
	_, err := s.AddRepository("octo-org", "hello-world", false)
	must(err)
	must(s.AddIssue("octo-org", "hello-world", 1))
	must(s.AddIssue("octo-org", "hello-world", 2))
	must(s.SetValues("octo-org", "hello-world", 1, benchValues))
}

// BenchmarkHandler measures a list of issue 1 and a set of issue 2 through
// the handler, over memstore and over pgstore side by side, with the same
// fixture and the same requests. The pgstore runs skip without DATABASE_URL.
func BenchmarkHandler(b *testing.B) {
	stores := []struct {
		name string
		new  func(b *testing.B) storetest.Store
	}{
		{"memstore", func(*testing.B) storetest.Store { return memstore.New() }},
		{"pgstore", func(b *testing.B) storetest.Store { s, _ := newStore(b); return s }},
	}
	ops := []struct {
		name, method, path string
		bodies             []string
	}{
		{"list", "GET", valuesPath("octo-org", "hello-world", 1), []string{""}},
		{"set", "PUT", valuesPath("octo-org", "hello-world", 2), benchSetBodies},
	}
	for _, op := range ops {
		for _, store := range stores {
			b.Run(op.name+"/"+store.name, func(b *testing.B) {
				s := store.new(b)
				fillBench(b, s)
				h := newHandler(b, s)
				b.ReportAllocs()
				req := httptest.NewRequest(op.method, op.path, nil)
				req.Header.Set("Authorization", "Bearer token")
				body := strings.NewReader("")
				i := 0
				for b.Loop() {
					body.Reset(op.bodies[i%len(op.bodies)])
					i++
					req.Body = io.NopCloser(body)
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					if rec.Code != http.StatusOK {
						b.Fatalf("%s %s: status %d: %s", op.method, op.path, rec.Code, rec.Body)
					}
				}
			})
		}
	}
}

// BenchmarkWriteLimit measures a set of issue 2 through the handler over
// pgstore with the in-process limiter and with the shared one side by side,
// with limits high enough that no write is refused. The shared limiter takes
// a lease of a 64th of the limit from the database, so it asks the database
// once in millions of writes here; what it adds to a write is its work in
// memory.
func BenchmarkWriteLimit(b *testing.B) {
	limits := issuefields.WriteLimits{PerMinute: 1 << 30, PerHour: 1 << 30}
	limiters := []struct {
		name string
		new  func(b *testing.B, s *pgstore.Store) issuefields.WriteLimiter
	}{
		{"in-process", func(*testing.B, *pgstore.Store) issuefields.WriteLimiter { return issuefields.NewWriteLimiter(limits) }},
		{"shared", func(b *testing.B, s *pgstore.Store) issuefields.WriteLimiter {
			l := pgstore.New(s.Pool(), pgstore.Timeout(patientTimeout)).WriteLimiter(limits, quietLog(b))
			b.Cleanup(l.Close)
			return l
		}},
	}
	for _, limiter := range limiters {
		b.Run(limiter.name, func(b *testing.B) {
			s, _ := newStore(b)
			fillBench(b, s)
			h := newLimitedHandler(b, s, limiter.new(b, s))
			b.ReportAllocs()
			req := httptest.NewRequest("PUT", valuesPath("octo-org", "hello-world", 2), nil)
			req.Header.Set("Authorization", "Bearer token")
			body := strings.NewReader("")
			i := 0
			for b.Loop() {
				body.Reset(benchSetBodies[i%len(benchSetBodies)])
				i++
				req.Body = io.NopCloser(body)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("PUT: status %d: %s", rec.Code, rec.Body)
				}
			}
		})
	}
}

// BenchmarkAllowWrite measures the limiters of BenchmarkWriteLimit alone: a
// call of AllowWrite for one key, in memory for both but for the shared
// limiter's first lease.
func BenchmarkAllowWrite(b *testing.B) {
	limits := issuefields.WriteLimits{PerMinute: 1 << 30, PerHour: 1 << 30}
	s, _ := newStore(b)
	shared := pgstore.New(s.Pool(), pgstore.Timeout(patientTimeout)).WriteLimiter(limits, quietLog(b))
	b.Cleanup(shared.Close)
	for _, limiter := range []struct {
		name string
		l    issuefields.WriteLimiter
	}{{"in-process", issuefields.NewWriteLimiter(limits)}, {"shared", shared}} {
		b.Run(limiter.name, func(b *testing.B) {
			b.ReportAllocs()
			ctx := context.Background()
			for b.Loop() {
				if ok, _ := limiter.l.AllowWrite(ctx, writerKey); !ok {
					b.Fatal("refused")
				}
			}
		})
	}
}
