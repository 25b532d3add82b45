// Package compat checks that the example server of the Issue Field Values API
// works with unchanged, widely used clients: go-github, pointed at the server
// as at a GitHub Enterprise Server host (over HTTP, and over HTTPS and HTTP/2
// with -tls-cert), and the README's Octokit program, run with Node.js and the
// packages that octokit/package-lock.json pins; that its webhook deliveries
// and hook routes match GitHub's published schemas, checked with kin-openapi
// against ../shared/spec/github-rest-subset.json beside the repository; and,
// in headless Chromium driven by chromedp, that the page of its tools shows
// the data and no secret, follows each change live and redelivers at a
// button's press, and that a page of another origin may call the API (CORS).
// A test that needs Chromium, Node.js or npm skips without it, unless the
// environment variable CI is set, when it fails instead.
//
// The package has no code of its own; its test builds and starts the example
// server, drives it with the clients and stops it. It is a module of its own so
// that go-github, kin-openapi and chromedp stay out of the core module's
// dependencies:
//
//	cd compat && go test ./...
package compat
