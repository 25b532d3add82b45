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
// The queries and mutations of github-mcp-server's issue field tools, sent
// with shurcooL/githubv4, run on each store: against the example server
// (memstore), and against issuefields-postgres (pgstore) on a fresh schema of
// the PostgreSQL database that DATABASE_URL names, loaded with the same data
// file. A test that needs Chromium, Node.js, npm or DATABASE_URL skips without
// it, unless the environment variable CI is set, when it fails instead.
//
// The package has no code of its own; its test builds and starts the servers,
// drives them with the clients and stops them. It is a module of its own so
// that go-github, githubv4, kin-openapi, chromedp and pgx stay out of the core
// module's dependencies:
//
//	cd compat && go test ./...
//	cd compat && bash ../.ci/postgres.sh -- go test ./...   # with a throwaway PostgreSQL
package compat
