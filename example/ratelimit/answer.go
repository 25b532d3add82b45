package ratelimit

import (
	"net/http"
	"strconv"
	"time"

	"github.com/issuefields/issuefields/example/internal/bearer"
	"github.com/issuefields/issuefields/example/internal/jsonanswer"
	"github.com/issuefields/issuefields/internal/earlyanswer"
)

// documentationURL is GitHub's page on the primary rate limit, which the
// error bodies of this package point to.
const documentationURL = "https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api"

// setHeaders sets the headers of b's budget, of which used requests are
// counted in the window that ends at reset. Every answer of the API has
// them, so they cost two allocations: the numbers are written into one
// string, and the values are slices of one array, set under their
// canonical names (the CORS headers are set so too).
func setHeaders(h http.Header, b budget, used int, reset time.Time) {
	var buf [64]byte
	n := strconv.AppendInt(buf[:0], int64(b.limit), 10)
	limitEnd := len(n)
	n = strconv.AppendInt(n, int64(b.limit-used), 10)
	remainingEnd := len(n)
	n = strconv.AppendInt(n, int64(used), 10)
	usedEnd := len(n)
	n = strconv.AppendInt(n, reset.Unix(), 10)
	numbers := string(n)
	v := &[5]string{numbers[:limitEnd], numbers[limitEnd:remainingEnd], numbers[remainingEnd:usedEnd], numbers[usedEnd:], b.resource}
	h["X-Ratelimit-Limit"] = v[0:1:1]
	h["X-Ratelimit-Remaining"] = v[1:2:2]
	h["X-Ratelimit-Used"] = v[2:3:3]
	h["X-Ratelimit-Reset"] = v[3:4:4]
	h["X-Ratelimit-Resource"] = v[4:5:5]
}

// writeExceeded answers r 403 with message in GitHub's error body. The
// answer goes out before r's body is read, so it reaches a client that is
// still sending as the API's own early answers do: it closes the
// connection, after reading the rest of a body within maxBody bytes
// (internal/earlyanswer).
func writeExceeded(w http.ResponseWriter, r *http.Request, message string, maxBody int64) {
	pending := earlyanswer.Pending(r)
	if pending {
		w.Header().Set("Connection", "close")
	}
	jsonanswer.Write(w, http.StatusForbidden, errorBody{Message: message, DocumentationURL: documentationURL})
	if pending {
		earlyanswer.Finish(w, r, maxBody, 0)
	}
}

// writeNotEnabled answers GET /rate_limit with the limit off, as GitHub
// Enterprise does.
func writeNotEnabled(w http.ResponseWriter) {
	jsonanswer.Write(w, http.StatusNotFound, errorBody{Message: "Rate limiting is not enabled.", DocumentationURL: documentationURL})
}

// errorBody is GitHub's error body.
type errorBody struct {
	Message          string `json:"message"`
	DocumentationURL string `json:"documentation_url"`
}

// rate is one budget as GET /rate_limit shows it.
type rate struct {
	Limit     int    `json:"limit"`
	Used      int    `json:"used"`
	Remaining int    `json:"remaining"`
	Reset     int64  `json:"reset"`
	Resource  string `json:"resource"`
}

// rateLimits is the body of GET /rate_limit: rate is the core budget
// again, as GitHub keeps it for older clients.
type rateLimits struct {
	Resources struct {
		Core    rate `json:"core"`
		Search  rate `json:"search"`
		GraphQL rate `json:"graphql"`
	} `json:"resources"`
	Rate rate `json:"rate"`
}

// serveRateLimit answers GET /rate_limit with the caller's budgets, as
// GitHub does, counting nothing; its headers are those of the core budget.
// A request with a token that the verifier refuses is answered 401, as
// GitHub answers it, with the headers of its client address's core budget.
func (l *Limiter) serveRateLimit(w http.ResponseWriter, r *http.Request) {
	var body rateLimits
	for _, res := range []struct {
		name string
		into *rate
	}{{Core, &body.Resources.Core}, {Search, &body.Resources.Search}, {GraphQL, &body.Resources.GraphQL}} {
		b := l.budgetOf(r, res.name)
		used, reset := l.counter.Peek(b.key, b.period)
		used = min(used, b.limit)
		*res.into = rate{Limit: b.limit, Used: used, Remaining: b.limit - used, Reset: reset.Unix(), Resource: res.name}
		if res.name == Core {
			setHeaders(w.Header(), b, used, reset)
		}
	}
	if token, ok := bearer.Token(r); ok && token != "" && l.principal(r) == nil {
		jsonanswer.Write(w, http.StatusUnauthorized, errorBody{Message: "Bad credentials", DocumentationURL: "https://docs.github.com/rest"})
		return
	}
	body.Rate = body.Resources.Core
	jsonanswer.Write(w, http.StatusOK, body)
}
