package memstore_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// benchValues are the values of every issue in a benchmark's store: one of
// each data type.
var benchValues = []issuefields.Value{
	{FieldID: 1, Text: "Needs a design review"},
	{FieldID: 2, OptionIDs: []int64{2}},
	{FieldID: 3, OptionIDs: []int64{1, 3}},
	{FieldID: 4, Number: 3.5},
	{FieldID: 5, Date: "2025-06-30"},
}

// A benchIssue is an issue of a benchmark's store: where a request finds it,
// and its key.
type benchIssue struct {
	repo   string
	number int64
	key    issuefields.IssueKey
}

// filled returns a store with n issues of the organization octo-org, spread
// over repositories of 1,000 issues, each holding benchValues, and the
// issues.
func filled(b *testing.B, n int) (*memstore.Store, []benchIssue) {
	b.Helper()
	s := memstore.New()
	if err := s.AddOrganization("octo-org"); err != nil {
		b.Fatal(err)
	}
	issues := make([]benchIssue, 0, n)
	var repo issuefields.Repository
	for i := range n {
		name := fmt.Sprint("repo-", i/1000)
		number := int64(i%1000 + 1)
		if number == 1 {
			var err error
			if repo, err = s.AddRepository("octo-org", name, false); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.AddIssue("octo-org", name, number); err != nil {
			b.Fatal(err)
		}
		if err := s.SetValues("octo-org", name, number, benchValues); err != nil {
			b.Fatal(err)
		}
		issues = append(issues, benchIssue{name, number, issuefields.IssueKey{RepositoryID: repo.ID, Number: number}})
	}
	return s, issues
}

// storeSizes are the numbers of issues in the benchmarks' stores.
var storeSizes = []int{1_000, 1_000_000}

func BenchmarkSnapshot(b *testing.B) {
	ctx := context.Background()
	for _, n := range storeSizes {
		b.Run(fmt.Sprint("issues=", n), func(b *testing.B) {
			s, issues := filled(b, n)
			is := issues[n/2]
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Snapshot(ctx, "octo-org", is.repo, is.number); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkUpdateValues(b *testing.B) {
	ctx := context.Background()
	for _, n := range storeSizes {
		b.Run(fmt.Sprint("issues=", n), func(b *testing.B) {
			s, issues := filled(b, n)
			key := issues[n/2].key
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.UpdateValues(ctx, key, writeBenchValues); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// writeBenchValues is a change that writes benchValues.
func writeBenchValues([]issuefields.Value, issuefields.Version) ([]issuefields.Value, error) {
	return benchValues, nil
}

// BenchmarkSnapshotThenUpdateParallel reads the Snapshot of a different
// issue in each iteration and writes its values, from many goroutines at
// once, as the handler's writes do.
func BenchmarkSnapshotThenUpdateParallel(b *testing.B) {
	ctx := context.Background()
	s, issues := filled(b, 100_000)
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			is := issues[next.Add(1)%int64(len(issues))]
			snap, err := s.Snapshot(ctx, "octo-org", is.repo, is.number)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.UpdateValues(ctx, snap.Issue.Key(), writeBenchValues); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkHeapPerValue fills a store with 1,000,000 values over 200,000
// issues (one of each data type per issue, each text distinct) and reports
// the heap it holds per value.
func BenchmarkHeapPerValue(b *testing.B) {
	const issues = 200_000
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s := memstore.New()
		if err := s.AddOrganization("octo-org"); err != nil {
			b.Fatal(err)
		}
		values := slices.Clone(benchValues)
		for i := range issues {
			name := fmt.Sprint("repo-", i/1000)
			number := int64(i%1000 + 1)
			if number == 1 {
				if _, err := s.AddRepository("octo-org", name, false); err != nil {
					b.Fatal(err)
				}
			}
			if err := s.AddIssue("octo-org", name, number); err != nil {
				b.Fatal(err)
			}
			values[0].Text = fmt.Sprintf("Needs a design review (%d)", i)
			if err := s.SetValues("octo-org", name, number, values); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(issues*len(values)), "heap-B/value")
		runtime.KeepAlive(s)
	}
}
