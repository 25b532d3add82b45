// Command issuefields serves the Issue Field Values API on a local address,
// as a stand-in for the real API that real clients can talk to. From a
// clone of the repository:
//
//	go install ./cmd/issuefields
//	issuefields
//	issuefields -data data.json
//
// It is the command that go run ./example runs, installed under a name of
// its own: the package github.com/issuefields/issuefields/example/server.
// issuefields -h lists its flags, and issuefields -version says which
// module, version and revision it was built from.
package main

import "github.com/issuefields/issuefields/example/server"

func main() {
	server.Command{}.Main()
}
