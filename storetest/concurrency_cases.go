package storetest

import (
	"errors"
	"fmt"
	"slices"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/conformance"
)

// concurrencyCases check Store.UpdateIssue under concurrent calls.
var concurrencyCases = []testCase{
	{"Under contention, 16 writers of one issue that read a Snapshot, UpdateIssue and retry on ErrChanged lose no value", concurrentAppends},
	{"Of many writers that UpdateIssue from the same Snapshot, exactly one wins and the others get ErrChanged", concurrentSameSnapshot},
	{"UpdateIssue on different issues at the same time never conflicts", concurrentDifferentIssues},
}

const (
	// writers is the number of goroutines that write at once.
	writers = 16
	// maxRetries bounds the retries of one write on ErrChanged, so that a
	// store that always refuses fails the case instead of hanging it.
	maxRetries = 10_000
)

// appendValue adds mine to the values of the issue with one
// read-modify-write through Snapshot and UpdateIssue, retrying on
// ErrChanged.
func (e *env) appendValue(is issueAt, mine issuefields.Value) error {
	for range maxRetries {
		snap, err := e.s.Snapshot(e.ctx, is.owner, is.name, is.number)
		if err != nil {
			return err
		}
		_, err = e.update(snap, append(slices.Clip(snap.Issue.Values), mine))
		if !errors.Is(err, issuefields.ErrChanged) {
			return err
		}
	}
	return fmt.Errorf("UpdateIssue gave ErrChanged %d times in a row", maxRetries)
}

func concurrentAppends(e *env) {
	key := e.anIssue()
	errs := parallel(func(i int) error {
		return e.appendValue(key, issuefields.Value{FieldID: int64(1000 + i), Text: fmt.Sprint("writer ", i)})
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

func concurrentSameSnapshot(e *env) {
	key := e.anIssue()
	snap := e.read(key)
	versions := make([]issuefields.Version, writers)
	errs := parallel(func(i int) error {
		var err error
		versions[i], err = e.update(snap, []issuefields.Value{{FieldID: int64(i + 1), Text: "mine"}})
		return err
	})
	var winners []int
	for i, err := range errs {
		switch {
		case err == nil:
			winners = append(winners, i)
		case !errors.Is(err, issuefields.ErrChanged):
			e.r.Errorf("writer %d: UpdateIssue = %v, want nil or an error that wraps ErrChanged", i, err)
		}
	}
	if len(winners) != 1 {
		e.r.Fatalf("the writers %v of %d succeeded from version %q, want exactly one", winners, writers, snap.Issue.Version)
	}
	winner := winners[0]
	e.wantHolds(key, []issuefields.Value{{FieldID: int64(winner + 1), Text: "mine"}}, versions[winner], fmt.Sprintf("after writer %d won", winner))
}

// concurrentDifferentIssues has each writer write its own issue many times,
// each time from a Snapshot it reads just before: none may get ErrChanged,
// and each Snapshot must show the version of the writer's last write.
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
	errs := parallel(func(i int) error {
		is := keys[i]
		for n := range rounds {
			snap, err := e.s.Snapshot(e.ctx, is.owner, is.name, is.number)
			if err != nil {
				return err
			}
			if snap.Issue.Version != versions[i] {
				return fmt.Errorf("the version changed from %q to %q, which no write of this issue made", versions[i], snap.Issue.Version)
			}
			if versions[i], err = e.update(snap, []issuefields.Value{{FieldID: 20, Number: float64(n)}}); err != nil {
				return err
			}
		}
		return nil
	})
	for i, err := range errs {
		if err != nil {
			e.r.Errorf("writer on %+v: %v", keys[i], err)
		}
	}
}

// parallel calls f(0) to f(writers-1) as conformance.Parallel does.
func parallel(f func(i int) error) []error {
	return conformance.Parallel(writers, f)
}
