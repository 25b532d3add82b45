// Package compat checks that the example server of the Issue Field Values API
// works with an unchanged, widely used client: go-github, pointed at the
// server as at a GitHub Enterprise Server host, and that its webhook
// deliveries and hook routes match GitHub's published schemas, checked with
// kin-openapi against ../shared/spec/github-rest-subset.json beside the
// repository.
//
// The package has no code of its own; its test builds and starts the example
// server, drives it with go-github and stops it. It is a module of its own so
// that go-github and kin-openapi stay out of the core module's dependencies:
//
//	cd compat && go test ./...
package compat
