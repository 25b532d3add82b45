package memstore_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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

func BenchmarkUpdateIssue(b *testing.B) {
	ctx := context.Background()
	for _, n := range storeSizes {
		b.Run(fmt.Sprint("issues=", n), func(b *testing.B) {
			s, issues := filled(b, n)
			is := issues[n/2]
			b.ReportAllocs()
			for b.Loop() {
				writeBenchValues(b, ctx, s, is)
			}
		})
	}
}

// writeBenchValues writes benchValues to is with a Snapshot and an
// UpdateIssue from it, as the handler's first write of an issue does.
func writeBenchValues(b *testing.B, ctx context.Context, s *memstore.Store, is benchIssue) {
	snap, err := s.Snapshot(ctx, "octo-org", is.repo, is.number)
	if err == nil {
		_, err = s.UpdateIssue(ctx, snap, issuefields.Issue{Values: benchValues})
	}
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkUpdateIssueParallel writes the values of a different issue in
// each iteration, from many goroutines at once, as the handler's writes do.
func BenchmarkUpdateIssueParallel(b *testing.B) {
	ctx := context.Background()
	s, issues := filled(b, 100_000)
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			writeBenchValues(b, ctx, s, issues[next.Add(1)%int64(len(issues))])
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

// The store of BenchmarkFieldChangeBesideReads: octo-org's text field Notes
// and single_select field Stage, whose 50 options have the IDs 101 to 150,
// and 100,000 issues, each with a value of both; a quarter of them hold the
// option that the benchmark drops.
const (
	stageOptions  = 50
	stageIssues   = 100_000
	droppedOption = 150
)

// stageFields returns the fields of the store of
// BenchmarkFieldChangeBesideReads, with or without the option it drops.
func stageFields(withDropped bool) []issuefields.Field {
	stage := issuefields.Field{ID: 2, Name: "Stage", DataType: issuefields.DataTypeSingleSelect}
	for id := int64(101); id <= 100+stageOptions; id++ {
		if id != droppedOption || withDropped {
			stage.Options = append(stage.Options, issuefields.FieldOption{ID: id, Name: fmt.Sprint("Option ", id), Color: "gray"})
		}
	}
	return []issuefields.Field{{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText}, stage}
}

// staged returns the store of BenchmarkFieldChangeBesideReads and its
// issues.
func staged(b *testing.B) (*memstore.Store, []benchIssue) {
	b.Helper()
	s := memstore.New()
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(s.AddOrganization("octo-org"))
	for _, f := range stageFields(true) {
		must(s.AddField("octo-org", f))
	}
	issues := make([]benchIssue, 0, stageIssues)
	for i := range stageIssues {
		name, number := fmt.Sprint("repo-", i/1000), int64(i%1000+1)
		if number == 1 {
			_, err := s.AddRepository("octo-org", name, false)
			must(err)
		}
		must(s.AddIssue("octo-org", name, number))
		option := int64(101 + i%(stageOptions-1))
		if i%4 == 0 {
			option = droppedOption
		}
		must(s.SetValues("octo-org", name, number, []issuefields.Value{
			{FieldID: 1, Text: fmt.Sprint("Note ", i)}, {FieldID: 2, OptionIDs: []int64{option}}}))
		issues = append(issues, benchIssue{repo: name, number: number})
	}
	return s, issues
}

// BenchmarkFieldChangeBesideReads changes the fields of an organization with
// a 50-option field and 100,000 issues, each change dropping an option that
// 25,000 of the issues use (every other one puts it back, under its ID, so
// that the next drops it again), and checking the result with
// issuefields.ValidateFields as the handler's planning does. Meanwhile
// readers take Snapshots of the organization's issues, as lists of their
// values do; it reports the latency of the reads that began while the
// changes ran (read-p50-ns, read-p99-ns, read-max-ns), which a change must
// not hold up.
func BenchmarkFieldChangeBesideReads(b *testing.B) {
	ctx := context.Background()
	s, issues := staged(b)
	// One reader per processor the change leaves free: more would wait
	// for each other's time slices, not for the change.
	readers := max(1, runtime.GOMAXPROCS(0)-1)
	const samples = 1 << 20
	var changing, stop atomic.Bool
	latencies := make([][]time.Duration, readers)
	slowest := make([]time.Duration, readers)
	var wg sync.WaitGroup
	for r := range readers {
		latencies[r] = make([]time.Duration, 0, samples)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := r; !stop.Load(); i += readers {
				is := issues[i*7919%len(issues)]
				during := changing.Load()
				start := time.Now()
				snap, err := s.Snapshot(ctx, "octo-org", is.repo, is.number)
				took := time.Since(start)
				if err != nil || len(snap.Issue.Values) != 2 {
					b.Errorf("Snapshot of %s#%d: %d values, %v", is.repo, is.number, len(snap.Issue.Values), err)
					return
				}
				if !during {
					continue
				}
				if len(latencies[r]) < samples {
					latencies[r] = append(latencies[r], took)
				}
				slowest[r] = max(slowest[r], took)
			}
		}()
	}
	withDropped := false
	changing.Store(true)
	for b.Loop() {
		next := stageFields(withDropped)
		withDropped = !withDropped
		_, err := s.ChangeFields(ctx, "octo-org", func([]issuefields.Field) ([]issuefields.Field, error) {
			return next, issuefields.ValidateFields(next)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	changing.Store(false)
	stop.Store(true)
	wg.Wait()
	all := slices.Concat(latencies...)
	if len(all) == 0 {
		b.Fatal("no read ran while the changes did")
	}
	slices.Sort(all)
	b.ReportMetric(float64(all[len(all)/2].Nanoseconds()), "read-p50-ns")
	b.ReportMetric(float64(all[len(all)*99/100].Nanoseconds()), "read-p99-ns")
	b.ReportMetric(float64(slices.Max(slowest).Nanoseconds()), "read-max-ns")
}
