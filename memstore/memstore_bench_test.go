package memstore_test

import (
	"context"
	"errors"
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

// filled returns a store with n issues, spread over repositories of 1,000
// issues, each holding benchValues, and the issues' keys.
func filled(b *testing.B, n int) (*memstore.Store, []issuefields.IssueKey) {
	b.Helper()
	s := memstore.New()
	if err := s.AddOrganization("octo-org"); err != nil {
		b.Fatal(err)
	}
	keys := make([]issuefields.IssueKey, 0, n)
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
		keys = append(keys, issuefields.IssueKey{RepositoryID: repo.ID, Number: number})
	}
	return s, keys
}

// storeSizes are the numbers of issues in the benchmarks' stores.
var storeSizes = []int{1_000, 1_000_000}

func BenchmarkValues(b *testing.B) {
	ctx := context.Background()
	for _, n := range storeSizes {
		b.Run(fmt.Sprint("issues=", n), func(b *testing.B) {
			s, keys := filled(b, n)
			key := keys[n/2]
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := s.Values(ctx, key); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCompareAndSwap(b *testing.B) {
	ctx := context.Background()
	for _, n := range storeSizes {
		b.Run(fmt.Sprint("issues=", n), func(b *testing.B) {
			s, keys := filled(b, n)
			key := keys[n/2]
			_, v, err := s.Values(ctx, key)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if v, err = s.CompareAndSwap(ctx, key, v, benchValues); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReadModifyWriteParallel reads and then swaps the values of a
// different issue in each iteration, from many goroutines at once, as the
// handler's writes do.
func BenchmarkReadModifyWriteParallel(b *testing.B) {
	ctx := context.Background()
	s, keys := filled(b, 100_000)
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			key := keys[next.Add(1)%int64(len(keys))]
			for {
				values, v, err := s.Values(ctx, key)
				if err != nil {
					b.Fatal(err)
				}
				_, err = s.CompareAndSwap(ctx, key, v, values)
				if err == nil {
					break
				}
				if !errors.Is(err, issuefields.ErrVersionConflict) {
					b.Fatal(err)
				}
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
