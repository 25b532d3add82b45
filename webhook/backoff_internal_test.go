package webhook

import (
	"math"
	"testing"
	"time"
)

func TestBackoffDoublesWithinBounds(t *testing.T) {
	n := &Notifier{backoffBase: 500 * time.Millisecond, backoffMax: 30 * time.Second}
	for _, tc := range []struct {
		attempts int
		full     time.Duration
	}{
		{1, 500 * time.Millisecond},
		{2, time.Second},
		{3, 2 * time.Second},
		{4, 4 * time.Second},
		{6, 16 * time.Second},
		{7, 30 * time.Second},
		{100, 30 * time.Second},
	} {
		for range 200 {
			if got := n.backoff(tc.attempts); got < tc.full/2 || got > tc.full {
				t.Fatalf("backoff(%d) = %v, want between %v and %v", tc.attempts, got, tc.full/2, tc.full)
			}
		}
	}
}

func TestBackoffDoesNotOverflow(t *testing.T) {
	n := &Notifier{backoffBase: 3, backoffMax: math.MaxInt64}
	for attempts := 1; attempts <= 200; attempts++ {
		if got := n.backoff(attempts); got < 0 {
			t.Fatalf("backoff(%d) = %v, want a positive wait", attempts, got)
		}
	}
}

// TestDefaultRetriesWaitAtMostBound checks the bound the documentation
// gives: with the default options, the waits between the attempts of one
// delivery add up to at most 7.5 seconds (500 ms, 1 s, 2 s and 4 s, each
// at most), so that, with the timeout of each attempt, a delivery is decided
// within a minute.
func TestDefaultRetriesWaitAtMostBound(t *testing.T) {
	n, err := New("http://127.0.0.1:1/hooks", Options{Secret: []byte("s")})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(t.Context())
	const bound = 7500 * time.Millisecond
	for range 200 {
		var total time.Duration
		for attempt := 1; attempt < n.maxAttempts; attempt++ {
			total += n.backoff(attempt)
		}
		if total > bound {
			t.Fatalf("waits add up to %v, want at most %v", total, bound)
		}
		if worst := total + time.Duration(n.maxAttempts)*n.timeout; worst > time.Minute {
			t.Fatalf("a delivery may take %v, want at most a minute", worst)
		}
	}
}
