package main

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestServersShareThePrimaryRateLimit starts two servers on one database
// with a budget of 200 requests an hour: a token's requests to both count
// against one budget, which each server sees within the slack of 50
// requests, and which refuses the token's requests on both once spent.
func TestServersShareThePrimaryRateLimit(t *testing.T) {
	const limit, slack = 200, 50
	dsn := newDatabase(t)
	servers := []*running{start(t, "-postgres", dsn, "-rate-limit", "200"), start(t, "-postgres", dsn, "-rate-limit", "200")}
	accepted, refusedBy := 0, map[int]bool{}
	for i := 0; i < 2*limit && len(refusedBy) < len(servers); i++ {
		status, body, header := exchange(t, http.MethodGet, valuesURL(servers[i%2], "octo-org/roadmap", 2), "demo-writer-token", "", nil)
		switch status {
		case http.StatusOK:
			accepted++
			used, err := strconv.Atoi(header.Get("x-ratelimit-used"))
			if off := accepted - used; err != nil || off < 0 || off > slack {
				t.Fatalf("request %d, to server %d: x-ratelimit-used %q of %d accepted, want within %d", i+1, i%2+1, header.Get("x-ratelimit-used"), accepted, slack)
			}
		case http.StatusForbidden:
			if !strings.Contains(body, "API rate limit exceeded for user ID ") || header.Get("x-ratelimit-remaining") != "0" {
				t.Fatalf("request %d: 403 %s with x-ratelimit-remaining %q, want the rate limit's", i+1, body, header.Get("x-ratelimit-remaining"))
			}
			refusedBy[i%2] = true
		default:
			t.Fatalf("request %d: %d %s", i+1, status, body)
		}
	}
	if len(refusedBy) < len(servers) {
		t.Errorf("servers refusing: %v, want both", refusedBy)
	}
	if accepted < limit || accepted > limit+slack {
		t.Errorf("the servers accepted %d requests of a budget of %d, want %d to %d", accepted, limit, limit, limit+slack)
	}
}
