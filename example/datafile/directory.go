package datafile

import (
	"strings"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// fileDirectory is the webhook.Directory of a data file: the descriptions
// of its repositories, and which of its accounts are organizations. (Its
// issues' titles, states, authors and bodies are in the store's records.)
// What the file does not say is the webhook package's default.
type fileDirectory struct {
	repos map[string]Repository // by lower-cased "owner/name"
	orgs  map[string]bool       // lower-cased logins
}

// Directory returns the webhook.Directory of f, which gives webhook
// deliveries what the file says and the store does not keep.
func (f *File) Directory() webhook.Directory {
	d := &fileDirectory{repos: map[string]Repository{}, orgs: map[string]bool{}}
	for _, od := range f.Organizations {
		d.orgs[strings.ToLower(od.Login)] = true
	}
	for _, rd := range f.Repositories {
		d.repos[strings.ToLower(rd.Owner+"/"+rd.Name)] = rd
	}
	return d
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
