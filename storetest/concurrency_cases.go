package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/issuefields/issuefields"
)

// concurrencyCases check Store.UpdateValues under concurrent calls.
var concurrencyCases = []testCase{
	{"UpdateValues is atomic: concurrent UpdateValues of one issue lose no value", concurrentAppends},
	{"UpdateValues lets exactly one of many concurrent writers that expect the same version win", concurrentSameVersion},
	{"UpdateValues on different issues at the same time never conflicts", concurrentDifferentIssues},
	{"UpdateValues on one issue does not wait for a change of another issue", concurrentNoWait},
}

const (
	// writers is the number of goroutines that write at once.
	writers = 16
	// patience bounds how long a case waits for a call that must not wait
	// for another.
	patience = 2 * time.Second
)

func concurrentAppends(e *env) {
	key := e.anIssue()
	errs := parallel(func(i int) error {
		mine := issuefields.Value{FieldID: int64(1000 + i), Text: fmt.Sprint("writer ", i)}
		_, err := e.s.UpdateValues(e.ctx, key.owner, key.name, key.number, func(snap issuefields.Snapshot) ([]issuefields.Value, error) {
			return append(slices.Clip(snap.Values), mine), nil
		})
		return err
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
		e.r.Errorf("after %d writers each added a value of its own, the issue holds the fields %v, want 1000 to %d once each", writers, ids, 1000+writers-1)
	}
}

func concurrentSameVersion(e *env) {
	key := e.anIssue()
	_, v := e.values(key)
	versions := make([]issuefields.Version, writers)
	errs := parallel(func(i int) error {
		var err error
		versions[i], err = e.s.UpdateValues(e.ctx, key.owner, key.name, key.number, func(snap issuefields.Snapshot) ([]issuefields.Value, error) {
			if snap.Version != v {
				return nil, errStale
			}
			return []issuefields.Value{{FieldID: int64(i + 1), Text: "mine"}}, nil
		})
		return err
	})
	var winners []int
	for i, err := range errs {
		switch {
		case err == nil:
			winners = append(winners, i)
		case !errors.Is(err, errStale):
			e.r.Errorf("writer %d: UpdateValues = %v, want nil or the error of its change", i, err)
		}
	}
	if len(winners) != 1 {
		e.r.Fatalf("the writers %v of %d succeeded from version %q, want exactly one", winners, writers, v)
	}
	winner := winners[0]
	want := []issuefields.Value{{FieldID: int64(winner + 1), Text: "mine"}}
	if got, w := e.values(key); !equalValues(got, want) || w != versions[winner] {
		e.r.Errorf("after writer %d won, UpdateValues gives change %v, %q; want %v, %q", winner, got, w, want, versions[winner])
	}
}

// concurrentDifferentIssues has each writer write its own issue many times,
// each time with a change that expects the version of its last write.
func concurrentDifferentIssues(e *env) {
	e.addOrgs("octo-org")
	repo := e.addRepo("octo-org", "hello-world", false)
	keys := make([]issueAt, writers)
	versions := make([]issuefields.Version, writers)
	for i := range keys {
		e.addIssues("octo-org", "hello-world", int64(i+1))
		keys[i] = at(repo, int64(i+1))
		_, versions[i] = e.values(keys[i])
	}
	const rounds = 50
	errs := parallel(func(i int) (err error) {
		for n := 0; err == nil && n < rounds; n++ {
			versions[i], err = e.s.UpdateValues(e.ctx, keys[i].owner, keys[i].name, keys[i].number, func(snap issuefields.Snapshot) ([]issuefields.Value, error) {
				if snap.Version != versions[i] {
					return nil, fmt.Errorf("%w: the version changed from %q to %q", errStale, versions[i], snap.Version)
				}
				return []issuefields.Value{{FieldID: 20, Number: float64(n)}}, nil
			})
		}
		return err
	})
	for i, err := range errs {
		if err != nil {
			e.r.Errorf("writer on %+v: %v", keys[i], err)
		}
	}
}

// concurrentNoWait writes issue 1 with a change that returns only once a
// write of issue 2 has returned.
func concurrentNoWait(e *env) {
	key := e.anIssue()
	e.addIssues("octo-org", "hello-world", 2)
	other := issueAt{key.owner, key.name, 2}
	wrote := make(chan error, 1)
	var once sync.Once
	started := false
	_, err := e.s.UpdateValues(e.ctx, key.owner, key.name, key.number, func(issuefields.Snapshot) ([]issuefields.Value, error) {
		once.Do(func() {
			started = true
			go func() {
				_, err := e.s.UpdateValues(e.ctx, other.owner, other.name, other.number, func(issuefields.Snapshot) ([]issuefields.Value, error) {
					return someValues(), nil
				})
				wrote <- err
			}()
		})
		select {
		case err := <-wrote:
			wrote <- err
			return changedValues(), nil
		case <-time.After(patience):
			return nil, fmt.Errorf("UpdateValues of issue 2 did not return within %v", patience)
		}
	})
	if err != nil {
		e.r.Errorf("UpdateValues of issue 1: %v", err)
	}
	if !started {
		e.r.Fatalf("UpdateValues of issue 1 did not call change")
	}
	if err := <-wrote; err != nil {
		e.r.Errorf("UpdateValues of issue 2, while a change of issue 1 ran: %v", err)
	}
	e.wantValues(key, changedValues(), "after writing issue 1")
	e.wantValues(other, someValues(), "after writing issue 2")
}

// parallel calls f(0) to f(writers-1) on goroutines of their own, released
// at the same moment, and returns their results, a panic counting as an
// error, once all have returned.
func parallel(f func(i int) error) []error {
	return parallelN(writers, f)
}

// parallelN is parallel with n goroutines.
func parallelN(n int, f func(i int) error) []error {
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
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
