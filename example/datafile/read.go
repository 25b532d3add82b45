package datafile

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// demoData is the demo data: the data file that the server serves without
// -data.
//
//go:embed demo.json
var demoData []byte

// Read reads and parses the data file name. An error begins with the name.
func Read(name string) (*File, error) {
	data, err := os.ReadFile(name)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("%s: %w", name, pe.Err)
	}
	if err != nil {
		return nil, err
	}
	f, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// Demo returns the demo data, which is the file demo.json of this package,
// parsed anew at each call.
func Demo() *File {
	f, err := Parse(demoData)
	if err != nil {
		panic("demo.json: " + err.Error()) // the package's tests parse and load it
	}
	return f
}
