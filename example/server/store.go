package server

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/issuefields/issuefields/example/banner"
)

// A onceLoader is a store that keeps its data between starts, and that
// several servers may start on at once. LoadIfEmpty calls load, if the store
// holds no data, with a Store to load into, in one transaction that it
// commits only if load returns nil, so that a load that fails or is killed
// part-way leaves the store empty; it reports whether it called load. Of the
// servers that call it at once, one calls load, and the others wait until
// load has returned and then find the store not empty.
type onceLoader interface {
	LoadIfEmpty(ctx context.Context, load func(ctx context.Context, into Store) error) (loaded bool, err error)
}

// An emptiable is a store that keeps its data between starts and tells
// whether it holds any.
type emptiable interface {
	IsEmpty(ctx context.Context) (bool, error)
}

// loadIfEmpty calls load if s holds no data, and reports whether it did: by
// the LoadIfEmpty of s.Data if it has one, else by its IsEmpty, and always
// for a store with neither. load gets the store to load into: s itself, or the Store of
// LoadIfEmpty's transaction.
func loadIfEmpty(ctx context.Context, s Store, load func(ctx context.Context, into Store) error) (bool, error) {
	switch data := s.Data.(type) {
	case onceLoader:
		return data.LoadIfEmpty(ctx, load)
	case emptiable:
		empty, err := data.IsEmpty(ctx)
		if err != nil || !empty {
			return false, err
		}
	}
	return true, load(ctx, s)
}

// open returns the dataset that the server serves, and the function that
// closes its store: d itself without c.Open; otherwise d's data file over
// the store that c.Open opens. d was loaded into a memstore.Store, which
// checked every rule of the file, so only the store can make the file's data
// fail to load.
func (c Command) open(ctx context.Context, d *dataset, logger *slog.Logger) (*dataset, func(), error) {
	if c.Open == nil {
		return d, func() {}, nil
	}
	s, closeStore, err := c.Open(ctx, logger)
	if err != nil {
		return nil, nil, err
	}
	served, err := serveFrom(ctx, d, s, logger)
	if err != nil {
		closeStore()
		return nil, nil, err
	}
	return served, closeStore, nil
}

// serveFrom returns the dataset that serves s with d's tokens: d's data file
// loaded into s if s holds no data, and what s holds otherwise.
func serveFrom(ctx context.Context, d *dataset, s Store, logger *slog.Logger) (*dataset, error) {
	var loaded *dataset
	var loadErr error
	didLoad, err := loadIfEmpty(ctx, s, func(ctx context.Context, into Store) error {
		loaded, loadErr = d.loadInto(ctx, into, banner.IntoEmpty)
		return loadErr
	})
	_, wholeOrNothing := s.Data.(onceLoader)
	switch {
	case loadErr != nil && wholeOrNothing:
		return nil, fmt.Errorf("%s: loading into the empty store: %w; nothing of it was kept, so the next start loads it again", d.source(), loadErr)
	case loadErr != nil:
		return nil, fmt.Errorf("%s: loading into the empty store: %w; the store may now hold part of the data: empty it before the next start", d.source(), loadErr)
	case err != nil:
		return nil, fmt.Errorf("cannot tell whether the store is empty: %w", err)
	case didLoad:
		logger.Info("loaded the data file into the empty store", "data", d.source())
		return d.inStore(s, loaded.Loaded, banner.IntoEmpty), nil
	}
	logger.Info("the store is not empty: serving what it holds, without loading the data file", "data", d.source())
	over, missing, err := d.Over(ctx, s.Data)
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		logger.Warn("repositories of the data file that the store does not have: its tokens have no permissions there",
			"data", d.source(), "repositories", missing)
	}
	return d.inStore(s, over, banner.NotLoaded), nil
}
