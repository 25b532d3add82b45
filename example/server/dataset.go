package server

import (
	"context"
	"fmt"

	"github.com/issuefields/issuefields/example/banner"
	"github.com/issuefields/issuefields/example/datafile"
	"github.com/issuefields/issuefields/memstore"
)

// A dataset is a data file in the store that serves it, with the file's
// tokens over that store: the banner.Data that the start-up message shows,
// with the store as the server uses it.
type dataset struct {
	banner.Data
	// store is what the server serves: Data.Store, with the seed methods,
	// and the hooks beside it.
	store Store
}

// demoName is the name of the built-in demo data in messages.
const demoName = "demo.json"

// readData loads the data file name, or the built-in demo data if name is
// empty, into a new memstore.Store, which checks every rule of the file. An
// error begins with the name of the file.
func readData(ctx context.Context, name string) (*dataset, error) {
	var err error
	read := &dataset{Data: banner.Data{Name: name}}
	if name == "" {
		read.File = datafile.Demo()
	} else if read.File, err = datafile.Read(name); err != nil {
		return nil, err
	}
	d, err := read.loadInto(ctx, memoryStore(memstore.New()), banner.InMemory)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", read.source(), err)
	}
	return d, nil
}

// loadInto returns the dataset of d's data file loaded into s, an empty
// store, in the way how.
func (d *dataset) loadInto(ctx context.Context, s Store, how banner.Loading) (*dataset, error) {
	loaded, err := datafile.Load(ctx, d.File, s.Data)
	if err != nil {
		return nil, err
	}
	return d.inStore(s, loaded, how), nil
}

// inStore returns the dataset of d's data file in s, with loaded, the file's
// tokens and repositories over s, that reached s in the way how.
func (d *dataset) inStore(s Store, loaded *datafile.Loaded, how banner.Loading) *dataset {
	return &dataset{Data: banner.Data{Name: d.Name, File: d.File, Store: s.Data, Loaded: loaded, Loading: how}, store: s}
}

// source names d's data file for messages: its name, or the demo data's.
func (d *dataset) source() string {
	if d.Name == "" {
		return demoName
	}
	return d.Name
}

// organizations returns the logins of the file's organizations, in the
// file's order.
func (d *dataset) organizations() []string {
	logins := make([]string, len(d.File.Organizations))
	for i, od := range d.File.Organizations {
		logins[i] = od.Login
	}
	return logins
}
