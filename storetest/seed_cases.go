package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/issuefields/issuefields"
)

// seedCases check what the seed methods refuse. Each case fills the store
// with fill, makes calls that one rule forbids, and checks that each fails,
// with the sentinel error that says what is missing where there is one, and
// changes nothing that Store.Snapshot shows. Where a store must refuse what
// [issuefields.ValidateFields] refuses, the case checks that the error gives
// its reason too.
var seedCases = []testCase{
	{"AddOrganization refuses an empty login and changes nothing", addOrganizationEmpty},
	{"AddOrganization refuses the login of an organization or a user, in any case, and changes nothing", addOrganizationTaken},
	{"AddField returns ErrNotFound for an organization that the store does not have, and changes nothing", addFieldUnknownOrganization},
	{"AddField refuses a user and changes nothing", addFieldUser},
	{"AddField refuses a field whose ID is not positive and changes nothing", addFieldIDNotPositive},
	{"AddField refuses a field without a name and changes nothing", addFieldNoName},
	{"AddField refuses a field with the ID of another field of the organization and changes nothing", addFieldIDTaken},
	{"AddField refuses a field with the name of another field of the organization and changes nothing", addFieldNameTaken},
	{"AddField refuses a field of an unknown data type and changes nothing", addFieldUnknownDataType},
	{"AddField refuses a select field without options and changes nothing", addFieldNoOptions},
	{"AddField refuses options on a field that is not a select field and changes nothing", addFieldOptionsNotSelect},
	{"AddField refuses an option whose ID is not positive and changes nothing", addFieldOptionIDNotPositive},
	{"AddField refuses an option without a name and changes nothing", addFieldOptionNoName},
	{"AddField refuses a field with a duplicate option ID and changes nothing", addFieldDuplicateOptionID},
	{"AddField refuses a field with a duplicate option name and changes nothing", addFieldDuplicateOptionName},
	{"AddField refuses an option whose color is not one of the eight and changes nothing", addFieldOptionColor},
	{"AddRepository refuses an owner or a name that is empty or has a slash, and changes nothing", addRepositoryBadName},
	{"AddRepository refuses the current owner and name of another repository, in any case, and changes nothing", addRepositoryTaken},
	{"RenameRepository returns ErrNotFound for a repository that no name finds, and changes nothing", renameUnknown},
	{"RenameRepository refuses a new name that is empty or has a slash, and changes nothing", renameBadName},
	{"RenameRepository refuses the current name of another repository of the owner, in any case, and changes nothing", renameTaken},
	{"TransferRepository returns ErrNotFound for a repository that no name finds, and changes nothing", transferRepoUnknown},
	{"TransferRepository refuses a new owner that is empty or has a slash, and changes nothing", transferRepoBadOwner},
	{"TransferRepository refuses a new owner that has a repository of that name, and changes nothing", transferRepoTaken},
	{"AddIssue returns ErrNotFound for a repository that no name finds, and changes nothing", addIssueUnknownRepository},
	{"AddIssue refuses a number that is not positive and changes nothing", addIssueNumberNotPositive},
	{"AddIssue refuses a number that the repository has or had, live, deleted or transferred, and changes nothing", addIssueNumberUsed},
	{"DeleteIssue returns ErrIssueDeleted for a deleted issue and ErrNotFound for one that never was or was transferred away, and changes nothing", deleteIssueNotLive},
	{"TransferIssue returns ErrIssueDeleted for a deleted issue and ErrNotFound for one that never was or was transferred away, and changes nothing", transferIssueNotLive},
	{"TransferIssue returns ErrNotFound for a destination repository that no name finds, and changes nothing", transferIssueUnknownRepository},
	{"TransferIssue returns ErrIssueDeleted for a deleted destination and ErrNotFound for one transferred away, and changes nothing", transferIssueOntoNotLive},
	{"TransferIssue refuses to move an issue onto itself and changes nothing", transferIssueOntoItself},
	{"TransferIssue refuses a destination number that is not positive and changes nothing", transferIssueNumberNotPositive},
	{"SetValues returns ErrIssueDeleted for a deleted issue and ErrNotFound for one that never was or was transferred away, and changes nothing", setValuesNotLive},
	{"SetIssue returns ErrIssueDeleted for a deleted issue and ErrNotFound for one that never was or was transferred away, and changes nothing", setIssueNotLive},
}

func addOrganizationEmpty(e *env) {
	e.fill()
	e.refuses(call.AddOrganization(""), nil, "")
}

func addOrganizationTaken(e *env) {
	e.fill()
	for _, login := range []string{"octo-org", "Octo-Org", "octocat", "OCTOCAT"} {
		e.refuses(call.AddOrganization(login), nil, "")
	}
}

func addFieldUnknownOrganization(e *env) {
	e.fill()
	e.refuses(call.AddField("nobody", aField(2, "Notes", issuefields.DataTypeText)), issuefields.ErrNotFound, "")
}

func addFieldUser(e *env) {
	e.fill()
	for _, login := range []string{"octocat", "OctoCat"} {
		e.refuses(call.AddField(login, aField(2, "Notes", issuefields.DataTypeText)), nil, "")
	}
}

func addFieldIDNotPositive(e *env) {
	e.fill()
	for _, id := range []int64{0, -1} {
		e.refuses(call.AddField("octo-org", aField(id, "Notes", issuefields.DataTypeText)), nil, "id is not positive")
	}
}

func addFieldNoName(e *env) {
	e.fill()
	e.refuses(call.AddField("octo-org", aField(2, "", issuefields.DataTypeText)), nil, "empty name")
}

func addFieldIDTaken(e *env) {
	e.fill()
	e.refuses(call.AddField("octo-org", aField(1, "Notes", issuefields.DataTypeText)), nil, `id already used by field "Priority"`)
}

func addFieldNameTaken(e *env) {
	e.fill()
	for _, name := range []string{"Priority", "PRIORITY", "Ｐriority", "Priority\u200b"} {
		e.refuses(call.AddField("octo-org", aField(2, name, issuefields.DataTypeText)), nil, fmt.Sprintf("duplicate field name %q", name))
	}
}

func addFieldUnknownDataType(e *env) {
	e.fill()
	for _, dt := range []issuefields.DataType{"color", "", "Text"} {
		e.refuses(call.AddField("octo-org", aField(2, "Notes", dt)), nil, fmt.Sprintf("unknown data type %q", dt))
	}
}

func addFieldNoOptions(e *env) {
	e.fill()
	for _, dt := range []issuefields.DataType{issuefields.DataTypeSingleSelect, issuefields.DataTypeMultiSelect} {
		e.refuses(call.AddField("octo-org", aField(2, "Size", dt)), nil, fmt.Sprintf("a %s field needs at least one option", dt))
	}
}

func addFieldOptionsNotSelect(e *env) {
	e.fill()
	for _, dt := range []issuefields.DataType{issuefields.DataTypeText, issuefields.DataTypeNumber, issuefields.DataTypeDate} {
		e.refuses(call.AddField("octo-org", aField(2, "Notes", dt, high)), nil, fmt.Sprintf("a %s field has no options", dt))
	}
}

func addFieldOptionIDNotPositive(e *env) {
	e.fill()
	e.refuses(call.AddField("octo-org", aField(3, "Size", issuefields.DataTypeSingleSelect, issuefields.FieldOption{Name: "S", Color: "blue"})),
		nil, `option "S": id 0 is not positive`)
	e.refuses(call.AddField("octo-org", aField(3, "Size", issuefields.DataTypeMultiSelect, high, issuefields.FieldOption{ID: -2, Name: "M", Color: "blue"})),
		nil, `option "M": id -2 is not positive`)
}

func addFieldOptionNoName(e *env) {
	e.fill()
	e.refuses(call.AddField("octo-org", aField(3, "Size", issuefields.DataTypeSingleSelect, high, issuefields.FieldOption{ID: 1, Color: "blue"})),
		nil, "option 1: empty name")
}

func addFieldDuplicateOptionID(e *env) {
	e.fill()
	e.refuses(call.AddField("octo-org", aField(3, "Size", issuefields.DataTypeSingleSelect, high, issuefields.FieldOption{ID: 7, Name: "Low", Color: "blue"})),
		nil, "duplicate option id 7")
}

func addFieldDuplicateOptionName(e *env) {
	e.fill()
	e.refuses(call.AddField("octo-org", aField(3, "Size", issuefields.DataTypeMultiSelect, high, issuefields.FieldOption{ID: 8, Name: "High", Color: "blue"})),
		nil, `duplicate option name "High"`)
}

func addFieldOptionColor(e *env) {
	e.fill()
	for _, color := range []string{"", "black", "Red"} {
		e.refuses(call.AddField("octo-org", aField(3, "Size", issuefields.DataTypeSingleSelect, issuefields.FieldOption{ID: 8, Name: "S", Color: color})),
			nil, fmt.Sprintf("color %q is not one of", color))
	}
}

func addRepositoryBadName(e *env) {
	e.fill()
	for _, name := range [][2]string{{"", "new"}, {"octo-org", ""}, {"", ""}, {"octo/org", "new"}, {"octo-org", "a/b"}} {
		e.refuses(call.AddRepository(name[0], name[1]), nil, "")
	}
}

func addRepositoryTaken(e *env) {
	e.fill()
	for _, name := range [][2]string{{"octo-org", "hello-world"}, {"Octo-Org", "Hello-World"}, {"OCTOCAT", "SPOON-KNIFE"}} {
		e.refuses(call.AddRepository(name[0], name[1]), nil, "")
	}
}

func renameUnknown(e *env) {
	e.fill()
	e.refuses(call.RenameRepository("octo-org", "nope", "renamed"), issuefields.ErrNotFound, "")
	e.refuses(call.RenameRepository("nobody", "hello-world", "renamed"), issuefields.ErrNotFound, "")
}

func renameBadName(e *env) {
	e.fill()
	for _, name := range []string{"", "a/b"} {
		e.refuses(call.RenameRepository("octo-org", "hello-world", name), nil, "")
	}
}

func renameTaken(e *env) {
	e.fill()
	e.refuses(call.RenameRepository("octo-org", "hello-world", "Spoon-Knife"), nil, "")
	e.refuses(call.RenameRepository("octo-org", "spoon-knife", "hello-world"), nil, "")
}

func transferRepoUnknown(e *env) {
	e.fill()
	e.refuses(call.TransferRepository("nobody", "hello-world", "octocat"), issuefields.ErrNotFound, "")
	e.refuses(call.TransferRepository("octo-org", "nope", "octocat"), issuefields.ErrNotFound, "")
}

func transferRepoBadOwner(e *env) {
	e.fill()
	for _, owner := range []string{"", "a/b"} {
		e.refuses(call.TransferRepository("octo-org", "hello-world", owner), nil, "")
	}
}

func transferRepoTaken(e *env) {
	e.fill()
	e.refuses(call.TransferRepository("octocat", "spoon-knife", "octo-org"), nil, "")
	e.refuses(call.TransferRepository("octo-org", "spoon-knife", "OctoCat"), nil, "")
}

func addIssueUnknownRepository(e *env) {
	e.fill()
	e.refuses(call.AddIssue("octo-org", "nope", 1), issuefields.ErrNotFound, "")
}

func addIssueNumberNotPositive(e *env) {
	e.fill()
	for _, n := range []int64{0, -1} {
		e.refuses(call.AddIssue("octo-org", "hello-world", n), nil, "")
	}
}

func addIssueNumberUsed(e *env) {
	e.fill()
	for _, n := range []int64{1, 2, 3, 4} {
		e.refuses(call.AddIssue("Octo-Org", "Hello-World", n), nil, "")
	}
}

// notLive lists issues of the fill that are not live issues, with the
// sentinel error that says so.
var notLive = []struct {
	repo   string
	number int64
	target error
}{
	{"hello-world", 2, issuefields.ErrIssueDeleted},
	{"hello-world", 3, issuefields.ErrNotFound}, // transferred away
	{"hello-world", 5, issuefields.ErrNotFound}, // never added
	{"nope", 1, issuefields.ErrNotFound},        // of no repository
}

func deleteIssueNotLive(e *env) {
	e.fill()
	for _, is := range notLive {
		e.refuses(call.DeleteIssue("octo-org", is.repo, is.number), is.target, "")
	}
}

func transferIssueNotLive(e *env) {
	e.fill()
	for _, is := range notLive {
		e.refuses(call.TransferIssue("octo-org", is.repo, is.number, "octocat", "spoon-knife", 1), is.target, "")
	}
}

func transferIssueUnknownRepository(e *env) {
	e.fill()
	e.refuses(call.TransferIssue("octo-org", "hello-world", 1, "octocat", "nope", 1), issuefields.ErrNotFound, "")
}

func transferIssueOntoNotLive(e *env) {
	e.fill()
	e.refuses(call.TransferIssue("octo-org", "hello-world", 1, "octo-org", "hello-world", 2), issuefields.ErrIssueDeleted, "")
	e.refuses(call.TransferIssue("octo-org", "hello-world", 1, "octo-org", "hello-world", 3), issuefields.ErrNotFound, "")
}

func transferIssueOntoItself(e *env) {
	e.fill()
	e.refuses(call.TransferIssue("octo-org", "hello-world", 1, "Octo-Org", "Hello-World", 1), nil, "")
	e.refuses(call.TransferIssue("octo-org", "hello-world", 4, "octo-org", "hello-world", 4), nil, "")
}

func transferIssueNumberNotPositive(e *env) {
	e.fill()
	for _, n := range []int64{0, -1} {
		e.refuses(call.TransferIssue("octo-org", "hello-world", 1, "octocat", "spoon-knife", n), nil, "")
	}
}

func setValuesNotLive(e *env) {
	e.fill()
	for _, is := range notLive {
		e.refuses(call.SetValues("octo-org", is.repo, is.number, someValues()), is.target, "")
	}
}

func setIssueNotLive(e *env) {
	e.fill()
	for _, is := range notLive {
		content := fullIssue()
		content.Number = is.number
		e.refuses(call.SetIssue("octo-org", is.repo, content), is.target, "")
	}
}

// high is an option of the fields that the cases add.
var high = issuefields.FieldOption{ID: 7, Name: "High", Color: "red"}

// aField returns a field with the given ID, name, data type and options.
func aField(id int64, name string, dt issuefields.DataType, options ...issuefields.FieldOption) issuefields.Field {
	return issuefields.Field{ID: id, Name: name, DataType: dt, Options: options}
}

// fill adds what the cases of refused seed calls start from: the
// organization octo-org with the field Priority (ID 1), the user octocat, the
// repositories octo-org/hello-world, octo-org/spoon-knife and
// octocat/spoon-knife, and the issues 1 to 4 of octo-org/hello-world: 1 live
// with a value, 2 deleted, 3 transferred to 4.
func (e *env) fill() {
	e.r.Helper()
	e.addOrgs("octo-org")
	e.addFields("octo-org", []issuefields.Field{aField(1, "Priority", issuefields.DataTypeSingleSelect,
		issuefields.FieldOption{ID: 1, Name: "High", Color: "red"}, issuefields.FieldOption{ID: 2, Name: "Low", Color: "green"})})
	e.addRepo("octo-org", "hello-world", false)
	e.addRepo("octo-org", "spoon-knife", false)
	e.addRepo("octocat", "spoon-knife", true)
	e.addIssues("octo-org", "hello-world", 1, 2, 3)
	e.setValues("octo-org", "hello-world", 1, []issuefields.Value{{FieldID: 1, OptionIDs: []int64{2}}})
	e.deleteIssue("octo-org", "hello-world", 2)
	e.transferIssue("octo-org", "hello-world", 3, "octo-org", "hello-world", 4)
}

// refuses makes the call c, and reports a failure unless it returns an error
// that wraps target, if target is not nil, and says reason, if reason is not
// empty, and unless the store shows the same afterwards as before.
func (e *env) refuses(c seedCall, target error, reason string) {
	e.r.Helper()
	before := e.observe()
	err := c.do(e.s)
	switch {
	case err == nil:
		e.r.Errorf("%s succeeded, want an error", c.desc)
	case target != nil && !errors.Is(err, target):
		e.r.Errorf("%s = %v, want an error wrapping %v", c.desc, err, target)
	case reason != "" && !strings.Contains(err.Error(), reason):
		e.r.Errorf("%s = %v, want an error that says %s", c.desc, err, reason)
	}
	if after := e.observe(); !slices.Equal(after, before) {
		var diff []string
		for _, line := range before {
			if !slices.Contains(after, line) {
				diff = append(diff, "- "+line)
			}
		}
		for _, line := range after {
			if !slices.Contains(before, line) {
				diff = append(diff, "+ "+line)
			}
		}
		e.r.Errorf("%s changed what the store shows:\n\t%s", c.desc, strings.Join(diff, "\n\t"))
	}
}

// observe describes, one line for each answer, what Store.Snapshot shows of
// the accounts, repositories and issues that the cases of refused seed calls
// use: of an issue that is where it was asked for, its fields, values and
// version too.
func (e *env) observe() []string {
	var lines []string
	for _, owner := range []string{"octo-org", "octocat", "nobody", "", "octo/org", "a/b"} {
		for _, name := range []string{"hello-world", "spoon-knife", "renamed", "new", "nope", "", "a/b"} {
			for n := int64(-1); n <= 5; n++ {
				lines = append(lines, fmt.Sprintf("Snapshot(%q, %q, %d) = %s", owner, name, n, e.describeSnapshot(owner, name, n)))
			}
		}
	}
	return lines
}

// describeSnapshot returns what Snapshot returns for issue number of
// owner/name, but for what the handler does not read.
func (e *env) describeSnapshot(owner, name string, number int64) string {
	snap, err := e.s.Snapshot(e.ctx, owner, name, number)
	switch {
	case err != nil:
		return fmt.Sprint("error ", err)
	case snap.IssueErr != nil:
		return fmt.Sprintf("%+v, issue error %v", snap.Repository, snap.IssueErr)
	case snap.Issue.Key() != issuefields.IssueKey{RepositoryID: snap.Repository.ID, Number: number}:
		return fmt.Sprintf("%+v, issue %+v", snap.Repository, snap.Issue)
	}
	return fmt.Sprintf("%+v, issue %+v, fields %+v, revision %q", snap.Repository, snap.Issue, snap.Fields, snap.Revision)
}

// A seedCall is one call of a seed method.
type seedCall struct {
	desc string // the call as Go source
	do   func(s Store) error
}

// call makes seedCalls: call.AddField(org, f) returns the call s.AddField(org,
// f), and so on for each seed method.
var call seedCalls

// seedCalls has a method of each seed method's name that returns a call of
// it.
type seedCalls struct{}

func (seedCalls) AddOrganization(login string) seedCall {
	return seedCall{fmt.Sprintf("AddOrganization(%q)", login), func(s Store) error { return s.AddOrganization(login) }}
}

func (seedCalls) AddField(org string, f issuefields.Field) seedCall {
	return seedCall{fmt.Sprintf("AddField(%q, %+v)", org, f), func(s Store) error { return s.AddField(org, f) }}
}

func (seedCalls) AddRepository(owner, name string) seedCall {
	return seedCall{fmt.Sprintf("AddRepository(%q, %q, false)", owner, name), func(s Store) error {
		_, err := s.AddRepository(owner, name, false)
		return err
	}}
}

func (seedCalls) RenameRepository(owner, name, newName string) seedCall {
	return seedCall{fmt.Sprintf("RenameRepository(%q, %q, %q)", owner, name, newName),
		func(s Store) error { return s.RenameRepository(owner, name, newName) }}
}

func (seedCalls) TransferRepository(owner, name, newOwner string) seedCall {
	return seedCall{fmt.Sprintf("TransferRepository(%q, %q, %q)", owner, name, newOwner),
		func(s Store) error { return s.TransferRepository(owner, name, newOwner) }}
}

func (seedCalls) AddIssue(owner, repo string, number int64) seedCall {
	return seedCall{fmt.Sprintf("AddIssue(%q, %q, %d)", owner, repo, number),
		func(s Store) error { return s.AddIssue(owner, repo, number) }}
}

func (seedCalls) DeleteIssue(owner, repo string, number int64) seedCall {
	return seedCall{fmt.Sprintf("DeleteIssue(%q, %q, %d)", owner, repo, number),
		func(s Store) error { return s.DeleteIssue(owner, repo, number) }}
}

func (seedCalls) TransferIssue(owner, repo string, number int64, toOwner, toRepo string, toNumber int64) seedCall {
	return seedCall{fmt.Sprintf("TransferIssue(%q, %q, %d, %q, %q, %d)", owner, repo, number, toOwner, toRepo, toNumber),
		func(s Store) error { return s.TransferIssue(owner, repo, number, toOwner, toRepo, toNumber) }}
}

func (seedCalls) SetValues(owner, repo string, number int64, values []issuefields.Value) seedCall {
	return seedCall{fmt.Sprintf("SetValues(%q, %q, %d, %v)", owner, repo, number, values),
		func(s Store) error { return s.SetValues(owner, repo, number, values) }}
}

func (seedCalls) SetIssue(owner, repo string, issue issuefields.Issue) seedCall {
	return seedCall{fmt.Sprintf("SetIssue(%q, %q, %+v)", owner, repo, issue),
		func(s Store) error { return s.SetIssue(owner, repo, issue) }}
}
