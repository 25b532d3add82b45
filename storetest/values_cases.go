package storetest

import (
	"fmt"
	"math"
	"strings"

	"github.com/issuefields/issuefields"
)

// valuesCases check the values and versions that Store.Snapshot shows and
// Store.UpdateIssue writes, one call at a time.
var valuesCases = []testCase{
	{"Snapshot gives no values and a version for an issue that has none", valuesEmpty},
	{"Snapshot shows the same version until an UpdateIssue stores", valuesSameVersion},
	{"Snapshot shows the values exactly as they were written, in the order they were written", valuesRoundTrip},
	{"UpdateIssue stores the values it is given as they are, without validating them", valuesNotValidated},
	{"An issue's values and version survive a rename and a transfer of its repository", valuesSurviveRepositoryMoves},
	{"UpdateIssue stores next and returns a version the issue never had", updateStoresNext},
	{"UpdateIssue ignores next's Repository, Number and Version", updateIgnoresPlace},
	{"UpdateIssue on one issue changes no other issue's values or version", updateOtherIssues},
	{"UpdateIssue from a Snapshot that shows no live issue in its repository gives ErrChanged and stores nothing", updateNotLive},
	{"TransferIssue moves the issue's values to its new place, replacing the values there under a new version", valuesMoveWithIssue},
}

func valuesEmpty(e *env) {
	key := e.anIssue()
	if got, v := e.values(key); len(got) != 0 || v == "" {
		e.r.Errorf("Snapshot of a new issue shows the values %v and version %q, want no values and a version", got, v)
	}
	e.write(key, someValues())
}

func valuesSameVersion(e *env) {
	key := e.anIssue()
	_, v1 := e.values(key)
	if _, v2 := e.values(key); v2 != v1 {
		e.r.Errorf("two Snapshots showed versions %q and %q, want the same", v1, v2)
	}
	v3 := e.write(key, someValues())
	if _, v4 := e.values(key); v4 != v3 || v4 == v1 {
		e.r.Errorf("after UpdateIssue returned version %q, Snapshot showed version %q; want the same, unlike %q", v3, v4, v1)
	}
	if _, v5 := e.values(key); v5 != v3 {
		e.r.Errorf("two Snapshots after UpdateIssue showed versions %q and %q, want the same", v3, v5)
	}
}

func valuesRoundTrip(e *env) {
	key := e.anIssue()
	repo := e.repo("octo-org", "hello-world")
	e.write(key, someValues())
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
		e.write(key, want)
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
	e.write(key, odd)
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
	if !equalValues(moved.Issue.Values, someValues()) || moved.Issue.Version != v {
		e.r.Errorf("after a rename and a transfer of the repository, Snapshot shows %v, %q; want %v, %q", moved.Issue.Values, moved.Issue.Version, someValues(), v)
	}
	if got, w := e.values(is); !equalValues(got, someValues()) || w != v {
		e.r.Errorf("after a rename and a transfer of the repository, Snapshot by its former name shows %v, %q; want %v, %q", got, w, someValues(), v)
	}
}

// updateStoresNext writes values of every shape, the same ones again and
// none, each from a Snapshot read just before: each UpdateIssue must store
// its values and return the version that Snapshot then shows, which the
// issue never had before; so must SetValues.
func updateStoresNext(e *env) {
	key := e.anIssue()
	_, v := e.values(key)
	seen := map[issuefields.Version]bool{v: true}
	a := []issuefields.Value{{FieldID: 10, Text: "a"}}
	b := []issuefields.Value{{FieldID: 10, Text: "b"}}
	for i, values := range [][]issuefields.Value{a, a, b, a, nil, {}, someValues(), changedValues(), a} {
		v = e.write(key, values)
		if seen[v] {
			e.r.Errorf("write %d (%v) returned version %q, which the issue had before", i+1, values, v)
		}
		seen[v] = true
		e.wantHolds(key, values, v, fmt.Sprintf("after write %d returned version %q", i+1, v))
	}
	e.setValues("octo-org", "hello-world", 1, a)
	if _, v = e.values(key); seen[v] {
		e.r.Errorf("after SetValues, Snapshot shows the version %q, which the issue had before", v)
	}
}

// updateIgnoresPlace writes issue 1 with an Issue that names issue 2 and a
// version of issue 2's.
func updateIgnoresPlace(e *env) {
	key := e.anIssue()
	e.addIssues("octo-org", "hello-world", 2)
	e.setValues("octo-org", "hello-world", 2, changedValues())
	other := issueAt{key.owner, key.name, 2}
	elsewhere := e.read(other)
	next := elsewhere.Issue
	next.Values = someValues()
	v, err := e.s.UpdateIssue(e.ctx, e.read(key), next)
	if err != nil {
		e.r.Fatalf("UpdateIssue of issue 1 with an Issue that names issue 2: %v", err)
	}
	if got, shown := e.values(key); !equalValues(got, someValues()) || shown != v || v == elsewhere.Issue.Version {
		e.r.Errorf("after UpdateIssue of issue 1 with an Issue that names issue 2, issue 1 holds %v at %q (UpdateIssue returned %q); want %v at a new version", got, shown, v, someValues())
	}
	e.wantHolds(other, changedValues(), elsewhere.Issue.Version, "issue 2 after an UpdateIssue of issue 1 with an Issue that names it")
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
		versions[i] = e.write(key, want[i])
		for j, other := range keys {
			if got, v := e.values(other); !equalValues(got, want[j]) || v != versions[j] {
				e.r.Errorf("after an UpdateIssue of %+v, Snapshot of %+v shows %v, %q; want %v, %q", key, other, got, v, want[j], versions[j])
			}
		}
	}
}

// updateNotLive writes from Snapshots of an issue that was deleted, of one
// that was transferred to another number, and of a number that no issue
// has: each must give ErrChanged, and store nothing at the transferred
// issue's new place.
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
	}{{"deleted", 1}, {"transferred", 2}, {"never added", 4}} {
		snap := e.snapshot(repo.Owner, repo.Name, c.number)
		_, err := e.update(snap, changedValues())
		e.wantChanged(err, fmt.Sprintf("from a Snapshot of issue %d, a %s issue", c.number, c.what))
	}
	e.wantHolds(at(repo, 3), to.Issue.Values, to.Issue.Version, "the new place of a transferred issue after UpdateIssue from a Snapshot of its old one")
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
		e.r.Errorf("after TransferIssue moved issue 1 onto issue 2, Snapshot of issue 2 shows %v, %q; want %v and a version other than %q", got, v, someValues(), before)
	}
	e.transferIssue("octo-org", "hello-world", 2, "octocat", "elsewhere", 7)
	e.wantShown(other, 7, someValues(), "after TransferIssue moved the issue to a new number of another repository")
}
