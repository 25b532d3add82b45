// Command example serves the Issue Field Values API on a local address, as a
// stand-in for the real API that real clients can talk to:
//
//	go run ./example
//	go run ./example -data data.json
//
// It keeps the data in memory: each start serves the data file, or the
// built-in demo data, afresh. The server itself is the package
// github.com/issuefields/issuefields/example/server; go run ./example -h
// lists its flags. go install ./cmd/issuefields installs the same command as
// issuefields.
package main

import "github.com/issuefields/issuefields/example/server"

func main() {
	server.Command{}.Main()
}
