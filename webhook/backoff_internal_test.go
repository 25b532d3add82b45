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
