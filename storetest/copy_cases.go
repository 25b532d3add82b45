package storetest

import (
	"fmt"

	"github.com/issuefields/issuefields"
)

// copyCases check that a store copies the slices it is given, and that the
// slices it hands out are snapshots that nothing it does later changes.
var copyCases = []testCase{
	{"UpdateIssue copies the values it is given", copyInUpdate},
	{"SetValues copies the values it is given", copyInSetValues},
	{"AddField copies the options it is given", copyInAddField},
	{"Snapshot hands out values that later calls and writes leave as they were", valuesSnapshot},
	{"Snapshot hands out fields that later calls and AddField leave as they were", fieldsSnapshot},
}

// valueChanges are the ways in which a caller may change values it passed to
// a store.
var valueChanges = []struct {
	what   string
	change func([]issuefields.Value)
}{
	{"an element of the slice", func(vs []issuefields.Value) {
		vs[0] = issuefields.Value{FieldID: -1, Text: "changed"}
	}},
	{"an element of OptionIDs", func(vs []issuefields.Value) {
		vs[0].OptionIDs[0] = -1
	}},
}

// fieldChanges are the ways in which a caller may change fields it passed to
// a store.
var fieldChanges = []struct {
	what   string
	change func([]issuefields.Field)
}{
	{"an element of the slice", func(fs []issuefields.Field) {
		fs[0] = issuefields.Field{ID: -1, Name: "changed"}
	}},
	{"an element of Options", func(fs []issuefields.Field) {
		fs[0].Options[0] = issuefields.FieldOption{ID: -1, Name: "changed"}
	}},
}

func copyInUpdate(e *env) {
	key := e.anIssue()
	repo := e.repo("octo-org", "hello-world")
	for _, c := range valueChanges {
		values := someValues()
		e.write(key, values)
		c.change(values)
		e.wantShown(repo, 1, someValues(), "after the caller changed "+c.what+" that it gave UpdateIssue")
	}
}

func copyInSetValues(e *env) {
	e.anIssue()
	repo := e.repo("octo-org", "hello-world")
	for _, c := range valueChanges {
		values := someValues()
		e.setValues("octo-org", "hello-world", 1, values)
		c.change(values)
		e.wantShown(repo, 1, someValues(), "after the caller changed "+c.what+" it passed to SetValues")
	}
}

func copyInAddField(e *env) {
	for i, c := range fieldChanges {
		org := fmt.Sprint("org-", i)
		e.addOrgs(org)
		fields := octoFields()
		e.addFields(org, fields)
		c.change(fields)
		if got := e.fields(e.addRepoWithIssue(org, "hello-world")); !equalFields(got, octoFields()) {
			e.r.Errorf("after the caller changed %s it passed to AddField, Snapshot shows the fields %+v, want %+v", c.what, got, octoFields())
		}
	}
}

// valuesSnapshot reads issue 1's values through Snapshot, then reads issue
// 2's and writes values of the same shape to both issues, and checks that the
// first read is still what it was: a store may share its slices but never
// write into one it handed out, nor reuse one buffer for every answer.
func valuesSnapshot(e *env) {
	key := e.anIssue()
	e.addIssues("octo-org", "hello-world", 2)
	repo := e.repo("octo-org", "hello-world")
	other := issueAt{key.owner, key.name, 2}
	e.write(key, someValues())
	e.setValues("octo-org", "hello-world", 2, changedValues())
	shown := e.shown(repo, 1).Issue.Values
	e.values(other)
	e.write(key, changedValues())
	e.write(other, someValues())
	e.setValues("octo-org", "hello-world", 1, changedValues())
	if !equalValues(shown, someValues()) {
		e.r.Errorf("values that Snapshot showed changed to %v after later calls and writes; want them left as %v", shown, someValues())
	}
}

// fieldsSnapshot reads octo-org's fields, then another organization's, and
// adds a field to octo-org, and checks that the first read is still what it
// was.
func fieldsSnapshot(e *env) {
	e.addOrgs("octo-org", "other-org")
	e.addFields("octo-org", octoFields())
	e.addFields("other-org", otherFields())
	repo := e.addRepoWithIssue("octo-org", "hello-world")
	got := e.fields(repo)
	e.fields(e.addRepoWithIssue("other-org", "hello-world"))
	e.addFields("octo-org", []issuefields.Field{{ID: 60, Name: "Later", DataType: issuefields.DataTypeText}})
	e.fields(repo)
	if !equalFields(got, octoFields()) {
		e.r.Errorf("fields that Snapshot showed changed to %+v after later calls and AddField; want them left as %+v", got, octoFields())
	}
}
