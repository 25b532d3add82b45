package issuefields_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
)

// testClock is a clock that tests move by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// The default limits that Config.WriteLimits documents.
const (
	defaultWritesPerMinute = 80
	defaultWritesPerHour   = 500
)

// newLimitedHandler returns a handler over the fixture with the default write
// limits on a clock the test moves.
func newLimitedHandler(t *testing.T) (*issuefields.Handler, *testClock) {
	clock := &testClock{now: time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)}
	h := newConfiguredHandler(t, issuefields.Config{Store: newFixtureStore(t)})
	issuefields.SetWriteLimitClock(h, clock.Now)
	return h, clock
}

// alternatingWrite returns the i-th of a series of writes that each change
// the issue, so that none is a no-op.
func alternatingWrite(i int) string {
	return writeBody(fieldItem(estimateID, itoa(i)))
}

func TestSecondaryRateLimit(t *testing.T) {
	h, clock := newLimitedHandler(t)
	path := valuesPath(org, publicRepo, 2)
	for i := range defaultWritesPerMinute {
		if r := do(t, h, "POST", path, writerToken, alternatingWrite(i)); r.status != http.StatusOK {
			t.Fatalf("write %d: status %d, want 200: %s", i+1, r.status, r.body)
		}
	}
	before := do(t, h, "GET", path, "", "").body

	refused := do(t, h, "POST", path, writerToken, alternatingWrite(1000))
	if refused.status != http.StatusUnprocessableEntity {
		t.Fatalf("write 81: status %d, want 422: %s", refused.status, refused.body)
	}
	var e errorResponse
	refused.json(t, &e)
	if !strings.Contains(e.Message, "secondary rate limit") || e.Status != "422" {
		t.Errorf("write 81: body %s, want a message that names the secondary rate limit", refused.body)
	}
	// 80 a minute refill one every 750ms: the next write is allowed in 1s.
	if got := refused.header.Get("Retry-After"); got != "1" {
		t.Errorf("write 81: Retry-After %q, want \"1\"", got)
	}
	if after := do(t, h, "GET", path, "", "").body; after != before {
		t.Errorf("a refused write changed the issue:\nbefore %s\nafter  %s", before, after)
	}

	t.Run("every write counts, valid or not, and the limit is checked before the body", func(t *testing.T) {
		for _, tc := range []struct{ method, path, body string }{
			{"PUT", path, "not json"},
			{"DELETE", path + "/3", ""},
			{"POST", valuesPath(org, publicRepo, 999), alternatingWrite(1)},
		} {
			if r := do(t, h, tc.method, tc.path, writerToken, tc.body); r.status != http.StatusUnprocessableEntity {
				t.Errorf("%s %s over the limit: status %d, want 422", tc.method, tc.path, r.status)
			}
		}
	})

	t.Run("reads are never limited", func(t *testing.T) {
		for range 200 {
			if r := do(t, h, "GET", path, writerToken, ""); r.status != http.StatusOK {
				t.Fatalf("GET over the write limit: status %d, want 200", r.status)
			}
		}
	})

	t.Run("principals do not share buckets", func(t *testing.T) {
		if r := do(t, h, "POST", path, appUserToken, alternatingWrite(2000)); r.status != http.StatusOK {
			t.Errorf("another principal's write: status %d, want 200: %s", r.status, r.body)
		}
	})

	t.Run("the limit frees up as time passes", func(t *testing.T) {
		clock.Advance(750 * time.Millisecond)
		if r := do(t, h, "POST", path, writerToken, alternatingWrite(3000)); r.status != http.StatusOK {
			t.Errorf("write after 750ms: status %d, want 200: %s", r.status, r.body)
		}
		if r := do(t, h, "POST", path, writerToken, alternatingWrite(3001)); r.status != http.StatusUnprocessableEntity {
			t.Errorf("second write after 750ms: status %d, want 422", r.status)
		}
	})
}

// TestRefusedBeforeLimit checks that writes refused by authorization do not
// use up the caller's allowance.
func TestRefusedBeforeLimit(t *testing.T) {
	h, _ := newLimitedHandler(t)
	path := valuesPath(org, secretRepo, 1)
	for range 2 * defaultWritesPerMinute {
		if r := do(t, h, "POST", path, readerToken, alternatingWrite(1)); r.status != http.StatusForbidden {
			t.Fatalf("reader's write: status %d, want 403", r.status)
		}
	}
	if r := do(t, h, "POST", path, writerToken, alternatingWrite(1)); r.status != http.StatusOK {
		t.Errorf("writer's first write: status %d, want 200: %s", r.status, r.body)
	}
}

// TestRateLimitOff checks that negative limits turn the limit off rather than
// denying everything.
func TestRateLimitOff(t *testing.T) {
	h := newConfiguredHandler(t, issuefields.Config{Store: newFixtureStore(t),
		WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: -1}})
	for i := range defaultWritesPerHour + 1 {
		if r := do(t, h, "POST", valuesPath(org, publicRepo, 2), writerToken, alternatingWrite(i)); r.status != http.StatusOK {
			t.Fatalf("write %d with the limit off: status %d, want 200: %s", i+1, r.status, r.body)
		}
	}
}

// TestWriteLimitsWithDefaults checks the limits that a WriteLimiter enforces
// for each kind of value: zero selects the default, a negative count stays
// off, and a MaxKeys below one selects 10,000.
func TestWriteLimitsWithDefaults(t *testing.T) {
	for _, c := range []struct{ given, want issuefields.WriteLimits }{
		{issuefields.WriteLimits{}, issuefields.WriteLimits{PerMinute: defaultWritesPerMinute, PerHour: defaultWritesPerHour, MaxKeys: 10000}},
		{issuefields.WriteLimits{PerMinute: -1, PerHour: 7, MaxKeys: -3}, issuefields.WriteLimits{PerMinute: -1, PerHour: 7, MaxKeys: 10000}},
		{issuefields.WriteLimits{PerMinute: 3, PerHour: -1, MaxKeys: 5}, issuefields.WriteLimits{PerMinute: 3, PerHour: -1, MaxKeys: 5}},
	} {
		if got := c.given.WithDefaults(); got != c.want {
			t.Errorf("%+v.WithDefaults() = %+v, want %+v", c.given, got, c.want)
		}
	}
}
