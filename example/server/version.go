package server

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
)

// commandName returns the name that the process was run by, as the help,
// -version and the errors show it: the installed binary's, such as
// issuefields, or the one go run gives it, such as example.
func commandName() string {
	return filepath.Base(os.Args[0])
}

// printVersion writes what -version prints: the command's name, its
// module's path and version, the revision it was built from and whether
// the working tree had changes then, when the build recorded them, and the
// Go version it was built with.
func printVersion(w io.Writer) error {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		_, err := fmt.Fprintf(w, "%s: no build information in this binary\n", commandName())
		return err
	}
	fmt.Fprintf(w, "%s %s %s\n", commandName(), info.Main.Path, info.Main.Version)
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
			fmt.Fprintf(w, "%s=%s\n", s.Key, s.Value)
		}
	}
	_, err := fmt.Fprintf(w, "built with %s\n", info.GoVersion)
	return err
}
