// Package ratelimit is the example server's primary rate limit, as GitHub's:
// each caller has three budgets of requests in fixed windows, core (the
// REST API), search (paths under /search/) and graphql (the GraphQL API),
// and every answer of the API carries the headers that tell the caller
// where its budget stands (x-ratelimit-limit, x-ratelimit-remaining,
// x-ratelimit-used, x-ratelimit-reset and x-ratelimit-resource).
//
// A caller with a good token is a principal, counted by its kind and login
// (every token of one principal shares its budgets); a caller without a
// token, or with a token that the verifier refuses, is counted by its
// client address. A window starts with the first request that counts
// against it and lasts an hour (a minute for search); x-ratelimit-reset is
// its end in epoch seconds.
//
// Every request that the Limiter's handler gets counts, whatever its
// answer, except GET /rate_limit, which the Limiter answers itself with
// GitHub's shape and which spends nothing, and an answer of 304 Not
// Modified, whose request is given back to its budget once the handler
// answers it; the headers of a 304 show the budget without it. A request
// of a spent budget is answered 403 with x-ratelimit-remaining: 0, no
// Retry-After, and GitHub's message ("API rate limit exceeded for user ID
// N.", "… for installation ID N." or "… for ADDRESS."), which go-github
// turns into its *RateLimitError. A GraphQL request of a spent budget is
// passed on instead, marked: the GraphQL handler reads the mark with
// Refused and answers 200 with an error of type RATE_LIMITED, under the
// headers that the Limiter has set.
//
// A Counter keeps the windows: Memory within one process, or one that
// several servers share, such as pgstore's.
package ratelimit
