package storetest

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/issuefields/issuefields"
)

// fieldManagerCases check issuefields.FieldManager, for a store that
// implements it; for another store each case passes without a call.
var fieldManagerCases = []testCase{
	{"OrganizationFields returns the organization's fields in order, matching the login case-insensitively", orgFieldsInOrder},
	{"OrganizationFields and ChangeFields return ErrNotFound for an unknown organization or a user", orgFieldsNotFound},
	{"ChangeFields calls change with the current fields, stores every attribute of a field and gives new fields and options new IDs, which every Snapshot and OrganizationFields shows at once", changeFieldsAdds},
	{"ChangeFields stores the fields that change returns as given, without validating them", changeFieldsNotValidated},
	{"ChangeFields stores a field or an option with another one's name, or refuses it and changes nothing; names a change keeps are never refused", changeFieldsNameTaken},
	{"ChangeFields keeps the values and versions of issues when it removes no field or option", changeFieldsKeepsValues},
	{"ChangeFields never gives an ID that a field or an option of the organization had before, even a deleted one", changeFieldsNoReuse},
	{"ChangeFields returns an error that wraps the error of change, and changes nothing", changeFieldsChangeFails},
	{"ChangeFields copies the fields that change returns", changeFieldsCopies},
	{"OrganizationFields, Snapshot and ChangeFields hand out fields that later changes leave as they were", changeFieldsSnapshot},
	{"ChangeFields is atomic: concurrent changes of one organization lose no field and give no ID twice", changeFieldsConcurrent},
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

// wantOrgFields reports a failure, citing when, unless OrganizationFields
// and the Snapshot of issue 1 of repo, a repository of org, show want.
func (e *env) wantOrgFields(org string, repo issuefields.Repository, want []issuefields.Field, when string) {
	e.r.Helper()
	if got := e.orgFields(org); !equalFields(got, want) {
		e.r.Errorf("%s: OrganizationFields(%q) = %+v, want %+v", when, org, got, want)
	}
	if got := e.fields(repo); !equalFields(got, want) {
		e.r.Errorf("%s: Snapshot(%q, %q, 1) shows the fields %+v, want %+v", when, repo.Owner, repo.Name, got, want)
	}
}

// without returns a copy of fields without the field id.
func without(fields []issuefields.Field, id int64) []issuefields.Field {
	return slices.DeleteFunc(slices.Clone(fields), func(f issuefields.Field) bool { return f.ID == id })
}

// idsOf returns the IDs of fields and their options.
func idsOf(fields []issuefields.Field) []int64 {
	var ids []int64
	for _, f := range fields {
		ids = append(ids, f.ID)
		for _, o := range f.Options {
			ids = append(ids, o.ID)
		}
	}
	return ids
}

// checkNewIDs reports a failure unless ids, those that ChangeFields gave,
// are positive, distinct, and none of had.
func (e *env) checkNewIDs(ids, had []int64) {
	e.r.Helper()
	for i, id := range ids {
		if id <= 0 || slices.Contains(ids[:i], id) || slices.Contains(had, id) {
			e.r.Errorf("ChangeFields gave the IDs %v, want positive IDs, each given once, that no field or option of the organization had (%v)", ids, had)
			return
		}
	}
}

// octoIssues adds octo-org's repositories hello-world and other with issue 1
// each, holding someValues, and other-org's repository hello-world with issue
// 1 holding a value of its field 10. It returns the names of the three
// issues.
func (e *env) octoIssues() (issueAt, issueAt, issueAt) {
	e.r.Helper()
	e.addOrgs("octo-org", "other-org")
	e.addFields("octo-org", octoFields())
	e.addFields("other-org", otherFields())
	var keys []issueAt
	for _, repo := range []struct{ owner, name string }{{"octo-org", "hello-world"}, {"octo-org", "other"}, {"other-org", "hello-world"}} {
		keys = append(keys, at(e.addRepoWithIssue(repo.owner, repo.name), 1))
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
			return append(current, issuefields.Field{Name: "Notes", DataType: issuefields.DataTypeText}), nil
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
	e.addOrgs("octo-org", "other-org")
	e.addFields("octo-org", octoFields())
	e.addFields("other-org", otherFields())
	repo := e.addRepoWithIssue("octo-org", "hello-world")
	otherRepo := e.addRepoWithIssue("other-org", "hello-world")
	at := time.Date(2026, 3, 10, 12, 30, 45, 0, time.UTC)
	added := issuefields.Field{Name: "Stage", DataType: issuefields.DataTypeSingleSelect, Description: "Where the work is",
		Visibility: issuefields.VisibleToAll, CreatedAt: at, UpdatedAt: at.Add(time.Hour), Options: []issuefields.FieldOption{
			{Name: "Todo", Color: "gray", Description: "Not started", Priority: 1},
			{Name: "Done", Color: "green", Priority: 2},
		}}
	var given []issuefields.Field
	got := e.change("octo-org", func(current []issuefields.Field) []issuefields.Field {
		given = current
		return append(slices.Clip(current), added)
	})
	if !equalFields(given, octoFields()) {
		e.r.Errorf("ChangeFields called change with %+v, want the current fields %+v", given, octoFields())
	}
	if len(got) != len(octoFields())+1 || len(got[len(got)-1].Options) != len(added.Options) {
		e.r.Fatalf("ChangeFields returned %+v, want %d fields, the last with %d options", got, len(octoFields())+1, len(added.Options))
	}
	stored := got[len(got)-1]
	e.checkNewIDs(idsOf(got[len(got)-1:]), octoIDs)
	want := added
	want.ID, want.Options = stored.ID, slices.Clone(added.Options)
	want.Options[0].ID, want.Options[1].ID = stored.Options[0].ID, stored.Options[1].ID
	wantAll := append(octoFields(), want)
	if !equalFields(got, wantAll) {
		e.r.Errorf("ChangeFields returned %+v, want %+v", got, wantAll)
	}
	e.wantOrgFields("octo-org", repo, wantAll, "after ChangeFields")
	e.wantOrgFields("other-org", otherRepo, otherFields(), "after ChangeFields of another organization")
}

func changeFieldsNotValidated(e *env) {
	if e.manager() == nil {
		return
	}
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	repo := e.addRepoWithIssue("octo-org", "hello-world")
	// The fields in another order, the options of one field in another,
	// a field of another data type under its ID, a field with an ID that the
	// organization never had, an option with a color there is not, and a
	// new select field without options.
	next := octoFields()
	slices.Reverse(next)
	slices.Reverse(next[4].Options)
	next[3].DataType = issuefields.DataTypeDate
	next[1].ID = 99
	next[2].Options[0].Color = "black"
	next = append(next, issuefields.Field{Name: "Empty", DataType: issuefields.DataTypeMultiSelect})
	got := e.change("octo-org", func([]issuefields.Field) []issuefields.Field { return next })
	if len(got) != len(next) {
		e.r.Fatalf("ChangeFields returned %+v, want %+v with a new ID for the last field", got, next)
	}
	e.checkNewIDs([]int64{got[len(got)-1].ID}, append(slices.Clone(octoIDs), 99))
	want := slices.Clone(next)
	want[len(want)-1].ID = got[len(got)-1].ID
	if !equalFields(got, want) {
		e.r.Errorf("ChangeFields returned %+v, want %+v", got, want)
	}
	e.wantOrgFields("octo-org", repo, want, "after ChangeFields stored fields that no handler would")
}

func changeFieldsNameTaken(e *env) {
	m := e.manager()
	if m == nil {
		return
	}
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	repo := e.addRepoWithIssue("octo-org", "hello-world")
	withOption := func(current []issuefields.Field, name string) []issuefields.Field {
		next := deepFields(current)
		next[0].Options = append(next[0].Options, issuefields.FieldOption{Name: name, Color: "blue"})
		return next
	}
	for what, change := range map[string]func([]issuefields.Field) []issuefields.Field{
		"a field named PRIORITY": func(current []issuefields.Field) []issuefields.Field {
			return append(slices.Clip(current), issuefields.Field{Name: "PRIORITY", DataType: issuefields.DataTypeText})
		},
		"an option named High\u200b": func(current []issuefields.Field) []issuefields.Field { return withOption(current, "High\u200b") },
	} {
		before := e.orgFields("octo-org")
		stored, err := m.ChangeFields(e.ctx, "octo-org", func(current []issuefields.Field) ([]issuefields.Field, error) {
			return change(current), nil
		})
		if err != nil {
			e.wantOrgFields("octo-org", repo, before, "after ChangeFields refused "+what)
			continue
		}
		// The names are stored: a change that keeps them, and renames
		// another field, is not refused.
		e.change("octo-org", func(current []issuefields.Field) []issuefields.Field {
			next := deepFields(current)
			next[1].Name = "Remarks"
			return next
		})
		want := deepFields(stored)
		want[1].Name = "Remarks"
		e.wantOrgFields("octo-org", repo, want, "after a change that kept "+what)
	}
}

func changeFieldsKeepsValues(e *env) {
	if e.manager() == nil {
		return
	}
	key, _, _ := e.octoIssues()
	repo := e.repo("octo-org", "hello-world")
	before := e.shown(repo, 1).Issue.Version
	e.change("octo-org", func(current []issuefields.Field) []issuefields.Field {
		next := slices.Clone(current)
		next[0].Name = "Urgency"
		next[0].Options = append(slices.Clone(next[0].Options), issuefields.FieldOption{Name: "Critical", Color: "purple"})
		return next
	})
	e.wantShown(repo, 1, someValues(), "after renaming a field and adding an option")
	if _, after := e.values(key); after != before {
		e.r.Errorf("version changed from %q to %q although no value changed", before, after)
	}
}

func changeFieldsNoReuse(e *env) {
	if e.manager() == nil {
		return
	}
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	stage := issuefields.Field{Name: "Stage", DataType: issuefields.DataTypeSingleSelect,
		Options: []issuefields.FieldOption{{Name: "Todo", Color: "gray"}, {Name: "Done", Color: "green"}}}
	size := issuefields.Field{ID: 99, Name: "Size", DataType: issuefields.DataTypeSingleSelect,
		Options: []issuefields.FieldOption{{ID: 98, Name: "S", Color: "blue"}}}
	added := e.change("octo-org", func(current []issuefields.Field) []issuefields.Field {
		return append(slices.Clip(current), stage, size)
	})
	had := slices.Concat(octoIDs, idsOf(added[len(added)-2:]))
	e.change("octo-org", func(current []issuefields.Field) []issuefields.Field {
		return without(without(current, 99), added[len(added)-2].ID)
	})
	for range 3 {
		again := e.change("octo-org", func(current []issuefields.Field) []issuefields.Field {
			return append(slices.Clip(current), stage)
		})
		got := again[len(again)-1:]
		e.checkNewIDs(idsOf(got), had)
		had = append(had, idsOf(got)...)
		e.change("octo-org", func(current []issuefields.Field) []issuefields.Field { return without(current, got[0].ID) })
	}
}

func changeFieldsChangeFails(e *env) {
	m := e.manager()
	if m == nil {
		return
	}
	key, _, _ := e.octoIssues()
	repo := e.repo("octo-org", "hello-world")
	_, before := e.values(key)
	refused := errors.New("refused by the caller")
	for _, change := range []func([]issuefields.Field) ([]issuefields.Field, error){
		func([]issuefields.Field) ([]issuefields.Field, error) { return nil, refused },
		func(current []issuefields.Field) ([]issuefields.Field, error) { return without(current, 10), refused },
	} {
		if _, err := m.ChangeFields(e.ctx, "octo-org", change); !errors.Is(err, refused) {
			e.r.Errorf("ChangeFields error = %v, want an error that wraps the error of change", err)
		}
		e.wantOrgFields("octo-org", repo, octoFields(), "after a change that failed")
		e.wantShown(repo, 1, someValues(), "after a change of the fields that failed")
		if _, after := e.values(key); after != before {
			e.r.Errorf("a change of the fields that failed moved the version from %q to %q", before, after)
		}
	}
}

func changeFieldsCopies(e *env) {
	if e.manager() == nil {
		return
	}
	e.addOrgs("octo-org")
	repo := e.addRepoWithIssue("octo-org", "hello-world")
	for _, c := range fieldChanges {
		next := octoFields()
		stored := deepFields(e.change("octo-org", func([]issuefields.Field) []issuefields.Field { return next }))
		c.change(next)
		e.wantOrgFields("octo-org", repo, stored, fmt.Sprintf("after the caller changed %s that its change returned to ChangeFields", c.what))
	}
}

// changeFieldsSnapshot reads octo-org's fields through OrganizationFields,
// Snapshot and ChangeFields, then changes a field's name and an option's
// color, and checks that the first reads are still what they were.
func changeFieldsSnapshot(e *env) {
	if e.manager() == nil {
		return
	}
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	repo := e.addRepoWithIssue("octo-org", "hello-world")
	listed := e.orgFields("octo-org")
	shown := e.fields(repo)
	returned := e.change("octo-org", slices.Clone[[]issuefields.Field])
	e.change("octo-org", func(current []issuefields.Field) []issuefields.Field {
		next := deepFields(current)
		next[0].Name = "Urgency"
		next[0].Options[0].Color = "orange"
		return next
	})
	e.orgFields("octo-org")
	e.fields(repo)
	for what, got := range map[string][]issuefields.Field{"OrganizationFields": listed, "Snapshot": shown, "ChangeFields": returned} {
		if !equalFields(got, octoFields()) {
			e.r.Errorf("fields that %s handed out changed to %+v after later changes; want them left as %+v", what, got, octoFields())
		}
	}
}

func changeFieldsConcurrent(e *env) {
	if e.manager() == nil {
		return
	}
	e.addOrgs("octo-org")
	e.addFields("octo-org", octoFields())
	returned := make([][]issuefields.Field, writers)
	errs := parallel(func(i int) error {
		var err error
		returned[i], err = e.manager().ChangeFields(e.ctx, "octo-org", func(current []issuefields.Field) ([]issuefields.Field, error) {
			return append(slices.Clip(current), issuefields.Field{Name: fmt.Sprint("Field ", i), DataType: issuefields.DataTypeText}), nil
		})
		return err
	})
	for i, err := range errs {
		mine := fmt.Sprint("Field ", i)
		switch {
		case err != nil:
			e.r.Errorf("writer %d: %v", i, err)
		case !slices.ContainsFunc(returned[i], func(f issuefields.Field) bool { return f.Name == mine }):
			e.r.Errorf("writer %d: ChangeFields returned %+v, without the field %q that its change added", i, returned[i], mine)
		}
	}
	got := e.orgFields("octo-org")
	var names []string
	for _, f := range got[min(len(got), len(octoFields())):] {
		names = append(names, f.Name)
	}
	if !equalFields(got[:min(len(got), len(octoFields()))], octoFields()) || len(names) != writers {
		e.r.Fatalf("after %d writers each added a field, OrganizationFields = %+v, want the organization's fields and %d more", writers, got, writers)
	}
	for i := range writers {
		if !slices.Contains(names, fmt.Sprint("Field ", i)) {
			e.r.Errorf("after %d writers each added a field, the fields %q lack the field of writer %d", writers, names, i)
		}
	}
	e.checkNewIDs(idsOf(got[len(octoFields()):]), octoIDs)
}

// deepFields returns a copy of fields that shares no memory with it.
func deepFields(fields []issuefields.Field) []issuefields.Field {
	out := slices.Clone(fields)
	for i := range out {
		out[i].Options = slices.Clone(out[i].Options)
	}
	return out
}
