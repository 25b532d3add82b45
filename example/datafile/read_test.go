package datafile

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestReadNamesTheFile checks that an error of Read, whether the file cannot
// be read or breaks a rule, begins with the file's name.
func TestReadNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{\n  \"organizations\": [}"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ file, want string }{
		{filepath.Join(dir, "missing.json"), filepath.Join(dir, "missing.json") + ": no such file or directory"},
		{dir, dir + ": is a directory"},
		{bad, bad + ": line 2, column 21: invalid character '}' looking for beginning of value"},
	} {
		if _, err := Read(tt.file); err == nil || err.Error() != tt.want {
			t.Errorf("Read(%s) = %v, want %s", tt.file, err, tt.want)
		}
	}
}

// TestReadAndDemo checks that Read reads a data file, and that Demo gives
// the demo data anew at each call.
func TestReadAndDemo(t *testing.T) {
	file := filepath.Join(t.TempDir(), "demo.json")
	if err := os.WriteFile(file, demoData, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Read(file)
	if err != nil {
		t.Fatal(err)
	}
	demo := Demo()
	if !reflect.DeepEqual(demo, f) {
		t.Fatalf("Demo = %+v, want what Read gives of demo.json, %+v", demo, f)
	}
	demo.Repositories[0].Name = "changed"
	if again := Demo(); again.Repositories[0].Name != f.Repositories[0].Name {
		t.Errorf("a change to what Demo returned shows in its next result: %q", again.Repositories[0].Name)
	}
}
