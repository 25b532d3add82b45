package storetest

import (
	"errors"
	"slices"
	"time"

	"github.com/issuefields/issuefields"
)

// fieldManagerCases check issuefields.FieldManager, for a store that
// implements it; for another store each case passes without a call.
var fieldManagerCases = []testCase{
	{"OrganizationFields returns the organization's fields in order, matching the login case-insensitively", orgFieldsInOrder},
	{"OrganizationFields and ChangeFields return ErrNotFound for an unknown organization or a user", orgFieldsNotFound},
	{"ChangeFields stores every attribute of a field and gives new fields and options new IDs, which Fields shows at once", changeFieldsAdds},
	{"ChangeFields keeps the values and versions of issues when nothing is removed", changeFieldsKeepsValues},
	{"ChangeFields removes a deleted field's values from every issue of the organization, under new versions", changeFieldsDeletesValues},
	{"ChangeFields removes a deleted option from the values that use it, and a value left without options", changeFieldsDeletesOptions},
	{"ChangeFields never gives an ID that a deleted field or option had", changeFieldsNoReuse},
	{"ChangeFields returns the error of change and changes nothing", changeFieldsChangeFails},
	{"ChangeFields refuses invalid fields, an unknown ID and a new data type, and changes nothing", changeFieldsRefuses},
	{"A CompareAndSwap prepared before a field was deleted fails with ErrVersionConflict", changeFieldsConflicts},
}

// manager returns the store as a FieldManager, or nil if it is not one.
func (e *env) manager() issuefields.FieldManager {
	m, _ := e.s.(issuefields.FieldManager)
	return m
}

// change calls ChangeFields for org with change, and ends the case if it
// fails.
func (e *env) change(org string, change func([]issuefields.Field) []issuefields.Field) []issuefields.Field {
	e.r.Helper()
	fields, err := e.manager().ChangeFields(e.ctx, org, func(current []issuefields.Field) ([]issuefields.Field, error) {
		return change(current), nil
	})
	if err != nil {
		e.r.Fatalf("ChangeFields(%q): %v", org, err)
	}
	return fields
}

// orgFields returns the fields of the organization org.
func (e *env) orgFields(org string) []issuefields.Field {
	e.r.Helper()
	fields, err := e.manager().OrganizationFields(e.ctx, org)
	if err != nil {
		e.r.Fatalf("OrganizationFields(%q): %v", org, err)
	}
	return fields
}

// without returns a copy of fields without the field id.
func without(fields []issuefields.Field, id int64) []issuefields.Field {
	return slices.DeleteFunc(slices.Clone(fields), func(f issuefields.Field) bool { return f.ID == id })
}

// octoIssues adds octo-org's repositories hello-world and other with issue 1
// each, holding someValues, and other-org's repository hello-world with issue
// 1 holding a value of its field 10. It returns the keys of the three issues.
func (e *env) octoIssues() (issuefields.IssueKey, issuefields.IssueKey, issuefields.IssueKey) {
	e.r.Helper()
	e.addOrgs("octo-org", "other-org")
	e.addFields("octo-org", octoFields())
	e.addFields("other-org", otherFields())
	var keys []issuefields.IssueKey
	for _, repo := range []struct{ owner, name string }{{"octo-org", "hello-world"}, {"octo-org", "other"}, {"other-org", "hello-world"}} {
		r := e.addRepo(repo.owner, repo.name, false)
		e.addIssues(repo.owner, repo.name, 1)
		keys = append(keys, e.issue(r, 1).Key())
	}
	e.setValues("octo-org", "hello-world", 1, someValues())
	e.setValues("octo-org", "other", 1, someValues())
	e.setValues("other-org", "hello-world", 1, []issuefields.Value{{FieldID: 10, Text: "team"}})
	return keys[0], keys[1], keys[2]
}

func orgFieldsInOrder(e *env) {
	if e.manager() == nil {
		return
	}
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	if got := e.orgFields("OCTO-org"); !equalFields(got, octoFields()) {
		e.r.Errorf("OrganizationFields = %+v, want %+v", got, octoFields())
	}
}

func orgFieldsNotFound(e *env) {
	m := e.manager()
	if m == nil {
		return
	}
	e.addOrgs("octo-org")
	e.addRepo("octocat", "hello-world", false)
	for _, org := range []string{"nobody", "octocat"} {
		if _, err := m.OrganizationFields(e.ctx, org); !errors.Is(err, issuefields.ErrNotFound) {
			e.r.Errorf("OrganizationFields(%q) error = %v, want ErrNotFound", org, err)
		}
		_, err := m.ChangeFields(e.ctx, org, func(current []issuefields.Field) ([]issuefields.Field, error) {
			return append(current, issuefields.Field{Name: "Notes", DataType: issuefields.Text}), nil
		})
		if !errors.Is(err, issuefields.ErrNotFound) {
			e.r.Errorf("ChangeFields(%q) error = %v, want ErrNotFound", org, err)
		}
	}
}

func changeFieldsAdds(e *env) {
	if e.manager() == nil {
		return
	}
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	repo := e.addRepo("octo-org", "hello-world", false)
	at := time.Date(2026, 3, 10, 12, 30, 45, 0, time.UTC)
	added := issuefields.Field{Name: "Stage", DataType: issuefields.SingleSelect, Description: "Where the work is",
		Visibility: issuefields.VisibleToAll, CreatedAt: at, UpdatedAt: at.Add(time.Hour), Options: []issuefields.Option{
			{Name: "Todo", Color: "gray", Description: "Not started", Priority: 1},
			{Name: "Done", Color: "green", Priority: 2},
		}}
	got := e.change("octo-org", func(current []issuefields.Field) []issuefields.Field { return append(current, added) })
	if len(got) != len(octoFields())+1 {
		e.r.Fatalf("ChangeFields returned %d fields, want %d", len(got), len(octoFields())+1)
	}
	stored := got[len(got)-1]
	ids := []int64{stored.ID, stored.Options[0].ID, stored.Options[1].ID}
	if slices.Min(ids) <= 50 || len(slices.Compact(slices.Sorted(slices.Values(ids)))) != len(ids) {
		e.r.Errorf("new field and options have IDs %v, want distinct IDs above every ID the organization had (50)", ids)
	}
	want := added
	want.ID, want.Options = stored.ID, slices.Clone(added.Options)
	want.Options[0].ID, want.Options[1].ID = stored.Options[0].ID, stored.Options[1].ID
	wantAll := append(octoFields(), want)
	if !equalFields(got, wantAll) {
		e.r.Errorf("ChangeFields returned %+v, want %+v", got, wantAll)
	}
	e.wantFields(repo, wantAll)
	if got := e.orgFields("octo-org"); !equalFields(got, wantAll) {
		e.r.Errorf("OrganizationFields after ChangeFields = %+v, want %+v", got, wantAll)
	}
}

func changeFieldsKeepsValues(e *env) {
	if e.manager() == nil {
		return
	}
	key, _, _ := e.octoIssues()
	_, before := e.values(key)
	e.change("octo-org", func(current []issuefields.Field) []issuefields.Field {
		next := slices.Clone(current)
		next[0].Name = "Urgency"
		next[0].Options = append(slices.Clone(next[0].Options), issuefields.Option{Name: "Critical", Color: "purple"})
		return next
	})
	e.wantValues(key, someValues(), "after renaming a field and adding an option")
	if _, after := e.values(key); after != before {
		e.r.Errorf("version changed from %q to %q although no value changed", before, after)
	}
}

func changeFieldsDeletesValues(e *env) {
	if e.manager() == nil {
		return
	}
	key1, key2, other := e.octoIssues()
	_, before1 := e.values(key1)
	_, beforeOther := e.values(other)
	e.change("octo-org", func(current []issuefields.Field) []issuefields.Field { return without(current, 10) })
	want := slices.DeleteFunc(someValues(), func(v issuefields.Value) bool { return v.FieldID == 10 })
	e.wantValues(key1, want, "after deleting field 10")
	e.wantValues(key2, want, "after deleting field 10, in another repository")
	e.wantValues(other, []issuefields.Value{{FieldID: 10, Text: "team"}}, "after deleting octo-org's field 10, in other-org")
	if _, after := e.values(key1); after == before1 {
		e.r.Errorf("version stayed %q after the issue lost a value", after)
	}
	if _, after := e.values(other); after != beforeOther {
		e.r.Errorf("another organization's issue changed version from %q to %q", beforeOther, after)
	}
	e.wantFields(e.repo("octo-org", "hello-world"), without(octoFields(), 10))
}

func changeFieldsDeletesOptions(e *env) {
	if e.manager() == nil {
		return
	}
	key, _, _ := e.octoIssues()
	e.change("octo-org", func(current []issuefields.Field) []issuefields.Field {
		next := slices.Clone(current)
		for i := range next {
			switch next[i].ID {
			case 30: // Priority: the issue's option 3 goes
				next[i].Options = next[i].Options[1:]
			case 50: // Platforms: option 4 of the issue's 9, 4, 7 goes
				next[i].Options = []issuefields.Option{next[i].Options[0], next[i].Options[2]}
			}
		}
		return next
	})
	want := []issuefields.Value{
		{FieldID: 50, OptionIDs: []int64{9, 7}},
		{FieldID: 20, Number: 0.1},
		{FieldID: 10, Text: "naïve café ☕ — «quoted» 日本語"},
		{FieldID: 40, Date: "2024-02-29"},
	}
	e.wantValues(key, want, "after deleting options 3 and 4")
}

func changeFieldsNoReuse(e *env) {
	if e.manager() == nil {
		return
	}
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	added := e.change("octo-org", func(current []issuefields.Field) []issuefields.Field {
		return append(current, issuefields.Field{Name: "Stage", DataType: issuefields.SingleSelect,
			Options: []issuefields.Option{{Name: "Todo", Color: "gray"}}})
	})
	gone := added[len(added)-1]
	e.change("octo-org", func(current []issuefields.Field) []issuefields.Field { return without(current, gone.ID) })
	again := e.change("octo-org", func(current []issuefields.Field) []issuefields.Field {
		return append(current, issuefields.Field{Name: "Stage", DataType: issuefields.SingleSelect,
			Options: []issuefields.Option{{Name: "Todo", Color: "gray"}}})
	})
	f := again[len(again)-1]
	for _, id := range []int64{f.ID, f.Options[0].ID} {
		if id == gone.ID || id == gone.Options[0].ID || id <= 50 {
			e.r.Errorf("a field added after field %d (option %d) was deleted has ID %d, option %d; want new IDs",
				gone.ID, gone.Options[0].ID, f.ID, f.Options[0].ID)
		}
	}
}

func changeFieldsChangeFails(e *env) {
	m := e.manager()
	if m == nil {
		return
	}
	key, _, _ := e.octoIssues()
	_, before := e.values(key)
	refused := errors.New("refused by the caller")
	_, err := m.ChangeFields(e.ctx, "octo-org", func([]issuefields.Field) ([]issuefields.Field, error) { return nil, refused })
	if !errors.Is(err, refused) {
		e.r.Errorf("ChangeFields error = %v, want the error of change", err)
	}
	e.wantUnchanged(key, before)
}

func changeFieldsRefuses(e *env) {
	m := e.manager()
	if m == nil {
		return
	}
	key, _, _ := e.octoIssues()
	_, before := e.values(key)
	edits := map[string]func([]issuefields.Field) []issuefields.Field{
		"a duplicate name": func(fs []issuefields.Field) []issuefields.Field {
			return append(without(fs, 10), issuefields.Field{Name: "Due", DataType: issuefields.Text})
		},
		"an unknown field ID": func(fs []issuefields.Field) []issuefields.Field {
			return append(without(fs, 10), issuefields.Field{ID: 99, Name: "Other", DataType: issuefields.Text})
		},
		"a new data type": func(fs []issuefields.Field) []issuefields.Field {
			next := without(fs, 10)
			return append(next, issuefields.Field{ID: 10, Name: "Notes", DataType: issuefields.Date})
		},
		"an unknown option ID": func(fs []issuefields.Field) []issuefields.Field {
			next := without(fs, 30)
			return append(next, issuefields.Field{ID: 30, Name: "Priority", DataType: issuefields.SingleSelect,
				Options: []issuefields.Option{{ID: 77, Name: "High", Color: "red"}}})
		},
		"a select field without options": func(fs []issuefields.Field) []issuefields.Field {
			return append(without(fs, 10), issuefields.Field{Name: "Empty", DataType: issuefields.SingleSelect})
		},
	}
	for what, edit := range edits {
		_, err := m.ChangeFields(e.ctx, "octo-org", func(current []issuefields.Field) ([]issuefields.Field, error) {
			return edit(current), nil
		})
		if err == nil {
			e.r.Errorf("ChangeFields accepted %s", what)
		}
	}
	e.wantUnchanged(key, before)
}

// wantUnchanged reports a failure unless octo-org has its fields and the
// issue key its values of octoIssues, at version before.
func (e *env) wantUnchanged(key issuefields.IssueKey, before issuefields.Version) {
	e.r.Helper()
	e.wantFields(e.repo("octo-org", "hello-world"), octoFields())
	e.wantValues(key, someValues(), "after a refused change")
	if _, after := e.values(key); after != before {
		e.r.Errorf("a refused change moved the version from %q to %q", before, after)
	}
}

func changeFieldsConflicts(e *env) {
	if e.manager() == nil {
		return
	}
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	repo := e.addRepo("octo-org", "hello-world", false)
	e.addIssues("octo-org", "hello-world", 1)
	key := e.issue(repo, 1).Key()
	_, v := e.values(key)
	e.change("octo-org", func(current []issuefields.Field) []issuefields.Field { return without(current, 10) })
	_, err := e.s.CompareAndSwap(e.ctx, key, v, []issuefields.Value{{FieldID: 10, Text: "stale"}})
	if !errors.Is(err, issuefields.ErrVersionConflict) {
		e.r.Errorf("CompareAndSwap with the version from before the field went: error = %v, want ErrVersionConflict", err)
	}
	e.wantValues(key, nil, "after a stale CompareAndSwap")
}
