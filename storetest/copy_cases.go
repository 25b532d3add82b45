package storetest

import (
	"fmt"

	"github.com/issuefields/issuefields"
)

// copyCases check that a store copies the slices it is given, and that the
// slices it returns are snapshots that nothing it does later changes.
var copyCases = []testCase{
	{"CompareAndSwap copies the values it is given", copyInSwap},
	{"SetValues copies the values it is given", copyInSetValues},
	{"AddField copies the options it is given", copyInAddField},
	{"Values returns a snapshot that later calls and writes leave as it was", valuesSnapshot},
	{"Fields returns a snapshot that later calls and AddField leave as it was", fieldsSnapshot},
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
		fs[0].Options[0] = issuefields.Option{ID: -1, Name: "changed"}
	}},
}

func copyInSwap(e *env) {
	key := e.anIssue()
	for _, c := range valueChanges {
		_, v := e.values(key)
		values := someValues()
		e.swap(key, v, values)
		c.change(values)
		e.wantValues(key, someValues(), "after the caller changed "+c.what+" it passed to CompareAndSwap")
	}
}

func copyInSetValues(e *env) {
	key := e.anIssue()
	for _, c := range valueChanges {
		values := someValues()
		e.setValues("octo-org", "hello-world", 1, values)
		c.change(values)
		e.wantValues(key, someValues(), "after the caller changed "+c.what+" it passed to SetValues")
	}
}

func copyInAddField(e *env) {
	for i, c := range fieldChanges {
		org := fmt.Sprint("org-", i)
		e.addOrgs(org)
		fields := octoFields()
		e.addFields(org, fields)
		c.change(fields)
		if got := e.fields(e.addRepo(org, "hello-world", false)); !equalFields(got, octoFields()) {
			e.r.Errorf("after the caller changed %s it passed to AddField, Fields = %+v, want %+v", c.what, got, octoFields())
		}
	}
}

// valuesSnapshot reads issue 1's values, then reads issue 2's and writes
// values of the same shape to both issues, and checks that the first read is
// still what it was: a store may share its slices but never write into one it
// handed out, nor reuse one buffer for every answer.
func valuesSnapshot(e *env) {
	key := e.anIssue()
	e.addIssues("octo-org", "hello-world", 2)
	other := issuefields.IssueKey{RepositoryID: key.RepositoryID, Number: 2}
	_, v := e.values(key)
	e.swap(key, v, someValues())
	e.setValues("octo-org", "hello-world", 2, changedValues())
	got, v := e.values(key)
	e.values(other)
	e.swap(key, v, changedValues())
	e.setValues("octo-org", "hello-world", 1, changedValues())
	if !equalValues(got, someValues()) {
		e.r.Errorf("values that Values returned changed to %v after later calls and writes; want them left as %v", got, someValues())
	}
}

// fieldsSnapshot reads octo-org's fields, then another organization's, and
// adds a field to octo-org, and checks that the first read is still what it
// was.
func fieldsSnapshot(e *env) {
	e.addOrgs("octo-org", "other-org")
	e.addFields("octo-org", octoFields())
	e.addFields("other-org", otherFields())
	repo := e.addRepo("octo-org", "hello-world", false)
	got := e.fields(repo)
	e.fields(e.addRepo("other-org", "hello-world", false))
	e.addFields("octo-org", []issuefields.Field{{ID: 60, Name: "Later", DataType: issuefields.Text}})
	e.fields(repo)
	if !equalFields(got, octoFields()) {
		e.r.Errorf("fields that Fields returned changed to %+v after later calls and AddField; want them left as %+v", got, octoFields())
	}
}
