package storetest

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/issuefields/issuefields"
)

// valuesCases check the values and versions that Store.Snapshot shows and
// Store.UpdateValues writes, one call at a time.
var valuesCases = []testCase{
	{"Snapshot and UpdateValues give no values and a version for an issue that has none", valuesEmpty},
	{"Snapshot and UpdateValues show the same version until an UpdateValues commits", valuesSameVersion},
	{"Snapshot and UpdateValues show the values exactly as they were written, in the order they were written", valuesRoundTrip},
	{"UpdateValues stores the values that change returns as they are, without validating them", valuesNotValidated},
	{"An issue's values and version survive a rename and a transfer of its repository", valuesSurviveRepositoryMoves},
	{"UpdateValues calls change with the current Snapshot, stores what it returns, and returns the new version", updateReplaces},
	{"UpdateValues returns a version that differs from every version the issue had before", updateNewVersion},
	{"UpdateValues returns an error that wraps the error of change, and changes nothing", updateChangeFails},
	{"UpdateValues on one issue changes no other issue's values or version", updateOtherIssues},
	{"UpdateValues shows change an issue that was deleted or transferred away as Snapshot does, and stores nothing there", updateNotLive},
	{"TransferIssue moves the issue's values to its new place, replacing the values there under a new version", valuesMoveWithIssue},
}

func valuesEmpty(e *env) {
	key := e.anIssue()
	snap := e.shown(e.repo("octo-org", "hello-world"), 1)
	if len(snap.Values) != 0 {
		e.r.Errorf("Snapshot of a new issue shows the values %v, want none", snap.Values)
	}
	got, v := e.values(key)
	if len(got) != 0 || v != snap.Version {
		e.r.Errorf("UpdateValues gives change %v, %q for a new issue; want no values and the version %q that Snapshot shows", got, v, snap.Version)
	}
	e.swap(key, someValues())
}

func valuesSameVersion(e *env) {
	key := e.anIssue()
	repo := e.repo("octo-org", "hello-world")
	v1 := e.shown(repo, 1).Version
	if _, v2 := e.values(key); v2 != v1 {
		e.r.Errorf("Snapshot showed version %q and then UpdateValues gave change %q, want the same", v1, v2)
	}
	if v3 := e.shown(repo, 1).Version; v3 != v1 {
		e.r.Errorf("two Snapshots showed versions %q and %q, want the same", v1, v3)
	}
	v4 := e.swap(key, someValues())
	if v5 := e.shown(repo, 1).Version; v5 != v4 || v5 == v1 {
		e.r.Errorf("after UpdateValues returned version %q, Snapshot showed version %q; want the same, unlike %q", v4, v5, v1)
	}
	if _, v6 := e.values(key); v6 != v4 {
		e.r.Errorf("after UpdateValues returned version %q, UpdateValues gave change %q; want the same", v4, v6)
	}
}

func valuesRoundTrip(e *env) {
	key := e.anIssue()
	repo := e.repo("octo-org", "hello-world")
	e.swap(key, someValues())
	e.wantShown(repo, 1, someValues(), "after writing one value of each data type")
	singles := []issuefields.Value{
		{FieldID: 10, Text: strings.Repeat("𝄞", 1024)},
		{FieldID: 40, Date: "9999-12-31"},
		{FieldID: 50, OptionIDs: []int64{math.MaxInt64, 1}},
	}
	for _, n := range []float64{0.1, -3, 1e300, -1e-300, 5e-324, math.MaxFloat64, 1 << 53, 123456789.123456789, 0} {
		singles = append(singles, issuefields.Value{FieldID: 20, Number: n})
	}
	for _, value := range singles {
		want := []issuefields.Value{value}
		e.swap(key, want)
		e.wantShown(repo, 1, want, "after writing a single value")
	}
}

func valuesNotValidated(e *env) {
	key := e.anIssue()
	odd := []issuefields.Value{
		{FieldID: 999, Text: "a field that does not exist"},
		{FieldID: 30, OptionIDs: []int64{12345, 12345}},
		{FieldID: 10, Text: "two members set", Number: 7, Date: "not a date"},
		{FieldID: 10, Text: "the same field twice"},
	}
	e.swap(key, odd)
	e.wantShown(e.repo("octo-org", "hello-world"), 1, odd, "after writing values that no field would accept")
}

func valuesSurviveRepositoryMoves(e *env) {
	is := e.anIssue()
	key := e.issue(e.repo("octo-org", "hello-world"), 1).Key()
	e.setValues("octo-org", "hello-world", 1, someValues())
	_, v := e.values(is)
	e.addOrgs("other-org")
	e.rename("octo-org", "hello-world", "renamed")
	e.transferRepo("octo-org", "renamed", "other-org")
	moved := e.shown(e.repo("other-org", "renamed"), 1)
	if moved.Issue.Key() != key {
		e.r.Fatalf("after a rename and a transfer of its repository, the issue's key is %+v, want %+v", moved.Issue.Key(), key)
	}
	if !equalValues(moved.Values, someValues()) || moved.Version != v {
		e.r.Errorf("after a rename and a transfer of the repository, Snapshot shows %v, %q; want %v, %q", moved.Values, moved.Version, someValues(), v)
	}
	if got, w := e.values(is); !equalValues(got, someValues()) || w != v {
		e.r.Errorf("after a rename and a transfer of the repository, UpdateValues by its former name gives change %v, %q; want %v, %q", got, w, someValues(), v)
	}
}

// errStale is what a change returns when it is given a Snapshot other than
// the one it expects.
var errStale = errors.New("storetest: a change given a Snapshot it does not expect")

// updateReplaces writes with changes that refuse any Snapshot but the
// current one, each after a SetValues that a store's memory of the values it
// wrote misses: a store may call change with a stale Snapshot first, but
// must call it again with the current one.
func updateReplaces(e *env) {
	is := e.anIssue()
	repo := e.repo("octo-org", "hello-world")
	for _, want := range [][]issuefields.Value{{{FieldID: 10, Text: "only this"}}, {}, changedValues()} {
		e.setValues("octo-org", "hello-world", 1, someValues())
		before := e.shown(repo, 1)
		var got issuefields.Snapshot
		v, err := e.s.UpdateValues(e.ctx, is.owner, is.name, is.number, func(snap issuefields.Snapshot) ([]issuefields.Value, error) {
			got = snap
			if snap.Version != before.Version || !equalValues(snap.Values, before.Values) || snap.Repository != repo {
				return nil, errStale
			}
			return want, nil
		})
		if err != nil {
			e.r.Errorf("UpdateValues with a change that accepts only the current values %v, %q: %v; change was last given %v, %q",
				before.Values, before.Version, err, got.Values, got.Version)
			continue
		}
		if after := e.shown(repo, 1); !equalValues(after.Values, want) || after.Version != v {
			e.r.Errorf("after UpdateValues wrote %v and returned version %q, Snapshot shows %v, %q", want, v, after.Values, after.Version)
		}
	}
}

func updateNewVersion(e *env) {
	key := e.anIssue()
	_, v := e.values(key)
	seen := map[issuefields.Version]bool{v: true}
	a := []issuefields.Value{{FieldID: 10, Text: "a"}}
	b := []issuefields.Value{{FieldID: 10, Text: "b"}}
	for i, values := range [][]issuefields.Value{a, a, b, a, nil, nil, someValues(), a} {
		v = e.swap(key, values)
		if seen[v] {
			e.r.Errorf("write %d (%v) returned version %q, which the issue had before", i+1, values, v)
		}
		seen[v] = true
	}
	e.setValues("octo-org", "hello-world", 1, a)
	if _, v = e.values(key); seen[v] {
		e.r.Errorf("after SetValues, UpdateValues gave change the version %q, which the issue had before", v)
	}
}

func updateChangeFails(e *env) {
	key := e.anIssue()
	repo := e.repo("octo-org", "hello-world")
	e.setValues("octo-org", "hello-world", 1, someValues())
	before := e.shown(repo, 1)
	refused := errors.New("refused by the caller")
	for _, change := range []func(issuefields.Snapshot) ([]issuefields.Value, error){
		func(issuefields.Snapshot) ([]issuefields.Value, error) { return nil, refused },
		func(issuefields.Snapshot) ([]issuefields.Value, error) { return changedValues(), refused },
	} {
		if v, err := e.s.UpdateValues(e.ctx, key.owner, key.name, key.number, change); !errors.Is(err, refused) {
			e.r.Errorf("UpdateValues with a change that fails = %q, %v; want an error that wraps the change's", v, err)
		}
		if after := e.shown(repo, 1); !equalValues(after.Values, someValues()) || after.Version != before.Version {
			e.r.Errorf("after UpdateValues with a change that failed, Snapshot shows %v, %q; want %v, %q", after.Values, after.Version, someValues(), before.Version)
		}
	}
}

func updateOtherIssues(e *env) {
	e.addOrgs("octo-org")
	a := e.addRepo("octo-org", "a", false)
	b := e.addRepo("octo-org", "b", false)
	e.addIssues("octo-org", "a", 1, 2)
	e.addIssues("octo-org", "b", 1)
	keys := []issueAt{at(a, 1), at(a, 2), at(b, 1)}
	want := make([][]issuefields.Value, len(keys))
	versions := make([]issuefields.Version, len(keys))
	for i, key := range keys {
		_, versions[i] = e.values(key)
	}
	for i, key := range keys {
		want[i] = []issuefields.Value{{FieldID: 10, Text: fmt.Sprint("issue ", i)}}
		versions[i] = e.swap(key, want[i])
		for j, other := range keys {
			if got, v := e.values(other); !equalValues(got, want[j]) || v != versions[j] {
				e.r.Errorf("after an UpdateValues on %+v, UpdateValues(%+v) gives change %v, %q; want %v, %q", key, other, got, v, want[j], versions[j])
			}
		}
	}
}

// errGone is what a change returns for a Snapshot that shows no live issue
// in the place asked for.
var errGone = errors.New("storetest: the issue is not here")

func updateNotLive(e *env) {
	e.addOrgs("octo-org")
	repo := e.addRepo("octo-org", "hello-world", false)
	e.addIssues("octo-org", "hello-world", 1, 2)
	e.setValues("octo-org", "hello-world", 2, someValues())
	e.deleteIssue("octo-org", "hello-world", 1)
	e.transferIssue("octo-org", "hello-world", 2, "octo-org", "hello-world", 3)
	to := e.shown(repo, 3)
	for _, c := range []struct {
		what   string
		number int64
		want   func(issuefields.Snapshot) bool
	}{
		{"deleted", 1, func(snap issuefields.Snapshot) bool { return errors.Is(snap.IssueErr, issuefields.ErrIssueDeleted) }},
		{"transferred", 2, func(snap issuefields.Snapshot) bool { return snap.IssueErr == nil && snap.Issue == to.Issue }},
	} {
		var got issuefields.Snapshot
		v, err := e.s.UpdateValues(e.ctx, repo.Owner, repo.Name, c.number, func(snap issuefields.Snapshot) ([]issuefields.Value, error) {
			got = snap
			if snap.IssueErr != nil || snap.Issue.Key() != (issuefields.IssueKey{RepositoryID: snap.Repository.ID, Number: c.number}) {
				return nil, errGone
			}
			return changedValues(), nil
		})
		if !errors.Is(err, errGone) {
			e.r.Errorf("UpdateValues of issue %d, a %s issue, = %q, %v; want an error that wraps the error of change", c.number, c.what, v, err)
		}
		if !c.want(got) {
			e.r.Errorf("UpdateValues of issue %d, a %s issue, last gave change the issue %+v, %v; want it as Snapshot shows it", c.number, c.what, got.Issue, got.IssueErr)
		}
	}
	for _, number := range []int64{1, 2} {
		v, err := e.s.UpdateValues(e.ctx, repo.Owner, repo.Name, number, func(issuefields.Snapshot) ([]issuefields.Value, error) {
			return changedValues(), nil
		})
		if !errors.Is(err, issuefields.ErrIssueDeleted) && !errors.Is(err, issuefields.ErrNotFound) {
			e.r.Errorf("UpdateValues of issue %d, which is not there, with a change that returns values = %q, %v; want ErrIssueDeleted or ErrNotFound", number, v, err)
		}
	}
	if got := e.shown(repo, 3); !equalValues(got.Values, to.Values) || got.Version != to.Version {
		e.r.Errorf("after UpdateValues on the place that the issue left, Snapshot at its new place shows %v, %q; want %v, %q", got.Values, got.Version, to.Values, to.Version)
	}
}

func valuesMoveWithIssue(e *env) {
	e.addOrgs("octo-org")
	repo := e.addRepo("octo-org", "hello-world", false)
	other := e.addRepo("octocat", "elsewhere", false)
	e.addIssues("octo-org", "hello-world", 1, 2)
	e.setValues("octo-org", "hello-world", 1, someValues())
	e.setValues("octo-org", "hello-world", 2, []issuefields.Value{{FieldID: 10, Text: "replaced"}})
	to := at(repo, 2)
	_, before := e.values(to)
	e.transferIssue("octo-org", "hello-world", 1, "octo-org", "hello-world", 2)
	if got, v := e.values(to); !equalValues(got, someValues()) || v == before {
		e.r.Errorf("after TransferIssue moved issue 1 onto issue 2, UpdateValues gives change %v, %q for issue 2; want %v and a version other than %q", got, v, someValues(), before)
	}
	e.transferIssue("octo-org", "hello-world", 2, "octocat", "elsewhere", 7)
	e.wantShown(other, 7, someValues(), "after TransferIssue moved the issue to a new number of another repository")
}
