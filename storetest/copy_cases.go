package storetest

import (
	"fmt"

	"github.com/issuefields/issuefields"
)

// copyCases check that a store and its callers share no slices.
var copyCases = []testCase{
	{"CompareAndSwap copies the values it is given", copyInSwap},
	{"SetValues copies the values it is given", copyInSetValues},
	{"AddField copies the options it is given", copyInAddField},
	{"Values returns values that the caller may change", copyOutValues},
	{"Fields returns fields that the caller may change", copyOutFields},
}

// valueChanges are the ways in which a caller may change values it passed to
// a store or got from it.
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
// a store or got from it.
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

func copyOutValues(e *env) {
	key := e.anIssue()
	_, v := e.values(key)
	e.swap(key, v, someValues())
	for _, c := range valueChanges {
		got, _ := e.values(key)
		c.change(got)
		e.wantValues(key, someValues(), "after the caller changed "+c.what+" that Values returned")
	}
}

func copyOutFields(e *env) {
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	repo := e.addRepo("octo-org", "hello-world", false)
	for _, c := range fieldChanges {
		c.change(e.fields(repo))
		if got := e.fields(repo); !equalFields(got, octoFields()) {
			e.r.Errorf("after the caller changed %s that Fields returned, Fields = %+v, want %+v", c.what, got, octoFields())
		}
	}
}
