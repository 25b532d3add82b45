package storetest

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/issuefields/issuefields"
)

// valuesCases check Store.Values and Store.CompareAndSwap, one call at a
// time.
var valuesCases = []testCase{
	{"Values gives an empty slice and a version for an issue that has no values", valuesEmpty},
	{"Values returns the same version until a CompareAndSwap commits", valuesSameVersion},
	{"Values returns the values exactly as they were written, in the order they were written", valuesRoundTrip},
	{"CompareAndSwap stores values as they are given, without validating them", valuesNotValidated},
	{"Values survive a rename and a transfer of the repository", valuesSurviveRepositoryMoves},
	{"CompareAndSwap with the current version replaces the values and returns the new version", swapReplaces},
	{"CompareAndSwap returns a version that differs from every version the issue had before", swapNewVersion},
	{"CompareAndSwap with a stale version returns ErrVersionConflict and changes nothing", swapStale},
	{"CompareAndSwap on one issue changes no other issue's values or version", swapOtherIssues},
	{"Values and CompareAndSwap return ErrIssueDeleted or ErrNotFound for an issue that was deleted or transferred away", valuesNotLive},
	{"TransferIssue moves the issue's values to its new place, replacing the values there under a new version", valuesMoveWithIssue},
}

func valuesEmpty(e *env) {
	key := e.anIssue()
	got, v := e.values(key)
	if len(got) != 0 {
		e.r.Errorf("Values of a new issue = %v, want none", got)
	}
	e.swap(key, v, someValues())
}

func valuesSameVersion(e *env) {
	key := e.anIssue()
	_, v1 := e.values(key)
	if _, v2 := e.values(key); v2 != v1 {
		e.r.Errorf("two Values calls returned versions %q and %q, want the same", v1, v2)
	}
	v3 := e.swap(key, v1, someValues())
	if _, v4 := e.values(key); v4 != v3 || v4 == v1 {
		e.r.Errorf("after CompareAndSwap returned version %q, Values returned version %q, want the same, unlike %q", v3, v4, v1)
	}
}

func valuesRoundTrip(e *env) {
	key := e.anIssue()
	_, v := e.values(key)
	v = e.swap(key, v, someValues())
	e.wantValues(key, someValues(), "after writing one value of each data type")
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
		v = e.swap(key, v, want)
		e.wantValues(key, want, "after writing a single value")
	}
}

func valuesNotValidated(e *env) {
	key := e.anIssue()
	_, v := e.values(key)
	odd := []issuefields.Value{
		{FieldID: 999, Text: "a field that does not exist"},
		{FieldID: 30, OptionIDs: []int64{12345, 12345}},
		{FieldID: 10, Text: "two members set", Number: 7, Date: "not a date"},
		{FieldID: 10, Text: "the same field twice"},
	}
	e.swap(key, v, odd)
	e.wantValues(key, odd, "after writing values that no field would accept")
}

func valuesSurviveRepositoryMoves(e *env) {
	key := e.anIssue()
	e.setValues("octo-org", "hello-world", 1, someValues())
	_, v := e.values(key)
	e.addOrgs("other-org")
	e.rename("octo-org", "hello-world", "renamed")
	e.transferRepo("octo-org", "renamed", "other-org")
	moved := e.issue(e.repo("other-org", "renamed"), 1)
	if moved.Key() != key {
		e.r.Fatalf("after a rename and a transfer of its repository, the issue's key is %+v, want %+v", moved.Key(), key)
	}
	if got, w := e.values(key); !equalValues(got, someValues()) || w != v {
		e.r.Errorf("after a rename and a transfer of the repository, Values = %v, %q; want %v, %q", got, w, someValues(), v)
	}
}

func swapReplaces(e *env) {
	key := e.anIssue()
	e.setValues("octo-org", "hello-world", 1, someValues())
	_, v := e.values(key)
	for _, want := range [][]issuefields.Value{{{FieldID: 10, Text: "only this"}}, {}} {
		v = e.swap(key, v, want)
		got, w := e.values(key)
		if !equalValues(got, want) || w != v {
			e.r.Errorf("after CompareAndSwap wrote %v and returned version %q, Values = %v, %q", want, v, got, w)
		}
	}
}

func swapNewVersion(e *env) {
	key := e.anIssue()
	_, v := e.values(key)
	seen := map[issuefields.Version]bool{v: true}
	a := []issuefields.Value{{FieldID: 10, Text: "a"}}
	b := []issuefields.Value{{FieldID: 10, Text: "b"}}
	for i, values := range [][]issuefields.Value{a, a, b, a, nil, nil, someValues(), a} {
		v = e.swap(key, v, values)
		if seen[v] {
			e.r.Errorf("write %d (%v) returned version %q, which the issue had before", i+1, values, v)
		}
		seen[v] = true
	}
	e.setValues("octo-org", "hello-world", 1, a)
	if _, v = e.values(key); seen[v] {
		e.r.Errorf("after SetValues, Values returned version %q, which the issue had before", v)
	}
}

func swapStale(e *env) {
	key := e.anIssue()
	_, first := e.values(key)
	second := e.swap(key, first, someValues())
	e.setValues("octo-org", "hello-world", 1, someValues())
	_, current := e.values(key)
	for _, expected := range []issuefields.Version{first, second, current + "x", "no such version"} {
		v, err := e.s.CompareAndSwap(e.ctx, key, expected, nil)
		if !errors.Is(err, issuefields.ErrVersionConflict) {
			e.r.Errorf("CompareAndSwap with version %q when the current one is %q = %q, %v; want ErrVersionConflict", expected, current, v, err)
		}
		if got, v := e.values(key); !equalValues(got, someValues()) || v != current {
			e.r.Errorf("after a CompareAndSwap with stale version %q, Values = %v, %q; want %v, %q", expected, got, v, someValues(), current)
		}
	}
}

func swapOtherIssues(e *env) {
	e.addOrgs("octo-org")
	a := e.addRepo("octo-org", "a", false)
	b := e.addRepo("octo-org", "b", false)
	e.addIssues("octo-org", "a", 1, 2)
	e.addIssues("octo-org", "b", 1)
	keys := []issuefields.IssueKey{e.issue(a, 1).Key(), e.issue(a, 2).Key(), e.issue(b, 1).Key()}
	want := make([][]issuefields.Value, len(keys))
	versions := make([]issuefields.Version, len(keys))
	for i, key := range keys {
		_, versions[i] = e.values(key)
	}
	for i, key := range keys {
		want[i] = []issuefields.Value{{FieldID: 10, Text: fmt.Sprint("issue ", i)}}
		versions[i] = e.swap(key, versions[i], want[i])
		for j, other := range keys {
			if got, v := e.values(other); !equalValues(got, want[j]) || v != versions[j] {
				e.r.Errorf("after a CompareAndSwap on %+v, Values(%+v) = %v, %q; want %v, %q", key, other, got, v, want[j], versions[j])
			}
		}
	}
}

func valuesNotLive(e *env) {
	e.addOrgs("octo-org")
	repo := e.addRepo("octo-org", "hello-world", false)
	e.addIssues("octo-org", "hello-world", 1, 2)
	e.setValues("octo-org", "hello-world", 2, someValues())
	deleted, moved := e.issue(repo, 1).Key(), e.issue(repo, 2).Key()
	_, deletedVersion := e.values(deleted)
	_, movedVersion := e.values(moved)
	e.deleteIssue("octo-org", "hello-world", 1)
	e.transferIssue("octo-org", "hello-world", 2, "octo-org", "hello-world", 3)
	to := e.issue(repo, 3).Key()
	toValues, toVersion := e.values(to)
	gone := func(err error) bool {
		return errors.Is(err, issuefields.ErrIssueDeleted) || errors.Is(err, issuefields.ErrNotFound)
	}
	for _, c := range []struct {
		what string
		key  issuefields.IssueKey
		v    issuefields.Version
	}{{"deleted", deleted, deletedVersion}, {"transferred", moved, movedVersion}} {
		if values, v, err := e.s.Values(e.ctx, c.key); !gone(err) {
			e.r.Errorf("Values(%+v) of a %s issue = %v, %q, %v; want ErrIssueDeleted or ErrNotFound", c.key, c.what, values, v, err)
		}
		if v, err := e.s.CompareAndSwap(e.ctx, c.key, c.v, nil); !gone(err) {
			e.r.Errorf("CompareAndSwap(%+v, %q) of a %s issue = %q, %v; want ErrIssueDeleted or ErrNotFound", c.key, c.v, c.what, v, err)
		}
	}
	if got, v := e.values(to); !equalValues(got, toValues) || v != toVersion {
		e.r.Errorf("after a CompareAndSwap on the place that the issue left, Values at its new place = %v, %q; want %v, %q", got, v, toValues, toVersion)
	}
}

func valuesMoveWithIssue(e *env) {
	e.addOrgs("octo-org")
	repo := e.addRepo("octo-org", "hello-world", false)
	other := e.addRepo("octocat", "elsewhere", false)
	e.addIssues("octo-org", "hello-world", 1, 2)
	e.setValues("octo-org", "hello-world", 1, someValues())
	e.setValues("octo-org", "hello-world", 2, []issuefields.Value{{FieldID: 10, Text: "replaced"}})
	to := e.issue(repo, 2).Key()
	_, before := e.values(to)
	e.transferIssue("octo-org", "hello-world", 1, "octo-org", "hello-world", 2)
	if got, v := e.values(to); !equalValues(got, someValues()) || v == before {
		e.r.Errorf("after TransferIssue moved issue 1 onto issue 2, Values of issue 2 = %v, %q; want %v and a version other than %q", got, v, someValues(), before)
	}
	e.transferIssue("octo-org", "hello-world", 2, "octocat", "elsewhere", 7)
	e.wantValues(e.issue(other, 7).Key(), someValues(), "after TransferIssue moved the issue to a new number of another repository")
}
