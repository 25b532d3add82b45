package server

import (
	"context"
	"fmt"

	"github.com/issuefields/issuefields/example/banner"
	"github.com/issuefields/issuefields/example/datafile"
	"github.com/issuefields/issuefields/memstore"
)

// A dataset is a data file in the store that serves it, with the file's
// tokens over that store and what the start-up message shows of it.
type dataset struct {
	// name is the name of the data file as the command line gave it, or ""
	// for the built-in demo data.
	name  string
	file  *datafile.File
	store Store
	*datafile.Loaded
	// loading says how the file's data reached the store.
	loading banner.Loading
}

// demoName is the name of the built-in demo data in messages.
const demoName = "demo.json"

// readData loads the data file name, or the built-in demo data if name is
// empty, into a new memstore.Store, which checks every rule of the file. An
// error begins with the name of the file.
func readData(ctx context.Context, name string) (*dataset, error) {
	var err error
	read := &dataset{name: name}
	if name == "" {
		read.file = datafile.Demo()
	} else if read.file, err = datafile.Read(name); err != nil {
		return nil, err
	}
	d, err := read.loadInto(ctx, memstore.New(), banner.InMemory)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", read.source(), err)
	}
	return d, nil
}

// loadInto returns the dataset of d's data file loaded into s, an empty
// store, in the way how.
func (d *dataset) loadInto(ctx context.Context, s Store, how banner.Loading) (*dataset, error) {
	loaded, err := datafile.Load(ctx, d.file, s)
	if err != nil {
		return nil, err
	}
	return &dataset{name: d.name, file: d.file, store: s, Loaded: loaded, loading: how}, nil
}

// source names d's data file for messages: its name, or the demo data's.
func (d *dataset) source() string {
	if d.name == "" {
		return demoName
	}
	return d.name
}

// organizations returns the logins of the file's organizations, in the
// file's order.
func (d *dataset) organizations() []string {
	logins := make([]string, len(d.file.Organizations))
	for i, od := range d.file.Organizations {
		logins[i] = od.Login
	}
	return logins
}

// shown returns d as the start-up message shows it.
func (d *dataset) shown() *banner.Data {
	return &banner.Data{Name: d.name, File: d.file, Store: d.store, Loaded: d.Loaded, Loading: d.loading}
}
