package ratelimit

import (
	"strconv"
	"testing"
	"time"
)

func TestMemoryKeepsAtMostMaxWindows(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m := NewMemory(func() time.Time { return now })
	for i := range maxWindows + 10 {
		m.Spend(strconv.Itoa(i), time.Hour, 5)
	}
	if n := len(m.windows); n > maxWindows {
		t.Errorf("%d windows kept, want at most %d", n, maxWindows)
	}
	used, _, ok := m.Spend("last", time.Hour, 5)
	if !ok || used != 1 {
		t.Errorf("a new key at the bound: used %d, ok %v; want 1, true", used, ok)
	}
}
