package banner

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/datafile"
	"github.com/issuefields/issuefields/example/internal/inprocess"
	"github.com/issuefields/issuefields/example/internal/lookup"
)

// An example is one request that the start-up message suggests, with the
// status it gets when the requests are made in order.
type example struct {
	comment string
	method  string
	// path is the request's path under the mount prefix.
	path string
	// body is the request's JSON body, or empty.
	body string
	want int
	// headers asks for the response's headers too, for answers whose point
	// is a header, such as a redirect's Location.
	headers bool
}

// examples returns the example requests for d and the token they use: a
// list, an add for each data type, a set and a delete on the first
// repository with fields and a live issue that some token may write to, then
// a renamed or transferred repository, a deleted issue and a transferred
// issue if the data has them. It returns no examples if no repository
// qualifies. p tells what the tokens may do.
func (d *Data) examples(p *prober) (token string, exs []example) {
	for i, rd := range d.File.Repositories {
		repo, live := d.Repositories[i], liveIssues(rd)
		if len(live) == 0 {
			continue
		}
		snap, err := d.Store.Snapshot(p.ctx, repo.Owner, repo.Name, live[0].Number)
		if err != nil || len(snap.Fields) == 0 {
			continue
		}
		for _, td := range d.File.Tokens {
			if p.access(td.Token, repo).mayWrite() {
				return td.Token, d.requests(p, td.Token, rd, repo, snap.Fields)
			}
		}
	}
	return "", nil
}

// liveIssues returns the issues of rd that are neither deleted nor
// transferred.
func liveIssues(rd datafile.Repository) []datafile.Issue {
	var live []datafile.Issue
	for _, is := range rd.Issues {
		if !is.Deleted && is.TransferredTo == nil {
			live = append(live, is)
		}
	}
	return live
}

// requests returns the examples for token on repo, whose file entry is rd
// and whose organization has fields.
func (d *Data) requests(p *prober, token string, rd datafile.Repository, repo issuefields.Repository, fields []issuefields.Field) []example {
	live := liveIssues(rd)
	shown, target := live[0], live[0]
	if i := slices.IndexFunc(live, func(is datafile.Issue) bool { return len(is.Values) > 0 }); i >= 0 {
		shown = live[i]
	}
	if i := slices.IndexFunc(live, func(is datafile.Issue) bool { return len(is.Values) == 0 }); i >= 0 {
		target = live[i]
	}
	name := repo.Owner + "/" + repo.Name
	exs := []example{{
		comment: fmt.Sprintf("List the values of %s#%d", name, shown.Number),
		method:  http.MethodGet, path: inprocess.ValuesPath(repo.Owner, repo.Name, shown.Number), want: http.StatusOK,
	}}
	writePath := inprocess.ValuesPath(repo.Owner, repo.Name, target.Number)
	var types []issuefields.DataType
	var set []valueItem
	var deleted issuefields.Field
	for _, f := range fields {
		if slices.Contains(types, f.DataType) {
			continue
		}
		types = append(types, f.DataType)
		item := valueItem{FieldID: f.ID, Value: sampleValue(f)}
		exs = append(exs, example{
			comment: fmt.Sprintf("Add a %s value (field %d, %q) to %s#%d", f.DataType, f.ID, f.Name, name, target.Number),
			method:  http.MethodPost, path: writePath, body: requestBody(item), want: http.StatusOK,
		})
		if f.DataType != issuefields.DataTypeMultiSelect && len(set) < 2 {
			if len(set) == 0 {
				deleted = f
			}
			set = append(set, item)
		}
	}
	exs = append(exs, example{
		comment: fmt.Sprintf("Set the values of %s#%d: afterwards it has exactly these", name, target.Number),
		method:  http.MethodPut, path: writePath, body: requestBody(set...), want: http.StatusOK,
	})
	if len(set) > 0 {
		exs = append(exs, example{
			comment: fmt.Sprintf("Delete the value of field %d (%q) from %s#%d", deleted.ID, deleted.Name, name, target.Number),
			method:  http.MethodDelete, path: fmt.Sprintf("%s/%d", writePath, deleted.ID), want: http.StatusNoContent,
			headers: true,
		})
	}
	return append(exs, d.oddities(p, token)...)
}

// oddities returns examples of a renamed or transferred repository, a
// deleted issue and a transferred issue, the first of each in the file that
// token may list.
func (d *Data) oddities(p *prober, token string) []example {
	var renamed, deleted, transferred *example
	for i, rd := range d.File.Repositories {
		repo := d.Repositories[i]
		if !p.access(token, repo).mayList() {
			continue
		}
		if live := liveIssues(rd); renamed == nil && len(rd.RenamedFrom) > 0 && len(live) > 0 {
			former := rd.FormerNames()
			owner, name, _ := strings.Cut(former[len(former)-1], "/")
			if found, err := lookup.Repository(p.ctx, d.Store, owner, name); err == nil && found.ID == repo.ID {
				moved := "renamed"
				if !strings.EqualFold(owner, repo.Owner) {
					moved = "transferred"
				}
				renamed = &example{
					comment: fmt.Sprintf("%s/%s was %s to %s/%s: lists are redirected", owner, name, moved, repo.Owner, repo.Name),
					method:  http.MethodGet, path: inprocess.ValuesPath(owner, name, live[0].Number),
					want: http.StatusMovedPermanently, headers: true,
				}
			}
		}
		for _, is := range rd.Issues {
			switch {
			case is.Deleted && deleted == nil:
				deleted = &example{
					comment: fmt.Sprintf("%s/%s#%d was deleted", repo.Owner, repo.Name, is.Number),
					method:  http.MethodGet, path: inprocess.ValuesPath(repo.Owner, repo.Name, is.Number), want: http.StatusGone,
				}
			case is.TransferredTo != nil && transferred == nil:
				to := is.TransferredTo
				dst, err := lookup.Repository(p.ctx, d.Store, to.Owner, to.Name)
				if err != nil || !p.access(token, dst).mayList() {
					continue
				}
				transferred = &example{
					comment: fmt.Sprintf("%s/%s#%d was transferred to %s/%s#%d: lists are redirected", repo.Owner, repo.Name, is.Number, dst.Owner, dst.Name, to.Number),
					method:  http.MethodGet, path: inprocess.ValuesPath(repo.Owner, repo.Name, is.Number),
					want: http.StatusMovedPermanently, headers: true,
				}
			}
		}
	}
	var exs []example
	for _, ex := range []*example{renamed, deleted, transferred} {
		if ex != nil {
			exs = append(exs, *ex)
		}
	}
	return exs
}

// valueItem is one item of an add or set request.
type valueItem struct {
	FieldID int64 `json:"field_id"`
	Value   any   `json:"value"`
}

// requestBody returns the JSON body of an add or set request with items.
func requestBody(items ...valueItem) string {
	b, err := json.Marshal(struct {
		Values []valueItem `json:"issue_field_values"`
	}{append([]valueItem{}, items...)})
	if err != nil {
		panic(err) // the items hold only strings, numbers and string slices
	}
	return string(b)
}

// sampleValue returns a value for field f in the API's request format.
func sampleValue(f issuefields.Field) any {
	switch f.DataType {
	case issuefields.DataTypeSingleSelect:
		return f.Options[0].Name
	case issuefields.DataTypeMultiSelect:
		var names []string
		for _, o := range f.Options[:min(2, len(f.Options))] {
			names = append(names, o.Name)
		}
		return names
	case issuefields.DataTypeNumber:
		return 5
	case issuefields.DataTypeDate:
		return "2026-03-31"
	}
	return "Needs a design review"
}
