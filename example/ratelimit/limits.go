package ratelimit

import (
	"strings"
	"time"
)

// The resources of the budgets, as x-ratelimit-resource and GET
// /rate_limit name them.
const (
	Core    = "core"
	Search  = "search"
	GraphQL = "graphql"
)

// The defaults of Limits, and the search budget, which is GitHub's.
const (
	// DefaultPerHour is GitHub's budget of an authenticated caller.
	DefaultPerHour = 5000
	// DefaultAnonymous is the default budget of a client address, looser
	// than GitHub's 60 so that local test suites do not trip it.
	DefaultAnonymous = 1000
	// SearchPerMinute is the search budget of every caller, as GitHub's
	// for an authenticated one.
	SearchPerMinute = 30
)

// Limits are the sizes of the budgets.
type Limits struct {
	// PerHour is the core and graphql budget of a principal, in requests
	// an hour (a GraphQL request costs one point); 0 turns every budget
	// and its headers off.
	PerHour int
	// Anonymous is the core and graphql budget of a client address, for
	// callers without a token or with a bad one, in requests an hour.
	Anonymous int
}

// budgetSize returns the limit and the window of resource for a principal,
// or for a client address when anonymous is true.
func (l Limits) budgetSize(resource string, anonymous bool) (limit int, period time.Duration) {
	switch {
	case resource == Search:
		return SearchPerMinute, time.Minute
	case anonymous:
		return l.Anonymous, time.Hour
	}
	return l.PerHour, time.Hour
}

// resourceOf returns the budget that a request for path, below the API's
// prefix, counts against: graphql for the GraphQL API (/graphql, and
// /api/graphql, where GitHub Enterprise serves it), search under /search/,
// and core for every other path.
func resourceOf(path string) string {
	switch {
	case path == "/graphql" || path == "/api/graphql":
		return GraphQL
	case strings.HasPrefix(path, "/search/"):
		return Search
	}
	return Core
}
