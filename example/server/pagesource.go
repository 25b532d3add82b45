package server

import (
	"context"
	"strings"

	"github.com/issuefields/issuefields/example/standin"
	"github.com/issuefields/issuefields/webhook"
)

// pageSource returns the source of the page of the tools: d's store, with
// the organizations of d's data file and the file's repositories, each
// with its issues of the file, then those that transfers created in it;
// hooks sends the page's redeliveries.
func pageSource(d *dataset, hooks *webhook.Notifier) standin.Source {
	src := standin.Source{Store: d.store.Data, Hooks: d.store.Hooks, Notifier: hooks, Organizations: d.organizations()}
	for _, rd := range d.File.Repositories {
		repo := standin.RepositoryIssues{Owner: rd.Owner, Name: rd.Name}
		for _, is := range rd.Issues {
			repo.Issues = append(repo.Issues, is.Number)
		}
		for _, other := range d.File.Repositories {
			for _, is := range other.Issues {
				if to := is.TransferredTo; to != nil && strings.EqualFold(to.Owner, rd.Owner) && strings.EqualFold(to.Name, rd.Name) {
					repo.Issues = append(repo.Issues, to.Number)
				}
			}
		}
		src.Repositories = append(src.Repositories, repo)
	}
	return src
}

// gatedPage is the source of the page, whose reads and redeliveries pass
// gate, so that a reset is one step for them too.
type gatedPage struct {
	source standin.Source
	gate   *gate
}

// state returns the state that the page shows.
func (p gatedPage) state(ctx context.Context) (st standin.State, err error) {
	err = p.gate.pass(ctx, func() error {
		st, err = p.source.State(ctx)
		return err
	})
	return st, err
}

// redeliver sends delivery deliveryID of hook hookID again.
func (p gatedPage) redeliver(ctx context.Context, hookID, deliveryID int64) error {
	return p.gate.pass(ctx, func() error { return p.source.Redeliver(ctx, hookID, deliveryID) })
}
