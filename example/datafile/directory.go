package datafile

import (
	"strconv"
	"strings"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// fileDirectory is the webhook.Directory of a data file: the titles, states,
// authors and bodies of its issues, the descriptions of its repositories,
// and which of its accounts are organizations. What the file does not say is
// the webhook package's default.
type fileDirectory struct {
	issues map[string]Issue      // by issueName
	repos  map[string]Repository // by lower-cased "owner/name"
	orgs   map[string]bool       // lower-cased logins
}

// Directory returns the webhook.Directory of f, which gives webhook
// deliveries what the file says and the store does not keep. An issue that
// the file transfers is found at the place it was transferred to, as the
// store has it.
func (f *File) Directory() webhook.Directory {
	d := &fileDirectory{issues: map[string]Issue{}, repos: map[string]Repository{}, orgs: map[string]bool{}}
	for _, od := range f.Organizations {
		d.orgs[strings.ToLower(od.Login)] = true
	}
	for _, rd := range f.Repositories {
		d.repos[strings.ToLower(rd.Owner+"/"+rd.Name)] = rd
		for _, is := range rd.Issues {
			owner, name, number := rd.Owner, rd.Name, is.Number
			if to := is.TransferredTo; to != nil {
				owner, name, number = to.Owner, to.Name, to.Number
			}
			d.issues[issueName(owner, name, number)] = is
		}
	}
	return d
}

// issueName is the key of issue number of owner/name.
func issueName(owner, name string, number int64) string {
	return strings.ToLower(owner+"/"+name) + "#" + strconv.FormatInt(number, 10)
}

func (d *fileDirectory) Issue(repo issuefields.Repository, number int64) webhook.IssueDetails {
	is := d.issues[issueName(repo.Owner, repo.Name, number)]
	return webhook.IssueDetails{Title: is.Title, State: is.State, Author: is.Author, Body: is.Body}
}

func (d *fileDirectory) Repository(repo issuefields.Repository) webhook.RepositoryDetails {
	return webhook.RepositoryDetails{Description: d.repos[strings.ToLower(repo.Owner+"/"+repo.Name)].Description}
}

func (d *fileDirectory) Account(login string) webhook.AccountDetails {
	if d.orgs[strings.ToLower(login)] {
		return webhook.AccountDetails{Type: "Organization"}
	}
	return webhook.AccountDetails{}
}
