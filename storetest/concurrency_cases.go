package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/issuefields/issuefields"
)

// concurrencyCases check Store.CompareAndSwap under concurrent calls.
var concurrencyCases = []testCase{
	{"CompareAndSwap is atomic: concurrent read-modify-write loops on one issue lose no value", concurrentReadModifyWrite},
	{"CompareAndSwap lets exactly one of many concurrent writers with the same expected version win", concurrentSameVersion},
	{"CompareAndSwap on different issues at the same time never conflicts", concurrentDifferentIssues},
}

const (
	// writers is the number of goroutines that write at once.
	writers = 16
	// maxAttempts bounds the retries of one read-modify-write loop.
	maxAttempts = 10000
)

func concurrentReadModifyWrite(e *env) {
	key := e.anIssue()
	errs := parallel(func(i int) error {
		mine := issuefields.Value{FieldID: int64(1000 + i), Text: fmt.Sprint("writer ", i)}
		for range maxAttempts {
			values, v, err := e.s.Values(e.ctx, key)
			if err != nil {
				return fmt.Errorf("Values: %w", err)
			}
			_, err = e.s.CompareAndSwap(e.ctx, key, v, append(slices.Clip(values), mine))
			if !errors.Is(err, issuefields.ErrVersionConflict) {
				return err
			}
		}
		return fmt.Errorf("no CompareAndSwap succeeded in %d attempts", maxAttempts)
	})
	for i, err := range errs {
		if err != nil {
			e.r.Errorf("writer %d: %v", i, err)
		}
	}
	got, _ := e.values(key)
	var ids, want []int64
	for i, v := range got {
		ids = append(ids, v.FieldID)
		want = append(want, int64(1000+i))
	}
	slices.Sort(ids)
	if len(ids) != writers || !slices.Equal(ids, want) {
		e.r.Errorf("after %d writers each added a value of its own, Values holds the fields %v, want 1000 to %d once each", writers, ids, 1000+writers-1)
	}
}

func concurrentSameVersion(e *env) {
	key := e.anIssue()
	_, v := e.values(key)
	versions := make([]issuefields.Version, writers)
	errs := parallel(func(i int) error {
		var err error
		versions[i], err = e.s.CompareAndSwap(e.ctx, key, v, []issuefields.Value{{FieldID: int64(i + 1), Text: "mine"}})
		return err
	})
	var winners []int
	for i, err := range errs {
		switch {
		case err == nil:
			winners = append(winners, i)
		case !errors.Is(err, issuefields.ErrVersionConflict):
			e.r.Errorf("writer %d: CompareAndSwap = %v, want nil or ErrVersionConflict", i, err)
		}
	}
	if len(winners) != 1 {
		e.r.Fatalf("the writers %v of %d succeeded from version %q, want exactly one", winners, writers, v)
	}
	winner := winners[0]
	want := []issuefields.Value{{FieldID: int64(winner + 1), Text: "mine"}}
	if got, w := e.values(key); !equalValues(got, want) || w != versions[winner] {
		e.r.Errorf("after writer %d won, Values = %v, %q; want %v, %q", winner, got, w, want, versions[winner])
	}
}

func concurrentDifferentIssues(e *env) {
	e.addOrgs("octo-org")
	repo := e.addRepo("octo-org", "hello-world", false)
	keys := make([]issuefields.IssueKey, writers)
	versions := make([]issuefields.Version, writers)
	for i := range keys {
		e.addIssues("octo-org", "hello-world", int64(i+1))
		keys[i] = e.issue(repo, int64(i+1)).Key()
		_, versions[i] = e.values(keys[i])
	}
	const rounds = 50
	errs := parallel(func(i int) (err error) {
		for n := 0; err == nil && n < rounds; n++ {
			versions[i], err = e.s.CompareAndSwap(e.ctx, keys[i], versions[i], []issuefields.Value{{FieldID: 20, Number: float64(n)}})
		}
		return err
	})
	for i, err := range errs {
		if err != nil {
			e.r.Errorf("writer on %+v: %v", keys[i], err)
		}
	}
}

// parallel calls f(0) to f(writers-1) on goroutines of their own, released
// at the same moment, and returns their results, a panic counting as an
// error, once all have returned.
func parallel(f func(i int) error) []error {
	errs := make([]error, writers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil {
					errs[i] = fmt.Errorf("panic: %v", v)
				}
			}()
			<-start
			errs[i] = f(i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}
