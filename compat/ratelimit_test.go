package compat

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-github/v92/github"
)

// TestGoGitHubSeesThePrimaryRateLimit checks that go-github reads the
// budget's headers on every answer, turns a spent budget into its
// *RateLimitError, and reads GET /rate_limit, which spends nothing.
func TestGoGitHubSeesThePrimaryRateLimit(t *testing.T) {
	s := startServer(t, "-rate-limit", "3")
	c := s.client(t, writerToken)
	ctx := t.Context()

	limits, _, err := c.RateLimit.Get(ctx)
	if err != nil {
		t.Fatalf("RateLimit.Get: %v", err)
	}
	if limits.Core.Limit != 3 || limits.Core.Remaining != 3 || limits.Search.Limit != 30 || limits.GraphQL.Limit != 3 {
		t.Errorf("RateLimit.Get: core %+v, search %+v, graphql %+v; want 3 left of 3, 30 and 3", limits.Core, limits.Search, limits.GraphQL)
	}
	for i := 1; i <= 3; i++ {
		_, resp, err := listValues(ctx, c, "octo-org", "hello-world", 1, nil)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if resp.Rate.Limit != 3 || resp.Rate.Used != i || resp.Rate.Remaining != 3-i || resp.Rate.Resource != "core" {
			t.Errorf("request %d: Rate %+v, want %d used of 3, core", i, resp.Rate, i)
		}
		if until := time.Until(resp.Rate.Reset.Time); until <= 0 || until > time.Hour {
			t.Errorf("request %d: Rate.Reset in %v, want within the hour", i, until)
		}
	}
	_, _, err = listValues(ctx, c, "octo-org", "hello-world", 1, nil)
	var rateErr *github.RateLimitError
	if !errors.As(err, &rateErr) {
		t.Fatalf("the fourth request: %T %v, want *github.RateLimitError", err, err)
	}
	if rateErr.Rate.Remaining != 0 || rateErr.Rate.Limit != 3 {
		t.Errorf("RateLimitError.Rate %+v, want 0 left of 3", rateErr.Rate)
	}
	// Another client of the same token, which has not seen the refusal,
	// reads the spent budget; GET /rate_limit spent none of it.
	limits, _, err = s.client(t, writerToken).RateLimit.Get(ctx)
	if err != nil {
		t.Fatalf("RateLimit.Get: %v", err)
	}
	if limits.Core.Remaining != 0 || limits.Core.Used != 3 {
		t.Errorf("RateLimit.Get after: core %+v, want 3 used, 0 left", limits.Core)
	}
}
