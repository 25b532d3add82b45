package ratelimit

import "context"

// refusalKey is the context key of a GraphQL request whose budget is spent.
type refusalKey struct{}

// withRefusal returns ctx marked as the context of a request whose budget
// is spent, with the message that says so.
func withRefusal(ctx context.Context, message string) context.Context {
	return context.WithValue(ctx, refusalKey{}, message)
}

// Refused reports whether ctx is the context of a GraphQL request whose
// graphql budget is spent, which the Limiter passes on instead of
// answering it, and returns GitHub's message for it ("API rate limit
// exceeded for user ID N."). The GraphQL handler answers such a request 200
// with {"errors":[{"type":"RATE_LIMITED","message":message}]}, and the
// headers that the Limiter has set (x-ratelimit-remaining: 0,
// x-ratelimit-resource: graphql) stay.
func Refused(ctx context.Context) (message string, refused bool) {
	message, refused = ctx.Value(refusalKey{}).(string)
	return message, refused
}
